import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { EVENT_TYPE_IDS, studentResource } from '@app/contracts';
import { contracts, logEvents, students } from '@app/db';
import { nameMatches } from '../../lib/search.js';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { binaryParser, createContract, createCountry, createStudent, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
const germany = await createCountry(t.db, { cntry_code: 'DEU', cntry_name: 'Germany' });
let user: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
});
const api = (method: 'get' | 'post' | 'put', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const valid = (n: number) => ({
  first_name: `First${n}`,
  last_name: `last${String(n).padStart(5, '0')}`,
  address: 'Hauptstraße 1',
  zip: '10115',
  city: 'Berlin',
  cntry_id: germany.id,
  birth_date: '2001-05-17',
  email_address: `s${n}@example.org`,
});

crudSuite(t, {
  resource: studentResource,
  valid,
  invalid: { body: { first_name: 'Only', email_address: 'not-an-email' }, fields: ['last_name', 'address', 'zip', 'city', 'cntry_id', 'birth_date', 'email_address'] },
  change: { city: 'Potsdam', phone: '+49 30 1234567' },
  sortBy: ['last_name', 'first_name'],
});

describe('students: event log', () => {
  it('names the student by first and last name in the events of their changes', async () => {
    const res = await api('post', '/students').send({ ...valid(77), first_name: 'Łukasz', last_name: 'Wiśniewski' });
    expect(res.status).toBe(201);
    const [created] = await t.db
      .select()
      .from(logEvents)
      .where(and(eq(logEvents.student_id, res.body.id), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.create)));
    expect(created?.le_message).toContain('"Łukasz Wiśniewski"');
  });
});

