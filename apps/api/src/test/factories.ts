import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { ROLE_IDS, type RoleName } from '@app/contracts';
import { contracts, countries, programs, students, universities, users, type Database } from '@app/db';
import { hashPassword } from '../lib/auth/password.js';
import { contractMoney } from '../lib/invoicing/money.js';

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
  used.add(code);
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
    // Tests that name a code pick their own (PAA…, DUP, UPD): random ones start with other letters.
    const first = 'JKVWYZ'[Math.floor(Math.random() * 6)]!;
    const code = `${first}${Array.from({ length: 2 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join('')}`;
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
}

/** A program and a university for contracts to point at. */
export async function createReferences(db: Database) {
  const code = randomCode();
  const [program] = await db.insert(programs).values({ name: `Program ${code}`, shortname: `P${code}` }).returning();
  const [university] = await db
    .insert(universities)
    .values({
      name: `University ${code}`,
      shortname: `U${code}`,
      payment_holder_name: 'Kasse',
      payment_holder_iban: 'DE89370400440532013000',
      payment_holder_swift: 'COBADEFFXXX',
      payment_holder_address: 'Street 1',
      payment_bank_address: 'Bank Street 1',
      payment_amount: '1000',
    })
    .returning();
  return { program: program!, university: university! };
}

/**
 * A student's stored columns, not the generated search keys: the factories also serve databases migrated only
 * part of the way (the migration tests), where those columns do not exist yet.
 */
const { name_key: _nameKey, last_name_key: _lastNameKey, first_name_key: _firstNameKey, address_key: _addressKey, ...studentColumns } = getTableColumns(students);

export async function createStudent(db: Database, values: Partial<typeof students.$inferInsert> = {}) {
  const country = values.cntry_id ?? (await createCountry(db)).id;
  const [row] = await db
    .insert(students)
    .values({
      first_name: 'Jan',
      last_name: `Student ${randomCode()}`,
      address: 'Hauptstraße 1',
      zip: '10115',
      city: 'Berlin',
      cntry_id: country,
      birth_date: '2000-01-31',
      email_address: 'jan@example.org',
      ...values,
    })
    .returning(studentColumns);
  return row!;
}

export async function createContract(db: Database, values: Partial<typeof contracts.$inferInsert> = {}) {
  const refs = await createReferences(db);
  const student = values.student_id ? undefined : await createStudent(db);
  const [row] = await db
    .insert(contracts)
    .values({
      student_id: values.student_id ?? student!.id,
      scholarship_id: 1,
      program_id: refs.program.id,
      intake: 2024,
      application_round: 1,
      application_id: `APP-${randomCode()}`,
      y1_university_id: refs.university.id,
      start_date: '2024-09-01',
      end_date: '2026-08-31',
      ...values,
    })
    .returning();
  return row!;
}

/**
 * Many students, each with one contract, for the tests that need a list at scale: the students first and analysed,
 * then their contracts. A contract's insert trigger reads its student's names (contracts_student_names) with the
 * plan of its first row; made in the statement that inserts the students, that plan read the whole table for every
 * contract (20,000: 12 s instead of 2 s; seedScale splits them the same way). `firstName` and `lastName` are SQL over `n`,
 * the student's number from 1; answers the contracts' ids in the students' order.
 */
export async function createStudentsWithContracts(
  db: Database,
  options: { count: number; firstName: SQL; lastName: SQL; email: string; applicationPrefix: string },
): Promise<number[]> {
  const { id: cntry_id } = await createCountry(db);
  const refs = await createReferences(db);
  const made = await db.execute<{ id: number }>(sql`
    insert into students (first_name, last_name, address, zip, city, cntry_id, birth_date, email_address)
    select ${options.firstName}, ${options.lastName}, 'Street 1', '10115', 'Berlin', ${cntry_id}, '2000-01-31', ${options.email}
    from generate_series(1, ${options.count}) n
    returning id`);
  await db.execute(sql`analyze students`);
  const created = await db.execute<{ id: number }>(sql`
    insert into contracts (student_id, scholarship_id, program_id, intake, application_round, application_id, y1_university_id, start_date, end_date)
    select s.id, 1, ${refs.program.id}, 2024, 1, ${options.applicationPrefix} || s.id, ${refs.university.id}, '2024-09-01', '2026-08-31'
    from unnest(${sql.param(made.rows.map((r) => r.id))}::int[]) with ordinality s(id, k)
    order by s.k
    returning id`);
  await db.execute(sql`analyze contracts`);
  return created.rows.map((r) => Number(r.id));
}

/** Supertest parser that keeps a binary body (xlsx, uploads) as a Buffer. */
export function binaryParser(res: unknown, callback: (err: Error | null, body: unknown) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** The contract's money as its row shows it (lib/invoicing/money.ts, through the same LATERAL join). */
export async function contractMoneyOf(db: Database, contractId: number) {
  const money = contractMoney(db, contracts.id);
  const [row] = await money.join(db.select(money.columns).from(contracts).$dynamic()).where(eq(contracts.id, contractId));
  return row as Record<'invoiced_amount' | 'payed_amount' | 'to_be_payed_amount' | 'planned_amount', number>;
}
