import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '@app/contracts';
import { seedCountries, users, type Database } from '@app/db';
import { hashPassword } from './lib/auth/password.js';

export interface SeedResult {
  countries: number;
  /** Set when the admin account was created now; the password is shown only if it was generated. */
  admin?: { login: string; generatedPassword?: string };
}

/** First start on an empty database: lookup data and one Developer account (DESIGN §3). */
export async function seedBase(db: Database, options: { adminUsername: string; adminPassword?: string }): Promise<SeedResult> {
  const result: SeedResult = { countries: await seedCountries(db) };
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if ((existing?.n ?? 0) === 0) {
    const generated = options.adminPassword ? undefined : randomBytes(12).toString('base64url');
    const password = options.adminPassword ?? generated!;
    await db.insert(users).values({
      usr_login_name: options.adminUsername,
      usr_first_name: 'System',
      usr_last_name: 'Administrator',
      usr_role_id: ROLE_IDS.Developer,
      usr_active: true,
      usr_login_password: await hashPassword(password),
    });
    result.admin = { login: options.adminUsername, ...(generated ? { generatedPassword: generated } : {}) };
  }
  return result;
}
