import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, like } from 'drizzle-orm';
import { CONTRACT_IMPORT_COLUMNS, ROLES, type BatchRun, type RoleName } from '@app/contracts';
import { contracts, logEvents as events, students } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, createCountry, createReferences, createStudent, userWithToken } from '../../test/factories.js';
import { listen, pdfText, streamUpload } from '../../test/files.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { rawZip, unzip, zeroBombEntry } from '../../test/zip.js';

const t = await setupTestApp();
await startTestWorkers(t);

const tokens = {} as Record<RoleName, string>;
const userIds = {} as Record<RoleName, number>;
let refs: Awaited<ReturnType<typeof createReferences>>;
let country: Awaited<ReturnType<typeof createCountry>>;
beforeAll(async () => {
  for (const { name } of ROLES) {
    const u = await userWithToken(t.app, t.db, name);
    tokens[name] = u.token;
    userIds[name] = u.id;
  }
  refs = await createReferences(t.db);
  country = await createCountry(t.db, { cntry_code: 'DEU', cntry_name: 'Deutschland' });
});

const api = (method: 'get' | 'post', path: string, token = tokens.User) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const download = (method: 'get' | 'post', path: string, token = tokens.User) => api(method, path, token).buffer(true).parse(binaryParser);

async function readBook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

const sheetValues = (sheet: ExcelJS.Worksheet) => {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
};

/** A row of the template's columns, filled as a person would (names with diacritics, a country by its name). */
function contractRow(n: number, over: Record<string, string> = {}): Record<string, string> {
  return {
    application_id: `IMP-${n}`,
    application_round: '1',
    intake: '2021',
    scholarship: 'eu-full',
    program: refs.program.shortname,
    y1_university: refs.university.name,
    start_date: '2021-09-01',
    first_name: ['Zoë', 'Łukasz', 'Ağça', 'Søren', 'Željko'][n % 5]!,
    last_name: `Müller-Ñúñez ${n}`,
    birth_date: '12-04-1998',
    gender: 'Female',
    email_address: `import.${n}@example.org`,
    address: 'Hauptstraße 5',
    zip: '10115',
    city: 'Berlin',
    country: 'Deutschland',
    payment_bank_iban: 'DE89 3704 0044 0532 0130 00',
    payment_bank_swift: 'COBADEFFXXX',
    ...over,
  };
}

