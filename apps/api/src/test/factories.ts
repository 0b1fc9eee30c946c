import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { ROLE_IDS, type RoleName } from '@app/contracts';
import { countries, users, type Database } from '@app/db';
import { hashPassword } from '../lib/auth/password.js';

export const PASSWORD = 'correct horse battery staple';
let hashed: Promise<string> | undefined;

const unique = () => randomBytes(4).toString('hex');

export interface TestUser {
  id: number;
  login: string;
  password: string;
}

/** A user with the given role; all share one password so tests do not hash again and again. */
export async function createUser(db: Database, options: { role?: RoleName; active?: boolean; login?: string; passwordHash?: string } = {}): Promise<TestUser> {
  hashed ??= hashPassword(PASSWORD);
  const login = options.login ?? `user_${unique()}`;
  const [row] = await db
    .insert(users)
    .values({
      usr_login_name: login,
      usr_first_name: 'Test',
      usr_last_name: options.role ?? 'Administrator',
      usr_role_id: ROLE_IDS[options.role ?? 'Administrator'],
      usr_active: options.active ?? true,
      usr_login_password: options.passwordHash ?? (await hashed),
    })
    .returning({ id: users.id });
  return { id: row!.id, login, password: PASSWORD };
}

/** Logs in and answers the bearer token. */
export async function loginToken(app: Express, user: { login: string; password: string }): Promise<string> {
  const res = await request(app).post('/api/v1.0/auth/login').send({ username: user.login, password: user.password });
  if (res.status !== 200) throw new Error(`login of ${user.login} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** A logged-in user of the role, with a token for `Authorization: Bearer`. */
export async function userWithToken(app: Express, db: Database, role: RoleName = 'Administrator') {
  const user = await createUser(db, { role });
  return { ...user, token: await loginToken(app, user) };
}

export async function createCountry(db: Database, values: { cntry_code?: string; cntry_name?: string } = {}) {
  const code = values.cntry_code ?? randomCode();
  const [row] = await db
    .insert(countries)
    .values({ cntry_code: code, cntry_name: values.cntry_name ?? `Country ${code}` })
    .returning();
  return row!;
}

const used = new Set<string>();
/** A 3-letter code not used yet in this file. */
export function randomCode(): string {
  for (;;) {
    const code = Array.from({ length: 3 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('');
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
}