describe('students: fields and validation', () => {
  it('answers every field of the spec, with the country names joined and read-only values set', async () => {
    const res = await api('post', '/students').send({ ...valid(1), citizenship1_cntry_id: germany.id, gender: 'Non-Binary', payment_bank_iban: 'de89 3704 0044 0532 0130 00', payment_bank_swift: 'cobadeffxxx' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = (await api('get', `/students/${res.body.id}`)).body;
    expect(row).toMatchObject({
      cntry: 'Germany',
      citizenship1: 'Germany',
      gender: 'Non-Binary',
      payment_bank_iban: 'DE89370400440532013000',
      payment_bank_swift: 'COBADEFFXXX',
      registration_fee_payed: false,
      active_contract_id: null,
      bankinfo_request_timestamp: null,
      // Created with bank details: they were updated, by this user.
      bankinfo_update_user: 'Test User',
    });
    expect(Object.keys(row).sort()).toEqual(Object.keys(studentResource.schema.shape).sort());
  });

  it('checks IBAN and BIC only when given, and the gender options', async () => {
    expect((await api('post', '/students').send({ ...valid(2), payment_bank_iban: '', payment_bank_swift: '' })).status).toBe(201);
    const bad = await api('post', '/students').send({ ...valid(3), payment_bank_iban: 'DE00 1234', payment_bank_swift: 'XX', gender: 'Other' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      payment_bank_iban: ['IBAN is not a valid IBAN'],
      payment_bank_swift: ['BIC / SWIFT is not a valid BIC (8 or 11 characters)'],
      gender: ['Gender must be Male, Female or Non-Binary'],
    });
  });

  it('refuses a birth date after today by name, on create and on edit, and changes nothing', async () => {
    const ahead = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const created = await api('post', '/students').send({ ...valid(4), birth_date: ahead });
    expect([created.status, created.body.errors]).toEqual([400, { birth_date: ['Birth date cannot be in the future'] }]);
    expect(await t.db.select().from(students).where(eq(students.email_address, valid(4).email_address))).toHaveLength(0);
    const s = await createStudent(t.db, { cntry_id: germany.id, birth_date: '1999-02-03' });
    const edited = await putAsRead(t, user.token, `/students/${s.id}`, { id: s.id, birth_date: ahead });
    expect([edited.status, edited.body.errors]).toEqual([400, { birth_date: ['Birth date cannot be in the future'] }]);
    expect((await t.db.select({ birth: students.birth_date }).from(students).where(eq(students.id, s.id)))[0]!.birth).toBe('1999-02-03');
    // Other fields of a student are edited as before.
    expect((await putAsRead(t, user.token, `/students/${s.id}`, { id: s.id, city: 'Potsdam' })).status).toBe(200);
  });

  it('does not let registration_fee_payed or active_contract_id be written', async () => {
    const s = await createStudent(t.db, { cntry_id: germany.id });
    const res = await api('put', `/students/${s.id}`).send({ id: s.id, registration_fee_payed: true, active_contract_id: 5 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['active_contract_id', 'registration_fee_payed']);
  });
});

describe('students: bank information updated', () => {
  const stamps = async (studentId: number, contractId: number) => {
    const [student] = await t.db.select({ at: students.bankinfo_update_timestamp, by: students.bankinfo_update_user }).from(students).where(eq(students.id, studentId));
    const [contract] = await t.db.select({ at: contracts.bankinfo_updated_timestamp, version: contracts.edit_timestamp }).from(contracts).where(eq(contracts.id, contractId));
    return { student: student!, contract: contract! };
  };

  it('an edit of a bank field stamps the student (time and user) and their contracts; other edits do not', async () => {
    const student = await createStudent(t.db, { cntry_id: germany.id });
    const contract = await createContract(t.db, { student_id: student.id });
    const read = async () => (await api('get', `/students/${student.id}`)).body;

    await api('put', `/students/${student.id}`).set('If-Match', (await read()).edit_timestamp).send({ id: student.id, city: 'Potsdam' }).expect(200);
    expect(await stamps(student.id, contract.id)).toMatchObject({ student: { at: null, by: null }, contract: { at: null } });

    const before = await stamps(student.id, contract.id);
    const res = await api('put', `/students/${student.id}`).set('If-Match', (await read()).edit_timestamp).send({ id: student.id, payment_bank_iban: 'DE89 3704 0044 0532 0130 00' });
    expect(res.status, res.text).toBe(200);
    const after = await stamps(student.id, contract.id);
    expect(after.student.at).toBeInstanceOf(Date);
    expect(after.student.by).toBe(user.id);
    expect(after.contract.at).toEqual(after.student.at);
    // The contract was not edited: its version stays, so a contract form open meanwhile still saves.
    expect(after.contract.version).toEqual(before.contract.version);
    expect(res.body.bankinfo_update_user).toBe('Test User');

    // Emptied, the bank data was not supplied: the stamp stays as it was (decision 054).
    await t.db.update(students).set({ bankinfo_update_timestamp: new Date('2024-01-01T00:00:00Z') }).where(eq(students.id, student.id));
    const emptied = await api('put', `/students/${student.id}`).set('If-Match', (await read()).edit_timestamp).send({ id: student.id, payment_bank_iban: null });
    expect(emptied.status, emptied.text).toBe(200);
    expect((await stamps(student.id, contract.id)).student.at).toEqual(new Date('2024-01-01T00:00:00Z'));
  });

  it('a new student created with bank details is stamped; one without is not', async () => {
    const withBank = await api('post', '/students').send({ ...valid(9101), payment_bank_name: 'Sparkasse' });
    const without = await api('post', '/students').send(valid(9102));
    expect([withBank.status, without.status]).toEqual([201, 201]);
    const [a] = await t.db.select({ at: students.bankinfo_update_timestamp }).from(students).where(eq(students.id, withBank.body.id));
    const [b] = await t.db.select({ at: students.bankinfo_update_timestamp }).from(students).where(eq(students.id, without.body.id));
    expect(a!.at).toBeInstanceOf(Date);
    expect(b!.at).toBeNull();
  });
});

describe('students: quick filter and advanced filters', () => {
  beforeAll(async () => {
    await createStudent(t.db, { first_name: 'José', last_name: 'Müller-Ñúñez', cntry_id: germany.id, email_address: 'jose@uni.example', city: 'Göttingen' });
    await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ørsted', cntry_id: germany.id, email_address: 'zoe@uni.example', zip: '37073' });
  });
  const names = async (query: string) => (await api('get', `/students?${query}`)).body.data.map((s: { last_name: string }) => s.last_name);

  it('finds names regardless of accents and case, word by word', async () => {
    expect(await names('search=muller')).toEqual(['Müller-Ñúñez']);
    expect(await names('search=NUNEZ%20jose')).toEqual(['Müller-Ñúñez']);
    expect(await names('search=zoe%20orsted')).toEqual(['Ørsted']);
    expect(await names('search=jose%20orsted')).toEqual([]);
  });

  it('lists names that start with the text first, then the others, each in the sort asked for', async () => {
    await createStudent(t.db, { first_name: 'Anna', last_name: 'Bergmann', cntry_id: germany.id });
    await createStudent(t.db, { first_name: 'Zoe', last_name: 'Mannheim', cntry_id: germany.id });
    await createStudent(t.db, { first_name: 'Männy', last_name: 'Aalto', cntry_id: germany.id });
    await createStudent(t.db, { first_name: 'Carl', last_name: 'Hermann', cntry_id: germany.id });
    // Prefixes (of the last or the first name, accents aside) by last name, then the rest by last name.
    expect(await names('search=mann')).toEqual(['Aalto', 'Mannheim', 'Bergmann', 'Hermann']);
    expect(await names('search=mann&sort=last_name|desc')).toEqual(['Mannheim', 'Aalto', 'Hermann', 'Bergmann']);
  });

  it('uses the trigram index for the name search, not a sequential scan', async () => {
    const query = t.db.select({ id: students.id }).from(students).where(nameMatches('muller')).toSQL();
    const client = await t.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(`EXPLAIN ${query.sql}`, query.params);
      expect(plan.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n')).toContain('students_name_trgm_idx');
    } finally {
      client.release();
    }
  });

  it('filters by name, e-mail address, address and bank info dates', async () => {
    expect(await names('name=mÜller')).toEqual(['Müller-Ñúñez']);
    expect(await names('email_address=zoe@uni')).toEqual(['Ørsted']);
    expect(await names('address=göttingen')).toEqual(['Müller-Ñúñez']);
    expect(await names('address=37073')).toEqual(['Ørsted']);
    const [zoe] = await t.db.select().from(students).where(eq(students.last_name, 'Ørsted'));
    await t.db.update(students).set({ bankinfo_request_timestamp: new Date('2024-03-01T10:00:00Z'), bankinfo_update_timestamp: new Date('2024-06-01T10:00:00Z') }).where(eq(students.id, zoe!.id));
    expect(await names('bankinfo_requested_before=2024-03-02')).toEqual(['Ørsted']);
    expect(await names('bankinfo_requested_before=2024-03-01')).toEqual([]);
    expect(await names('bankinfo_updated_before=2024-06-02&email_address=uni.example')).toEqual(['Ørsted']);
    expect((await api('get', '/students?bankinfo_updated_before=soon')).status).toBe(400);
  });
});

describe('students: Export Selection', () => {
  async function readXlsx(body: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it('exports the selected rows as Students.xlsx with the overview columns, dates as dates, formula-like text made safe', async () => {
    const evil = await createStudent(t.db, { first_name: '=HYPERLINK("http://x","click")', last_name: '+Evil', cntry_id: germany.id, birth_date: '1999-12-31', city: '@SUM(A1)' });
    const plain = await createStudent(t.db, { first_name: 'Anna', last_name: 'Plain', cntry_id: germany.id });
    const reader = await userWithToken(t.app, t.db, 'Reader');
    const res = await api('post', '/students/download_report', reader.token).send({ ids: [plain.id, evil.id] }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Students.xlsx"; filename*=UTF-8''Students.xlsx`);
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0]!.slice(0, 8)).toEqual(['First Name', 'Last Name', 'Citizenship 1', 'Street Address', 'Postal Code', 'City', 'Country', 'Birth Date']);
    expect(rows).toHaveLength(3);
    // Default order: last name ascending ("+Evil" before "Plain").
    // As typed, in cells kept as text (quotePrefix: lib/files/xlsx.test.ts).
    expect(rows[1]![0]).toBe('=HYPERLINK("http://x","click")');
    expect(rows[1]![1]).toBe('+Evil');
    expect(rows[1]![5]).toBe('@SUM(A1)');
    expect(rows[1]![6]).toBe('Germany');
    expect(rows[1]![7]).toEqual(new Date('1999-12-31T00:00:00Z'));
    expect(rows[2]![0]).toBe('Anna');
  });

  it('exports the filtered list when nothing is selected', async () => {
    const res = await api('post', '/students/download_report').send({ filter: { search: 'muller' } }).buffer(true).parse(binaryParser);
    const rows = await readXlsx(res.body as Buffer);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Müller-Ñúñez']);
    const bad = await api('post', '/students/download_report').send({ filter: { colour: 'red' } });
    expect(bad.status).toBe(400);
  });
});

describe('students: choice searched on the server', () => {
  it('answers at most 50 students matching the text, by name, and the one a form holds', async () => {
    for (let i = 0; i < 55; i++) await createStudent(t.db, { first_name: 'Chooser', last_name: `Quellé ${String(i).padStart(2, '0')}`, cntry_id: germany.id });
    const held = await createStudent(t.db, { first_name: 'Held', last_name: 'Value', cntry_id: germany.id });
    const res = await api('get', `/students/choice/search?search=quelle&id=${held.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(51);
    expect(res.body[0]).toEqual({ id: held.id, name: 'Value, Held' });
    expect(res.body[1].name).toBe('Quellé 00, Chooser');
    expect(res.body[50].name).toBe('Quellé 49, Chooser');
    // The held one is not named twice when it is among the matches.
    const matched = await api('get', `/students/choice/search?search=held&id=${held.id}`);
    expect(matched.body).toEqual([{ id: held.id, name: 'Value, Held' }]);
    expect((await api('get', '/students/choice/search?id=abc')).body.errors).toHaveProperty('id');
    expect((await api('get', '/students/choice/search?colour=red')).status).toBe(400);
  });
});