/** The downloaded template, filled with these rows below its header. */
async function filledTemplate(rows: Record<string, string>[]): Promise<Buffer> {
  const res = await download('get', '/contracts/import_template');
  expect(res.status).toBe(200);
  const book = await readBook(res.body as Buffer);
  const sheet = book.worksheets[0]!;
  rows.forEach((r, i) => CONTRACT_IMPORT_COLUMNS.forEach((c, j) => (sheet.getCell(i + 2, j + 1).value = r[c.key] ?? null)));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A bank-info sheet: application number and the bank columns given. */
async function bankSheet(rows: Record<string, string>[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Bank');
  sheet.addRow(['Application Number', 'IBAN', 'BIC', 'Bank Name', 'Bank Reference']);
  for (const r of rows) sheet.addRow([r.application_number, r.iban, r.bic ?? null, r.bank ?? null, r.reference ?? null]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const upload = (path: string, bytes: Buffer, filename: string, token = tokens.User) => api('post', path, token).attach('file', bytes, { filename });

async function preview(path: string, bytes: Buffer, filename: string): Promise<{ run: BatchRun; filename: string }> {
  const res = await upload(path, bytes, filename);
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({ filename, run_id: expect.any(Number) });
  const run = await waitForRun(t, tokens.User, res.body.run_id as number);
  expect(run.dry_run).toBe(true);
  return { run, filename: res.body.filename as string };
}

async function confirm(runId: number): Promise<BatchRun> {
  const res = await api('post', `/batch_runs/${runId}/confirm`);
  expect(res.status, res.text).toBe(202);
  return waitForRun(t, tokens.User, res.body.run_id as number);
}

const importedContracts = () => t.db.select().from(contracts).where(like(contracts.application_id, 'IMP-%'));

describe('the contract import template', () => {
  it('every logged-in role downloads it; without login it is a 401', async () => {
    for (const { name } of ROLES) expect((await download('get', '/contracts/import_template', tokens[name])).status, name).toBe(200);
    expect((await t.http().get('/api/v1.0/contracts/import_template')).status).toBe(401);
  });

  it('has the header row, data validation lists on the choice columns and a sheet explaining each column with an example', async () => {
    const res = await download('get', '/contracts/import_template');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = await readBook(res.body as Buffer);
    const [sheet, lists, help] = [book.worksheets[0]!, book.getWorksheet('Lists')!, book.getWorksheet('Explanation')!];
    // No example among the rows: uploaded as downloaded, the template imported its sample contract (decision 067).
    const [header, ...rows] = sheetValues(sheet);
    expect(rows).toEqual([]);
    const [helpHeader, ...explained] = sheetValues(help);
    expect(helpHeader!.slice(0, 3)).toEqual(['Column', 'Required', 'Example']);
    const example = header!.map((title) => explained.find((r) => r[0] === title)?.[2]);
    expect(header).toEqual(CONTRACT_IMPORT_COLUMNS.map((c) => c.title));
    expect(header).toEqual(expect.arrayContaining(['Application ID', 'Round', 'Intake', 'Scholarship', 'Program', 'University Y1', 'University Y2', 'Start Date', 'End Date', 'First Name', 'Last Name', 'Birth Date', 'Gender', 'E-mail', 'Address', 'Zip', 'City', 'Country', 'Citizenship', 'Phone', 'Passport', 'IBAN', 'BIC', 'Payment Holder First Name']));
    expect(example[0]).toBe('APP-2021-0001');
    const col = (title: string) => sheet.getColumn(CONTRACT_IMPORT_COLUMNS.findIndex((c) => c.title === title) + 1).letter;
    expect(sheet.getCell(`${col('Gender')}2`).dataValidation).toMatchObject({ type: 'list', formulae: ['"Male,Female,Non-Binary"'] });
    expect(sheet.getCell(`${col('Round')}5`).dataValidation).toMatchObject({ type: 'list', formulae: ['"0,1,2,3,4,5"'] });
    const program = sheet.getCell(`${col('Program')}2`).dataValidation;
    expect(program.type).toBe('list');
    expect(program.formulae![0]).toMatch(/^Lists!\$[A-Z]+\$2:\$[A-Z]+\$\d+$/);
    // The Lists sheet holds the database's programs, and the examples name ones that exist here.
    expect(sheetValues(lists).flat()).toContain(refs.program.shortname);
    const [listHeader, ...listRows] = sheetValues(lists);
    const listOf = (title: string) => listRows.map((r) => r[listHeader!.indexOf(title)]).filter((v) => v !== undefined && v !== null);
    const exampleOf = (title: string) => example[header!.indexOf(title)];
    for (const title of ['Program', 'University Y1', 'University Y2', 'Scholarship', 'Country']) expect(listOf(title), title).toContain(exampleOf(title));
    for (const c of CONTRACT_IMPORT_COLUMNS) expect(explained.map((r) => r[0])).toContain(c.title);
  });
});

describe('contract import from Excel', () => {
  let file: Buffer;
  beforeAll(async () => {
    const rows = [contractRow(1), contractRow(2), contractRow(3, { payment_bank_iban: 'DE89 3704 0044 0532 0130 01' }), contractRow(4), contractRow(5)];
    file = await filledTemplate(rows);
  });

  it('previews five rows: four it will create, the bad IBAN refused naming the column, nothing written', async () => {
    const { run } = await preview('/contracts/import', file, 'Intake 2021 – Zoë.xlsx');
    expect(run.total).toBe(5);
    expect(run.rows.filter((r) => r.ok)).toHaveLength(4);
    // What each row will do, not what it did: nothing has been created yet.
    expect(run.rows.filter((r) => r.ok).map((r) => r.message)).toEqual(Array(4).fill('Will create student and contract'));
    const refused = run.rows.filter((r) => !r.ok);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toBe('Error for row 4: IBAN: checksum wrong');
    expect(await importedContracts()).toHaveLength(0);
  });

  it('a Reader may not import (403), and a second file field or no file is a 400 naming the field', async () => {
    expect((await upload('/contracts/import', file, 'x.xlsx', tokens.Reader)).status).toBe(403);
    const none = await api('post', '/contracts/import').field('note', 'x');
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/^(note|file): /);
  });

  it('confirmed, it creates four contracts with the screen defaults and names intact; one event with the counts', async () => {
    const { run } = await preview('/contracts/import', file, 'Intake 2021 – Zoë.xlsx');
    const done = await confirm(run.id);
    expect(done.dry_run).toBe(false);
    // The row the preview refused stays in the import, refused (issue 16: every input row with its outcome).
    expect(done.rows.map((r) => r.message)).toEqual([...Array(2).fill('Created student and contract'), 'Error for row 4: IBAN: checksum wrong', ...Array(2).fill('Created student and contract')]);
    expect(done.failed).toBe(1);
    const made = await importedContracts();
    expect(made.map((c) => c.application_id).sort()).toEqual(['IMP-1', 'IMP-2', 'IMP-4', 'IMP-5']);
    for (const c of made) {
      expect(c).toMatchObject({ start_date: '2021-09-01', end_date: '2023-08-31', active: true, bankinfo_required: true, check_universityfee_payment: true, instalments: false, scholarship_id: 1, program_id: refs.program.id, y1_university_id: refs.university.id, intake: 2021, application_round: 1 });
    }
    const [zoe] = await t.db.select().from(students).where(eq(students.email_address, 'import.5@example.org'));
    expect(zoe).toMatchObject({ first_name: 'Zoë', last_name: 'Müller-Ñúñez 5', birth_date: '1998-04-12', cntry_id: country.id, payment_bank_iban: 'DE89370400440532013000', gender: 'Female' });
    // The student's bank details came with the import: a bank-info update, stamped with who and when.
    expect(zoe!.bankinfo_update_user).toBe(userIds.User);
    expect(zoe!.bankinfo_update_timestamp).not.toBeNull();
    const logged = await t.db.select().from(events).where(like(events.le_message, `Import Excel contracts of Intake 2021 – Zoë.xlsx finished (run ${done.id})%`));
    expect(logged.map((e) => e.le_message)).toEqual([`Import Excel contracts of Intake 2021 – Zoë.xlsx finished (run ${done.id}): 4 created, 0 updated, 0 unchanged, 1 refused`]);
  });

  it('the same file again creates nothing: four rows unchanged, the bad one refused again', async () => {
    const before = (await importedContracts()).length;
    const studentsBefore = (await t.db.select().from(students).where(like(students.email_address, 'import.%'))).length;
    const { run } = await preview('/contracts/import', file, 'Intake 2021 – Zoë.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual(['Nothing to change', 'Nothing to change', 'Error for row 4: IBAN: checksum wrong', 'Nothing to change', 'Nothing to change']);
    const done = await confirm(run.id);
    expect(done.rows.map((r) => r.message)).toEqual(['Unchanged', 'Unchanged', 'Error for row 4: IBAN: checksum wrong', 'Unchanged', 'Unchanged']);
    expect(await importedContracts()).toHaveLength(before);
    expect(await t.db.select().from(students).where(like(students.email_address, 'import.%'))).toHaveLength(studentsBefore);
  });

  it('Retry failed rows does not start the import again for a row refused for its data: it would be refused again, and the answer says so', async () => {
    const { run } = await preview('/contracts/import', await filledTemplate([contractRow(60), contractRow(61, { payment_bank_iban: 'DE89 3704 0044 0532 0130 01' })]), 'retry.xlsx');
    const done = await confirm(run.id);
    expect(done).toMatchObject({ status: 'finished', failed: 1, retryable: 0 });
    const retried = await api('post', `/batch_runs/${done.id}/retry_failed`);
    expect(retried.status).toBe(409);
    expect(retried.body.message).toBe("The failed row cannot be retried: it was refused for its data or its record's state, and would be refused again. Correct it and start again");
    // Nothing was started: the run and its rows are as they were, and the log says no retry.
    expect((await api('get', `/batch_runs/${done.id}`)).body).toEqual(done);
    expect(await t.db.select().from(events).where(like(events.le_message, `%(run ${done.id}): %retried%`))).toEqual([]);
  });

  it('a changed cell updates the record it belongs to; an existing student found by name and birth date gets the new contract', async () => {
    const changed = await filledTemplate([
      contractRow(1, { city: 'München' }),
      contractRow(6, { email_address: 'another.address@example.org', first_name: 'Zoë', last_name: 'Müller-Ñúñez 5', birth_date: '1998-04-12' }),
    ]);
    const { run } = await preview('/contracts/import', changed, 'changes.xlsx');
    // Fields named as the template's columns head them, not by their database names.
    expect(run.rows.map((r) => r.message)).toEqual(['Will update student: City', 'Will create contract for the existing student and update student: E-mail']);
  });

  it("refuses a row whose e-mail belongs to a student born on another day (a sibling's shared address): nothing of that student changes", async () => {
    const sibling = await filledTemplate([contractRow(8, { email_address: 'import.1@example.org', first_name: 'Piotr', last_name: 'Kowalski', birth_date: '01-01-2001', payment_bank_iban: 'NL91 ABNA 0417 1643 00', payment_bank_swift: 'ABNANL2A' })]);
    const { run } = await preview('/contracts/import', sibling, 'sibling.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual([
      'Error for row 2: E-mail: import.1@example.org belongs to Łukasz Müller-Ñúñez 1, born 12-04-1998, not to Piotr Kowalski, born 01-01-2001: give each student their own e-mail address',
    ]);
  });

  it('an empty end date keeps the stored one (shortened by hand); a moved start date moves it, as on the screen', async () => {
    const [imp2] = (await importedContracts()).filter((c) => c.application_id === 'IMP-2');
    await t.db.update(contracts).set({ end_date: '2022-12-31' }).where(eq(contracts.id, imp2!.id));
    const same = await preview('/contracts/import', await filledTemplate([contractRow(2)]), 'again.xlsx');
    expect(same.run.rows.map((r) => r.message)).toEqual(['Nothing to change']);
    const moved = await preview('/contracts/import', await filledTemplate([contractRow(2, { start_date: '2021-10-01' })]), 'moved.xlsx');
    expect(moved.run.rows.map((r) => r.message)).toEqual(['Will update contract: Start Date, End Date']);
    const done = await confirm(moved.run.id);
    expect(done.failed).toBe(0);
    // Done, the row says what it did.
    expect(done.rows.map((r) => r.message)).toEqual(['Updated contract: Start Date, End Date']);
    expect((await t.db.select({ end_date: contracts.end_date }).from(contracts).where(eq(contracts.id, imp2!.id)))[0]!.end_date).toBe('2023-09-30');
  });

  it('refuses rows with unknown references and missing fields, naming each column', async () => {
    const bad = await filledTemplate([contractRow(7, { program: 'No such program', country: 'Atlantis', email_address: 'not-an-email', start_date: '31-02-2021', application_round: '9' })]);
    const { run } = await preview('/contracts/import', bad, 'bad.xlsx');
    const message = run.rows[0]!.message!;
    expect(message).toContain('Program: "No such program" is not known');
    expect(message).toContain('Country: "Atlantis" is not known');
    expect(message).toContain('E-mail: Email address must be a valid e-mail address');
    expect(message).toContain('Start Date: must be a date: a date cell, YYYY-MM-DD or DD-MM-YYYY');
    expect(message).toContain('Round: must be 0 to 5');
    // A reference not found is named once, not again as "required".
    expect(message).not.toContain('Country is required');
  });

  it('get_import_results answers the results xlsx: each input row with its outcome', async () => {
    const res = await download('post', '/contracts/get_import_results').send({ filename: 'Intake 2021 – Zoë.xlsx', type: 'contracts' });
    expect(res.status).toBe(200);
    const [header, ...lines] = sheetValues((await readBook(res.body as Buffer)).worksheets[0]!);
    expect(header).toEqual([...CONTRACT_IMPORT_COLUMNS.map((c) => c.title), 'Result', 'Message']);
    expect(lines).toHaveLength(5);
    expect(lines.map((l) => l[0])).toEqual(['IMP-1', 'IMP-2', 'IMP-3', 'IMP-4', 'IMP-5']);
    expect(lines[1]![CONTRACT_IMPORT_COLUMNS.findIndex((c) => c.key === 'first_name')]).toBe('Ağça');
    expect(lines.map((l) => l.slice(-2))).toEqual([
      ['OK', 'Unchanged'],
      ['OK', 'Unchanged'],
      ['Error', 'Error for row 4: IBAN: checksum wrong'],
      ['OK', 'Unchanged'],
      ['OK', 'Unchanged'],
    ]);
    const missing = await api('post', '/contracts/get_import_results').send({ filename: 'never.xlsx', type: 'contracts' });
    expect(missing.status).toBe(404);
    const wrong = await api('post', '/contracts/get_import_results').send({ filename: 'x.xlsx', type: 'payments' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toHaveProperty('type');
  });
});

describe('what one file says twice, and what a row says of another person', () => {
  it('refuses a second row of one Application ID, an e-mail an earlier row gives to another person, and one person with other student data; the preview says what the import does', async () => {
    const file = await filledTemplate([
      contractRow(20, { email_address: 'twice@example.org' }),
      contractRow(20, { email_address: 'other@example.org', first_name: 'Other', last_name: 'Person' }),
      contractRow(21, { email_address: 'twice@example.org', first_name: 'Sibling', birth_date: '01-01-2003' }),
      // The same student's second contract in the same file goes on; a third, giving a phone the others leave empty, too.
      contractRow(22, { email_address: 'twice@example.org', first_name: contractRow(20).first_name!, last_name: contractRow(20).last_name! }),
      contractRow(29, { email_address: 'twice@example.org', first_name: contractRow(20).first_name!, last_name: contractRow(20).last_name!, phone: '+49 30 1234567' }),
      // The same person with another e-mail address and city: which would be stored is chance (two rows at a time).
      contractRow(30, { email_address: 'twice.new@example.org', first_name: contractRow(20).first_name!, last_name: contractRow(20).last_name!, city: 'Köln' }),
    ]);
    const { run } = await preview('/contracts/import', file, 'twice.xlsx');
    // The preview rolls each row back, yet finds the student row 2 created as the import will (decision 044).
    const name = `${contractRow(20).first_name} ${contractRow(20).last_name}`;
    const expected = [
      'Will create student and contract',
      'Error for row 3: Application ID: "IMP-20" is also in row 2: one row per contract',
      `Error for row 4: E-mail: twice@example.org is also in row 2, for ${name}: give each student their own e-mail address`,
      'Will create contract for the existing student',
      'Will create contract for the existing student and update student: Phone',
      `Error for row 7: E-mail, City: ${name} is also in row 2 with other values: give one person the same student data in every row`,
    ];
    expect(run.rows.map((r) => r.message)).toEqual(expected);
    const done = await confirm(run.id);
    // The run works two rows at a time: which of one person's rows creates the student is chance, what is stored is not.
    expect(done.rows.map((r) => r.ok)).toEqual([true, false, false, true, true, false]);
    expect(done.rows.filter((r) => r.message!.startsWith('Created student')).length).toBe(1);
    const [made] = await importedContracts().then((all) => all.filter((c) => c.application_id === 'IMP-20'));
    const [owner] = await t.db.select().from(students).where(eq(students.id, made!.student_id));
    expect(owner).toMatchObject({ first_name: contractRow(20).first_name, email_address: 'twice@example.org', city: 'Berlin', phone: '+49 30 1234567' });
    const messages = await t.db.select({ m: events.le_message }).from(events).where(like(events.le_message, 'Import Excel contracts of twice.xlsx%finished%'));
    expect(messages.map((e) => e.m.replace(/ \(run \d+\)/, '')).sort()).toEqual([
      'Import Excel contracts of twice.xlsx (preview) finished: 3 created, 0 updated, 0 unchanged, 3 refused',
      'Import Excel contracts of twice.xlsx finished: 3 created, 0 updated, 0 unchanged, 3 refused',
    ]);
  });

  it("says a stored student's change once when two rows of the file give it, as the import makes it once", async () => {
    const first = await preview('/contracts/import', await filledTemplate([contractRow(40)]), 'stored.xlsx');
    await confirm(first.run.id);
    const same = { first_name: contractRow(40).first_name!, last_name: contractRow(40).last_name!, email_address: contractRow(40).email_address!, city: 'Hamburg' };
    const { run } = await preview('/contracts/import', await filledTemplate([contractRow(41, same), contractRow(42, same)]), 'moved.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual(['Will create contract for the existing student and update student: City', 'Will create contract for the existing student']);
    const done = await confirm(run.id);
    // Two rows at a time: which row moves the student is chance; that one of them does is not.
    expect(done.rows.map((r) => r.message).sort()).toEqual(['Created contract for the existing student', 'Created contract for the existing student and updated student: City']);
    const [stored] = await t.db.select().from(students).where(eq(students.email_address, contractRow(40).email_address!));
    expect(stored!.city).toBe('Hamburg');
  });

  it("refuses a row whose Application ID is another person's contract; a corrected name or birth date alone goes through", async () => {
    const intruder = await filledTemplate([contractRow(1, { first_name: 'Eve', last_name: 'Intruder', birth_date: '02-03-1990', email_address: 'eve@example.org', payment_bank_iban: 'NL91 ABNA 0417 1643 00', payment_bank_swift: 'ABNANL2A' })]);
    const { run } = await preview('/contracts/import', intruder, 'intruder.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual([
      'Error for row 2: Application ID: "IMP-1" is the contract of Łukasz Müller-Ñúñez 1, born 12-04-1998, not of Eve Intruder, born 02-03-1990: correct the Application ID, or the student on the contract\'s screen',
    ]);
    const corrected = await filledTemplate([contractRow(1, { last_name: 'Müller-Núñez 1' }), contractRow(4, { birth_date: '13-04-1998' })]);
    const fixes = await preview('/contracts/import', corrected, 'corrected.xlsx');
    expect(fixes.run.rows.map((r) => r.message)).toEqual(['Will update student: Last Name', 'Will update student: Birth Date']);
  });

  it('reads the overviews\' titles, says which columns it does not import (a value without a header too), keeps leading zeros, and refuses a column given twice', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sheet1');
    const r = contractRow(23, { intake: '2021' });
    const header = ['Application ID', 'Round', 'Intake', 'Scholarship', 'Program', 'University Y1', 'Start Date', 'First Name', 'Last Name', 'Birth Date', 'Email Address', 'Street Address', 'Postal Code', 'City', 'Country', 'Citizenship 1', 'Mobile', 'Notes'];
    sheet.addRow(header);
    sheet.addRow([r.application_id, 1, 2021, r.scholarship, r.program, r.y1_university, r.start_date, r.first_name, r.last_name, r.birth_date, r.email_address, r.address, 1234, r.city, r.country, 'Deutschland', '+49 1', 'call after 5', 'typed where the header is missing']);
    sheet.getCell('M2').numFmt = '00000';
    const { run } = await preview('/contracts/import', Buffer.from(await book.xlsx.writeBuffer()), 'overview titles.xlsx');
    expect(run.notes).toEqual(['Not imported: the columns "Mobile", "Notes", column S (no header)']);
    expect(run.rows.map((x) => x.message)).toEqual(['Will create student and contract']);
    await confirm(run.id);
    const [made] = await t.db.select().from(students).where(eq(students.email_address, r.email_address!));
    expect(made).toMatchObject({ zip: '01234', address: 'Hauptstraße 5', citizenship1_cntry_id: expect.any(Number) });

    sheet.getCell('Q1').value = 'Phone';
    sheet.getCell('R1').value = 'phone';
    const twice = await upload('/contracts/import', Buffer.from(await book.xlsx.writeBuffer()), 'twice phone.xlsx');
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('file: the header row has Phone twice (columns Q and R): keep one');
  });

  it('takes what people type: "female", an IBAN in groups of hyphens or non-breaking spaces; a wrong intake or round says what is wrong', async () => {
    const file = await filledTemplate([
      contractRow(24, { gender: 'female', payment_bank_iban: 'DE89-3704-0044-0532-0130-00' }),
      contractRow(25, { payment_bank_iban: 'DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000' }),
      contractRow(26, { intake: '2021/22', application_round: 'first' }),
    ]);
    const { run } = await preview('/contracts/import', file, 'typed.xlsx');
    expect(run.rows.map((x) => x.message)).toEqual(['Will create student and contract', 'Will create student and contract', 'Error for row 4: Intake: must be a year; Round: must be 0 to 5']);
  });
});

describe('bank info import', () => {
  let a: Awaited<ReturnType<typeof createContract>>;
  let b: Awaited<ReturnType<typeof createContract>>;
  beforeAll(async () => {
    a = await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Ægir', email_address: 'aegir@example.org' })).id });
    b = await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Brönte', email_address: 'bronte@example.org' })).id });
  });

  it('from a zip of two sheets: sets the bank fields, the bank-info-updated timestamp and user on the student and the contract', async () => {
    const sheetA = await bankSheet([{ application_number: a.application_number, iban: 'GB82 WEST 1234 5698 7654 32', bic: 'NWBKGB2L', bank: 'NatWest', reference: 'STU-4711' }]);
    const sheetB = await bankSheet([{ application_number: b.application_number, iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }]);
    const zip = rawZip([
      { name: 'forms/Ægir.xlsx', data: sheetA },
      { name: 'Brönte.xlsx', data: sheetB },
      { name: 'readme.txt', data: Buffer.from('ignored') },
    ]);
    const { run } = await preview('/contracts/import_bankinfo', zip, 'bank forms.zip');
    expect(run.rows.map((r) => [r.reference, r.message])).toEqual([
      ['forms/Ægir.xlsx row 2', 'Will update student: IBAN, BIC, Bank Reference, Bank Name'],
      ['Brönte.xlsx row 2', 'Will update student: IBAN, BIC'],
    ]);
    expect((await t.db.select().from(students).where(eq(students.id, a.student_id)))[0]!.payment_bank_iban).toBeNull();
    expect((await confirm(run.id)).rows.map((r) => r.message)).toEqual(['Updated student: IBAN, BIC, Bank Reference, Bank Name', 'Updated student: IBAN, BIC']);
    const [sa] = await t.db.select().from(students).where(eq(students.id, a.student_id));
    expect(sa).toMatchObject({ payment_bank_iban: 'GB82WEST12345698765432', payment_bank_swift: 'NWBKGB2L', payment_bank_name: 'NatWest', payment_bank_reference: 'STU-4711', bankinfo_update_user: userIds.User });
    expect(sa!.bankinfo_update_timestamp).not.toBeNull();
    const [ca] = await t.db.select().from(contracts).where(eq(contracts.id, a.id));
    expect(ca!.bankinfo_updated_timestamp).not.toBeNull();
    // The student's change is in the contract's history too: the row was about that contract.
    const logged = await t.db.select({ contract_id: events.contract_id }).from(events).where(and(like(events.le_message, 'Bank info import: updated Student%'), eq(events.student_id, a.student_id)));
    expect(logged).toEqual([{ contract_id: a.id }]);
    const again = await preview('/contracts/import_bankinfo', zip, 'bank forms.zip');
    expect(again.run.rows.map((r) => r.message)).toEqual(['Nothing to change', 'Nothing to change']);
    const res = await download('post', '/contracts/get_import_results').send({ filename: 'bank forms.zip', type: 'bankinfo' });
    expect(res.status).toBe(200);
    const [header, first] = sheetValues((await readBook(res.body as Buffer)).worksheets[0]!);
    expect(header!.slice(0, 2)).toEqual(['Application Number', 'IBAN']);
    expect(first!.slice(0, 2)).toEqual([a.application_number, 'GB82 WEST 1234 5698 7654 32']);
  });

  it('does not overwrite bank details someone changed after the preview: the row is refused naming who and when (decision 053)', async () => {
    const c = await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Cleo', email_address: 'cleo@example.org', payment_bank_iban: 'DE89370400440532013000', payment_bank_swift: 'COBADEFFXXX' })).id });
    const d = await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Dora', email_address: 'dora@example.org' })).id });
    const sheet = await bankSheet([
      { application_number: c.application_number, iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      { application_number: d.application_number, iban: 'DE02 1203 0000 0000 2020 51', bic: 'BYLADEM1001' },
    ]);
    const { run } = await preview('/contracts/import_bankinfo', sheet, 'stale.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual(['Nothing to change', 'Will update student: IBAN, BIC']);
    // Meanwhile an Administrator takes the student's new account on the screen.
    const changed = await putAsRead(t, tokens.Administrator, `/students/${c.student_id}`, { id: c.student_id, payment_bank_iban: 'GB82WEST12345698765432', payment_bank_swift: 'NWBKGB2L' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const done = await confirm(run.id);
    expect(done.rows.map((r) => r.ok)).toEqual([false, true]);
    expect(done.rows[0]!.message).toMatch(/^Error for row 2: Student "?Cleo [^"]*"? was changed by Test Administrator at \d{2}-\d{2}-\d{4} \d{2}:\d{2}, after the preview: the import does not overwrite that change\. Import the file again to see what it would do now$/);
    const [kept] = await t.db.select().from(students).where(eq(students.id, c.student_id));
    expect(kept).toMatchObject({ payment_bank_iban: 'GB82WEST12345698765432', payment_bank_swift: 'NWBKGB2L' });
    expect((await t.db.select().from(students).where(eq(students.id, d.student_id)))[0]!.payment_bank_iban).toBe('DE02120300000000202051');
  });

  it('from one .xlsx; a bad IBAN, an IBAN without its BIC and an unknown application number are refused naming the column', async () => {
    const sheet = await bankSheet([
      { application_number: a.application_number, iban: 'GB82 WEST 1234 5698 7654 33', bic: 'NWBKGB2L' },
      { application_number: 'A999999', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      // The student's stored BIC is Commerzbank's (above): kept with a Dutch account, the money would go astray.
      { application_number: b.application_number, iban: 'NL91 ABNA 0417 1643 00' },
    ]);
    const { run } = await preview('/contracts/import_bankinfo', sheet, 'bank.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual([
      'Error for row 2: IBAN: checksum wrong',
      'Error for row 3: Application Number: no contract "A999999"',
      'Error for row 4: BIC: required with the IBAN (the BIC stored may be of another bank)',
    ]);
  });

  it('says of a US account number that the US has no IBANs, not that its country is unknown (decision 054)', async () => {
    const sheet = await bankSheet([{ application_number: a.application_number, iban: 'US12345678901234', bic: 'CHASUS33' }]);
    const { run } = await preview('/contracts/import_bankinfo', sheet, 'us.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual(['Error for row 2: IBAN: "US" is no country whose accounts have an IBAN: such an account is paid by hand, not by SEPA']);
  });

  it('finds a contract by its application number in lower case, and refuses a second row for the same contract', async () => {
    const sheet = await bankSheet([
      { application_number: b.application_number.toLowerCase(), iban: 'DE02 1203 0000 0000 2020 51', bic: 'BYLADEM1001' },
      { application_number: b.application_number, iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    ]);
    const { run } = await preview('/contracts/import_bankinfo', sheet, 'lower.xlsx');
    expect(run.rows.map((r) => r.message)).toEqual([
      'Will update student: IBAN, BIC',
      `Error for row 3: Application Number: "${b.application_number.toLowerCase()}" is also in row 2: one row per contract`,
    ]);
  });
});

describe('hostile uploads are refused with 4xx, and the next request is served', () => {
  let sheet: Buffer;
  beforeAll(async () => {
    sheet = await bankSheet([{ application_number: 'A000001', iban: 'DE89370400440532013000' }]);
  });

  const refused = async (bytes: Buffer, filename: string, status: number, message: RegExp) => {
    const res = await upload('/contracts/import_bankinfo', bytes, filename);
    expect(res.status, res.text).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(res.text).not.toMatch(/stack|at \w+ \(|node_modules/);
    expect((await api('get', '/contracts')).status).toBe(200);
  };

  it('an entry ../../evil.xlsx', () => refused(rawZip([{ name: '../../evil.xlsx', data: sheet }]), 'a.zip', 400, /^file: the entry "\.\.\/\.\.\/evil\.xlsx" points outside the archive$/));
  it('an absolute path', () => refused(rawZip([{ name: '/etc/evil.xlsx', data: sheet }]), 'a.zip', 400, /^file: the entry "\/etc\/evil\.xlsx" points outside the archive$/));
  it('a symlink entry', () => refused(rawZip([{ name: 'link.xlsx', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]), 'a.zip', 400, /^file: the entry "link\.xlsx" is a link$/));
  it('a 1 GB zip bomb', async () => {
    const bomb = rawZip([await zeroBombEntry('bomb.xlsx', 1024 * 1024 * 1024)]);
    expect(bomb.length).toBeLessThan(20 * 1024 * 1024);
    await refused(bomb, 'bomb.zip', 400, /^file: the entry "bomb\.xlsx" unpacks to more than 50 MB$/);
  });
  it('a zip whose entry says it is small but inflates to more', async () => {
    const bomb = await zeroBombEntry('liar.xlsx', 64 * 1024 * 1024);
    await refused(rawZip([{ ...bomb, uncompressedSize: 1000 }]), 'liar.zip', 400, /^file: /);
  });
  it('a small sheet with one cell typed in its last row (1,048,576) is read as the rows it holds (decision 053)', async () => {
    const book = new ExcelJS.Workbook();
    const far = book.addWorksheet('Bank');
    far.addRow(['Application Number', 'IBAN', 'BIC']);
    far.addRow(['A000001', 'DE89370400440532013000', 'COBADEFFXXX']);
    far.getCell('A1048576').value = 'A000002';
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    expect(bytes.length).toBeLessThan(20_000);
    const { run } = await preview('/contracts/import_bankinfo', bytes, 'far.xlsx');
    expect(run.rows.map((r) => r.reference)).toEqual(['row 2', 'row 1048576']);
    expect((await api('get', '/contracts')).status).toBe(200);
  });
  it('a sheet that unpacks to more than a sheet of 2,000 rows can hold', async () => {
    const big = await zeroBombEntry('xl/worksheets/sheet1.xml', 20 * 1024 * 1024);
    await refused(rawZip([big]), 'big.xlsx', 400, /^file: /);
  });
  it('a PDF renamed .xlsx', () => refused(Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'), 'grades.xlsx', 400, /^file: /));
  it('a PDF inside a zip, named .xlsx', () => refused(rawZip([{ name: 'grades.xlsx', data: Buffer.from('%PDF-1.4\n%%EOF\n') }]), 'a.zip', 400, /^file: "grades\.xlsx": not an Excel \(\.xlsx\) file by its content$/));
  it('an empty file', () => refused(Buffer.alloc(0), 'empty.xlsx', 400, /^file: /));
  it('a spreadsheet without the required column', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('x').addRow(['IBAN']);
    await refused(Buffer.from(await book.xlsx.writeBuffer()), 'x.xlsx', 400, /^file: the header row lacks the column Application Number$/);
  });
  it('a 200 MB upload gets its 413 while it is still being sent', async () => {
    const port = await listen(t.app);
    const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="huge.zip"\r\nContent-Type: application/zip\r\n\r\nPK\u0003\u0004');
    const answer = await streamUpload({
      port,
      path: '/api/v1.0/contracts/import_bankinfo',
      headers: { Authorization: `Bearer ${tokens.User}`, 'Content-Type': 'multipart/form-data; boundary=B' },
      head,
      filler: Buffer.alloc(64 * 1024),
      maxBytes: 200 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentBeforeAnswer).toBeLessThan(40 * 1024 * 1024);
    expect((await api('get', '/contracts')).status).toBe(200);
  });
});

describe('Student_Agreements.zip', () => {
  it('one PDF per selected contract, safe unique names, each naming its student; every role may download it', async () => {
    const s1 = await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ørsted/../x', email_address: 'z@example.org' });
    const s2 = await createStudent(t.db, { first_name: 'Ağça', last_name: 'Çelik', email_address: 'c@example.org' });
    const c1 = await createContract(t.db, { student_id: s1.id });
    const c2 = await createContract(t.db, { student_id: s2.id });
    const c3 = await createContract(t.db, { student_id: s2.id });
    for (const { name } of ROLES) {
      const res = await download('post', '/contracts/download_student_agreements', tokens[name]).send({ ids: [c1.id, c2.id, c3.id] });
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toContain('Student_Agreements.zip');
      const entries = await unzip(res.body as Buffer);
      expect(entries).toHaveLength(3);
      const names = entries.map((e) => e.name);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
      for (const n of names) {
        expect(n).toMatch(/\.pdf$/);
        expect(n).not.toMatch(/[/\\]|\.\./);
      }
      // Each contract's PDF (found by the application number in its name) names its own student.
      for (const [c, student] of [[c1, 'Zoë Ørsted/../x'], [c2, 'Ağça Çelik'], [c3, 'Ağça Çelik']] as const) {
        const entry = entries.find((e) => e.name.includes(c.application_number));
        expect(entry, c.application_number).toBeDefined();
        expect(pdfText(entry!.data)).toContain(student);
      }
    }
  });

  it('by the filter when nothing is selected; an empty choice is a 400', async () => {
    const s = await createStudent(t.db, { first_name: 'Filtered', last_name: 'Person' });
    const c = await createContract(t.db, { student_id: s.id });
    const res = await download('post', '/contracts/download_student_agreements').send({ filter: { student_id: String(s.id) } });
    expect(res.status).toBe(200);
    const entries = await unzip(res.body as Buffer);
    expect(entries).toHaveLength(1);
    expect(pdfText(entries[0]!.data)).toContain('Filtered Person');
    expect(entries[0]!.name).toContain(c.application_number);
    const none = await api('post', '/contracts/download_student_agreements').send({ filter: { student_id: '999999' } });
    expect(none.status).toBe(400);
  });
});


