import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { and, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import { EVENT_TYPE_IDS, scholarshipPaymentResource, todayIn } from '@app/contracts';
import { contracts, countries, documentCounters, invoices, logEvents, milestones, scholarshipPayments, studentFees, students, universities } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { crudSuite } from '../../test/crud-suite.js';
import { binaryParser, createContract, createCountry, createStudent, userWithToken } from '../../test/factories.js';

/** The official schema, beside the repository root (`../shared/schemas/`). */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const XSD = resolve(repoRoot, '../shared/schemas/pain.001.001.03.xsd');

const t = await setupTestApp();
await startTestWorkers(t);
const bank = { payment_bank_iban: 'DE89370400440532013000', payment_bank_swift: 'COBADEFFXXX' };
const student = await createStudent(t.db, { first_name: 'Łukasz', last_name: 'Wiśniewski-Żółć', ...bank });
const contract = await createContract(t.db, { student_id: student.id });
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
let admin: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
  admin = await userWithToken(t.app, t.db, 'Administrator');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const download = (path: string, body: object, token = user.token) => api('post', path, token).buffer(true).parse(binaryParser).send(body);

const valid = (n: number) => ({ contract_id: contract.id, scholarship_payment_type_id: 1, amount: 100 + n + 0.5, planned_date: '2026-03-01', period: `Y${1 + (n % 2)}` });

async function planned(values: Partial<typeof scholarshipPayments.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(scholarshipPayments)
    .values({ contract_id: contract.id, scholarship_payment_type_id: 1, amount: '250.00', planned_date: '2026-01-15', period: 'Y1', ...values })
    .returning();
  return row!;
}
async function feeInvoice(contractId: number, values: Partial<typeof invoices.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contractId, year: 1, semester: 0, amount: '3000', description: 'Participation fee', planned_date: '2024-09-01', document_type_id: 5, document_reference: 'REF', ...values })
    .returning();
  return row!;
}
async function readSheet(buffer: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
}
/** Validates with xmllint against the official XSD; answers xmllint's exit (0: valid) and its output. */
function xmllint(xml: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sepa-'));
  const file = join(dir, 'payments.xml');
  writeFileSync(file, xml);
  try {
    const out = execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' }).toString();
    return { ok: true, output: out };
  } catch (err) {
    const e = err as { stderr?: Buffer };
    return { ok: false, output: e.stderr?.toString() ?? String(err) };
  }
}
/** A payment date still ahead whenever the tests run: an export asks the bank for a past one today and says so. */
const PAY_ON = `${new Date().getFullYear() + 1}-12-01`;
const exportable = async (count: number, values: Partial<typeof scholarshipPayments.$inferInsert> = {}) => {
  const rows = [];
  for (let n = 0; n < count; n++) rows.push(await planned({ amount: `${10 + n}.${String(n % 100).padStart(2, '0')}`, ...values }));
  for (const r of rows) expect((await api('post', `/scholarship_payments/${r.id}/create_payment`).send({ payment_date: PAY_ON })).status).toBe(200);
  return rows.map((r) => r.id);
};

crudSuite(t, {
  resource: scholarshipPaymentResource,
  valid,
  invalid: { body: { amount: 1.001 }, fields: ['contract_id', 'scholarship_payment_type_id', 'amount', 'planned_date'] },
  change: { comments: 'Paid late', amount: 99.99 },
  sortBy: ['amount', 'planned_date'],
});

describe('scholarship payments: fields, type 2 and the two views', () => {
  it('answers the spec fields of a payment', async () => {
    const res = await api('post', '/scholarship_payments').send(valid(1));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = (await api('get', `/scholarship_payments/${res.body.id}`)).body;
    expect(Object.keys(row).sort()).toEqual(Object.keys(scholarshipPaymentResource.schema.shape).sort());
    expect(row).toMatchObject({ number: null, contract: contract.application_number, student_name: 'Łukasz Wiśniewski-Żółć', scholarship_payment_type: 'Milestone', amount: 101.5, payment_allowed: false });
  });

  it('refuses an amount below 0 with a 400 naming amount (no transfer can pay it); 0 may be planned', async () => {
    const before = (await t.db.select().from(scholarshipPayments)).length;
    const res = await api('post', '/scholarship_payments').send({ ...valid(3), amount: -1 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ amount: ['Amount cannot be negative'] });
    expect((await t.db.select().from(scholarshipPayments)).length).toBe(before);
    expect((await api('post', '/scholarship_payments').send({ ...valid(3), amount: 0 })).status).toBe(201);
  });

  it('refuses a university fee (type 2) without a linked invoice or credit note with a 400 naming linked_invoice_id, and stores nothing', async () => {
    const before = (await t.db.select().from(scholarshipPayments)).length;
    const res = await api('post', '/scholarship_payments').send({ ...valid(2), scholarship_payment_type_id: 2 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['linked_invoice_id']);
    const other = await createContract(t.db);
    const foreign = await feeInvoice(other.id);
    const wrong = await api('post', '/scholarship_payments').send({ ...valid(2), scholarship_payment_type_id: 2, linked_invoice_id: foreign.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.linked_invoice_id[0]).toMatch(/another contract/);
    expect((await t.db.select().from(scholarshipPayments)).length).toBe(before);
    const own = await feeInvoice(contract.id);
    const ok = await api('post', '/scholarship_payments').send({ ...valid(2), scholarship_payment_type_id: 2, linked_invoice_id: own.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const row = (await api('get', `/scholarship_payments/${ok.body.id}`)).body;
    expect(row).toMatchObject({ linked_invoice_id: own.id, university_id: contract.y1_university_id, scholarship_payment_type: 'University fee' });
    // Taking the link away later is refused the same way.
    const put = await api('put', `/scholarship_payments/${ok.body.id}`).set('If-Match', row.edit_timestamp).send({ id: ok.body.id, linked_invoice_id: null });
    expect(put.status).toBe(400);
    expect(Object.keys(put.body.errors)).toEqual(['linked_invoice_id']);
  });

  it('answers the payment types choice list', async () => {
    const res = await api('get', '/scholarship_payment_types/choice', reader.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: 1, name: 'Milestone' },
      { id: 2, name: 'University fee' },
      { id: 3, name: 'Monthly allowance' },
      { id: 4, name: 'Other' },
    ]);
  });

  it('filters with planned=true and numbered=true, and by the advanced fields', async () => {
    const c = await createContract(t.db, { student_id: student.id });
    const a = await planned({ contract_id: c.id, planned_date: '2025-01-01', amount: '77.70' });
    const b = await planned({ contract_id: c.id, planned_date: '2027-01-01' });
    expect((await api('post', `/scholarship_payments/${b.id}/create_payment`).send({})).status).toBe(200);
    const ids = async (q: string) => {
      const res = await api('get', `/scholarship_payments?contract_id=${c.id}&${q}`, reader.token);
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
      return (res.body.data as { id: number }[]).map((r) => r.id);
    };
    expect(await ids('planned=true')).toEqual([a.id]);
    expect(await ids('numbered=true')).toEqual([b.id]);
    expect(await ids('planned_before=2026-01-01')).toEqual([a.id]);
    expect(await ids('amount=77.7')).toEqual([a.id]);
    expect(await ids('payment_date=2027-01-01')).toEqual([b.id]);
    expect(await ids('ready_for_export=true')).toEqual([b.id]);
    expect(await ids('scholarship_payment_type_id=2')).toEqual([]);
    expect((await api('get', '/scholarship_payments?planned_before=2026-13-01', reader.token)).status).toBe(400);
  });

  it("finds by the student's name with one or two letters as with a word (a short text is looked up in a hash of the contracts)", async () => {
    const found = await planned({ contract_id: (await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Örs', last_name: 'Qzwyk' })).id })).id, period: 'Y9' });
    const other = await planned({ contract_id: (await createContract(t.db, { student_id: (await createStudent(t.db, { first_name: 'Bob', last_name: 'Smith' })).id })).id, period: 'Y9' });
    for (const text of ['q', 'Qz', 'qzwyk', 'ors qzw']) {
      const res = await api('get', `/scholarship_payments?planned=true&per_page=200&search=${encodeURIComponent(text)}`, reader.token);
      expect(res.status, res.text).toBe(200);
      const ids = (res.body.data as { id: number }[]).map((r) => r.id);
      expect(ids, text).toContain(found.id);
      expect(ids, text).not.toContain(other.id);
    }
  });
});

describe('scholarship payments: planning (issue 15 point 2)', () => {
  it('plans milestones, monthly allowances and linked university fees; planning twice plans nothing new', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2031, start_date: '2031-09-15', end_date: '2033-09-14' });
    await t.db.insert(milestones).values([
      { intake: 2031, scholarship_id: 1, year: 1, milestone_date: '2031-10-01', milestone_amount: '1500.00' },
      { intake: 2031, scholarship_id: 1, year: 2, milestone_date: null, milestone_amount: '1250.50' },
    ]);
    await t.db.insert(studentFees).values({ intake: 2031, scholarship_id: 1, monthly_allowance_amount: '300.00' });
    const inv = await feeInvoice(c.id, { year: 1, planned_date: '2031-09-15' });
    const res = await api('post', `/contracts/${c.id}/plan_scholarship_payments`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id));
    const byType = (type: number) => rows.filter((r) => r.scholarship_payment_type_id === type);
    expect(byType(1).map((r) => [r.period, r.amount, r.planned_date]).sort()).toEqual([
      ['Y1', '1500.00', '2031-10-01'],
      ['Y2', '1250.50', '2032-09-15'],
    ]);
    // 2031-09-15 to 2033-09-14: 24 months of the contract (September to August), the first on the start date.
    const allowances = byType(3).sort((x, y) => x.planned_date.localeCompare(y.planned_date));
    expect(allowances).toHaveLength(24);
    expect(allowances[0]).toMatchObject({ period: '2031-09', planned_date: '2031-09-15', amount: '300.00' });
    expect(allowances[1]).toMatchObject({ period: '2031-10', planned_date: '2031-10-01' });
    expect(allowances.at(-1)).toMatchObject({ period: '2033-08', planned_date: '2033-08-01' });
    const [fee] = byType(2);
    expect(fee).toMatchObject({ linked_invoice_id: inv.id, university_id: c.y1_university_id, amount: '1000.00', period: '2031-2032/01' });
    expect(rows).toHaveLength(27);
    expect(res.body.message).toMatch(/^Planned 27 scholarship payment\(s\)/);

    const again = await api('post', `/contracts/${c.id}/plan_scholarship_payments`).send({});
    expect(again.body.message).toMatch(/^Nothing to plan/);
    expect(await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id))).toHaveLength(27);
  });

  it("says when planning that the payee's bank data would refuse the payments: no IBAN, outside SEPA (decision 054)", async () => {
    for (const [bankData, problem] of [
      [{ payment_bank_iban: null, payment_bank_swift: null }, 'has no IBAN'],
      [{ payment_bank_iban: 'TR330006100519786457841326', payment_bank_swift: 'TGBATRISXXX' }, 'is of a bank outside the SEPA area (TR)'],
    ] as const) {
      const payee = await createStudent(t.db, { first_name: 'Fatima', last_name: `Payee ${problem.length}`, ...bankData });
      const c = await createContract(t.db, { student_id: payee.id, intake: 2077, start_date: '2077-09-01', end_date: '2078-08-31', check_universityfee_payment: false });
      if (bankData.payment_bank_iban === null) {
        await t.db.insert(milestones).values([
          { intake: 2077, scholarship_id: 1, year: 1, milestone_date: '2077-10-01', milestone_amount: '100.00' },
          { intake: 2077, scholarship_id: 1, year: 1, milestone_date: '2078-03-01', milestone_amount: '150.00' },
        ]);
      }
      const res = await api('post', `/contracts/${c.id}/plan_scholarship_payments`).send({});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toMatch(/^Planned 2 scholarship payment\(s\) over /);
      expect(res.body.message).toMatch(new RegExp(`^Planned \\d+ scholarship payment\\(s\\) over .*\\. Not payable yet: .*Fatima Payee \\d+ ${problem.replace(/[()]/g, '\\$&')}.*\\. Schedule Payments refuses these payments until the bank data is fixed\\.$`));
      // Two payments to one payee: the problem is told once.
      expect(res.body.message.split(problem)).toHaveLength(2);
    }
    const paid = await createContract(t.db, { student_id: student.id, intake: 2077, start_date: '2077-09-01', end_date: '2078-08-31', check_universityfee_payment: false });
    expect((await api('post', `/contracts/${paid.id}/plan_scholarship_payments`).send({})).body.message).not.toMatch(/Not payable/);

    // A university fee is checked against the university's bank data, named as the bank file names the payee.
    const [uni] = await t.db
      .insert(universities)
      .values({ name: 'Universidad sin Cuenta', shortname: 'USC', payment_holder_name: 'Tesorería USC', payment_holder_iban: '', payment_holder_swift: '', payment_holder_address: 'Calle 1', payment_bank_address: 'Bank', payment_amount: '500' })
      .returning();
    const fee = await createContract(t.db, { student_id: student.id, intake: 2077, start_date: '2077-09-01', end_date: '2078-08-31', y1_university_id: uni!.id, check_universityfee_payment: true });
    await feeInvoice(fee.id, { planned_date: '2077-09-01' });
    const res = await api('post', `/contracts/${fee.id}/plan_scholarship_payments`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/ Not payable yet: Tesorería USC has no IBAN\. Schedule Payments refuses/);
  });

  it('makes no university fee row without a participation-fee invoice to link: it is left to be made by hand', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2032, start_date: '2032-09-01', end_date: '2033-08-31' });
    await t.db.insert(milestones).values({ intake: 2032, scholarship_id: 1, year: 1, milestone_date: '2032-10-01', milestone_amount: '100.00' });
    const res = await api('post', `/contracts/${c.id}/plan_scholarship_payments`).send({});
    expect(res.body.message).toMatch(/University fees are left to be made by hand/);
    const rows = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id));
    expect(rows.map((r) => r.scholarship_payment_type_id)).toEqual([1]);
  });

  it('plans a batch with a dry run that plans nothing', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2033, start_date: '2033-09-01', end_date: '2033-12-31' });
    await t.db.insert(studentFees).values({ intake: 2033, scholarship_id: 1, monthly_allowance_amount: '10.00' });
    const started = await api('post', '/contracts/batch/plan_scholarship_payments').send({ ids: [c.id], dry_run: true });
    expect(started.status).toBe(202);
    const run = await waitForRun(t, user.token, started.body.run_id);
    expect(run.rows[0]).toMatchObject({ ok: true, amount: 40 });
    expect(await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id))).toHaveLength(0);
  });
});

describe('scholarship payments: create payment and Schedule Payments (issue 15 point 3)', () => {
  it('numbers S{year}-00001 and dates it: the given date, else the planned date if to come, else today', async () => {
    const today = todayIn(t.ctx.env.APP_TIMEZONE);
    const given = await planned({ planned_date: '2020-01-01' });
    const res = await api('post', `/scholarship_payments/${given.id}/create_payment`).send({ payment_date: '2030-05-05' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ number: 'S2030-00001', payment_date: '2030-05-05', payment_allowed: true });
    const future = await planned({ planned_date: '2099-02-03' });
    expect((await api('post', `/scholarship_payments/${future.id}/create_payment`).send({})).body).toMatchObject({ number: 'S2099-00001', payment_date: '2099-02-03' });
    const past = await planned({ planned_date: '2020-01-01' });
    expect((await api('post', `/scholarship_payments/${past.id}/create_payment`).send({})).body.payment_date).toBe(today);
    const again = await api('post', `/scholarship_payments/${given.id}/create_payment`).send({});
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already numbered/);
  });

  it('refuses a payee without valid bank data with the reason, and numbers nothing', async () => {
    const poor = await createStudent(t.db, { payment_bank_iban: 'DE00370400440532013000', payment_bank_swift: 'COBADEFFXXX' });
    const c = await createContract(t.db, { student_id: poor.id });
    const p = await planned({ contract_id: c.id });
    const res = await api('post', `/scholarship_payments/${p.id}/create_payment`).send({ payment_date: '2031-01-01' });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/IBAN .* not valid/);
    const none = await createContract(t.db);
    const q = await planned({ contract_id: none.id });
    expect((await api('post', `/scholarship_payments/${q.id}/create_payment`).send({ payment_date: '2031-01-01' })).body.message).toMatch(/has no IBAN/);
    const [counter] = await t.db.select().from(documentCounters).where(and(eq(documentCounters.kind, 'scholarship_payment'), eq(documentCounters.year, 2031)));
    expect(counter).toBeUndefined();
  });

  it('refuses an account outside the SEPA area and a holder name without Latin letters: the SEPA file could carry neither', async () => {
    const attempt = async (values: Partial<typeof students.$inferInsert>) => {
      const s = await createStudent(t.db, { first_name: 'Ayşe', last_name: 'Yılmaz', ...bank, ...values });
      const p = await planned({ contract_id: (await createContract(t.db, { student_id: s.id })).id });
      const res = await api('post', `/scholarship_payments/${p.id}/create_payment`).send({ payment_date: '2031-01-01' });
      return [res.status, res.body.message];
    };
    expect(await attempt({ payment_bank_iban: 'TR330006100519786457841326', payment_bank_swift: 'TGBATRISXXX' })).toEqual([
      409,
      'No payment without valid bank data: The IBAN of Ayşe Yılmaz is of a bank outside the SEPA area (TR): a SEPA transfer cannot reach it',
    ]);
    expect(await attempt({ first_name: 'Иван', last_name: 'Петров' })).toEqual([
      409,
      "No payment without valid bank data: The account holder's name of Иван Петров has no Latin letters, which the SEPA file needs: give it in Latin letters as the payment holder",
    ]);
    // The holder named in Latin letters is what the file carries: then it is paid.
    expect((await attempt({ first_name: 'Иван', last_name: 'Петров', payment_holder_first_name: 'Ivan', payment_holder_last_name: 'Petrov' }))[0]).toBe(200);
    const [counter] = await t.db.select().from(documentCounters).where(and(eq(documentCounters.kind, 'scholarship_payment'), eq(documentCounters.year, 2031)));
    expect(counter?.last_value).toBe(1);
  });

  it('gives 50 parallel create_payment calls contiguous numbers', async () => {
    const rows = await Promise.all(Array.from({ length: 50 }, () => planned({ planned_date: '2020-01-01' })));
    const answers = await Promise.all(rows.map((r) => api('post', `/scholarship_payments/${r.id}/create_payment`).send({ payment_date: '2040-01-01' })));
    expect(answers.map((a) => a.status)).toEqual(rows.map(() => 200));
    const numbers = answers.map((a) => a.body.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `S2040-${String(i + 1).padStart(5, '0')}`));
  });

  it('previews Schedule Payments (POST /scholarship_payments/create_payments) with totals per type and refusals, then confirms', async () => {
    const poor = await createStudent(t.db, {});
    const c = await createContract(t.db, { student_id: poor.id });
    const m1 = await planned({ amount: '100.10' });
    const m2 = await planned({ amount: '200.20' });
    const a1 = await planned({ amount: '50.05', scholarship_payment_type_id: 3 });
    const refused = await planned({ contract_id: c.id });
    const started = await api('post', '/scholarship_payments/create_payments').send({ ids: [m1.id, m2.id, a1.id, refused.id], dry_run: true, payment_date: '2041-03-03' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const preview = await waitForRun(t, user.token, started.body.run_id);
    expect(preview.totals).toEqual([
      { group: 'Milestone', count: 2, amount: 300.3 },
      { group: 'Monthly allowance', count: 1, amount: 50.05 },
    ]);
    expect(preview.failed).toBe(1);
    expect(preview.rows.find((r) => r.id === refused.id)?.message).toMatch(/^Error for .*has no IBAN/);
    expect((await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, [m1.id, m2.id]))).every((r) => r.number === null)).toBe(true);
    const confirmed = await api('post', `/batch_runs/${preview.id}/confirm`).send({});
    const run = await waitForRun(t, user.token, confirmed.body.run_id);
    expect(run).toMatchObject({ total: 3, failed: 0 });
    const done = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, [m1.id, m2.id, a1.id]));
    expect(done.map((r) => r.number).sort()).toEqual(['S2041-00001', 'S2041-00002', 'S2041-00003']);
  });
});

describe('scholarship payments: export to the bank (issue 15 point 4)', () => {
  it('says before it exports how many payments and how much it would export, and marks nothing (decision 055)', async () => {
    const ids = await exportable(2);
    const notNumbered = await planned({ amount: '5.00' });
    const res = await api('post', '/scholarship_payments/export_payments/summary').send({ ids: [...ids, notNumbered.id] });
    expect(res.status, res.text).toBe(200);
    // exportable(2) makes 10.00 and 11.01.
    expect(res.body).toEqual({ count: 2, total: 21.01, message: '2 payment(s) over € 21,01 would be exported and marked exported. 1 of the 3 selected are not ready and stay out.' });
    const marked = await t.db.select({ id: scholarshipPayments.id }).from(scholarshipPayments).where(and(inArray(scholarshipPayments.id, ids), isNotNull(scholarshipPayments.exported_timestamp)));
    expect(marked).toEqual([]);
    expect((await api('post', '/scholarship_payments/export_payments/summary', reader.token).send({})).status).toBe(403);
    expect((await api('post', '/scholarship_payments/export_payments/summary').send({ ids: 'all' })).status).toBe(400);
  });

  it('exports atomically and exactly once: two parallel exports then a third, every row in exactly one file; SEPA validates', async () => {
    const ids = await exportable(6);
    const [a, b] = await Promise.all([download('/scholarship_payments/export_payments', {}), download('/scholarship_payments/export_payments', {})]);
    const third = await download('/scholarship_payments/export_payments', {});
    const files = [a, b, third].filter((r) => r.status === 200);
    const numbersOf = async (res: { body: Buffer }) => (await readSheet(res.body)).slice(1).map((r) => r[0] as string);
    const all = (await Promise.all(files.map(numbersOf))).flat();
    const expected = (await t.db.select({ number: scholarshipPayments.number }).from(scholarshipPayments).where(inArray(scholarshipPayments.id, ids))).map((r) => r.number);
    for (const n of expected) expect(all.filter((x) => x === n), `${n} in ${JSON.stringify(all)}; answers ${[a, b, third].map((r) => r.status).join(",")}: ${[a, b, third].filter((r) => r.status !== 200).map((r) => r.body.toString()).join(" ")}`).toHaveLength(1);
    expect(new Set(all).size).toBe(all.length);
    expect(files[0]!.headers['content-disposition']).toMatch(/Payments\.xlsx/);
    const refusals = [a, b, third].filter((r) => r.status !== 200);
    for (const r of refusals) {
      expect(r.status).toBe(409);
      expect(JSON.parse(r.body.toString()).message).toMatch(/^Nothing to export/);
    }
    expect(third.status).toBe(409);
    const exported = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, ids));
    expect(exported.every((r) => r.exported_timestamp !== null && r.exported_userid === user.id)).toBe(true);

    // The SEPA file of each export: valid against the official schema, with the right count and control sum.
    for (const f of files) {
      const sepa = await download('/scholarship_payments/download_sepa', { export_id: Number(f.headers['x-export-id']) });
      expect(sepa.status).toBe(200);
      const xml = sepa.body.toString('utf8');
      const lint = xmllint(xml);
      expect(lint.ok, lint.output).toBe(true);
      const rows = (await readSheet(f.body)).slice(1);
      const cents = rows.reduce((s, r) => s + Math.round(Number(r[5]) * 100), 0);
      expect(xml).toContain(`<NbOfTxs>${rows.length}</NbOfTxs>`);
      expect(xml).toContain(`<CtrlSum>${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}</CtrlSum>`);
      expect(xml).toContain('<Nm>Lukasz Wisniewski-Zolc</Nm>');
      expect(xml).not.toMatch(/[ŁłśŻżó]/);
      // The schema checks an IBAN's and a BIC's shape only; the bank checks the digits: the office's account too.
      const accounts = [...xml.matchAll(/<IBAN>([^<]*)<\/IBAN>/g)].map((m) => m[1]!);
      // One creditor's per payment, and the office's in each block of one execution date.
      expect(accounts.length).toBe(rows.length + (xml.match(/<DbtrAcct>/g) ?? []).length);
      for (const iban of accounts) expect(isValidIBAN(iban), iban).toBe(true);
      for (const [, bic] of xml.matchAll(/<BIC>([^<]*)<\/BIC>/g)) expect(isValidBIC(bic!), bic).toBe(true);
    }
  });

  it('Reset Export (confirm, logged) puts a row into the next export again; Reader may not', async () => {
    const [id] = await exportable(1);
    const first = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(first.status).toBe(200);
    // The export is in the payment's contract's and student's history too.
    const [exported] = await t.db.select().from(logEvents).where(and(eq(logEvents.resource, 'scholarship_payment'), eq(logEvents.record_id, id!), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.export)));
    expect(exported).toMatchObject({ contract_id: contract.id, student_id: student.id, usr_id: user.id });
    expect(exported!.le_message).toMatch(new RegExp(`^Exported S\\d{4}-\\d{5} \\(€ [\\d.,]+ to Łukasz Wiśniewski-Żółć\\) to the bank in export ${String(first.headers['x-export-id'])}$`));
    expect((await api('post', `/scholarship_payments/${id}/reset_export`, reader.token).send({})).status).toBe(403);
    const reset = await api('post', `/scholarship_payments/${id}/reset_export`).send({});
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body).toMatchObject({ exported_timestamp: null, exported_user: null });
    const events = (await api('get', '/logging?per_page=5', admin.token)).body.data as { le_message: string }[];
    // When it was exported, as staff read times (DD-MM-YYYY HH:mm), by whom, and in which export's file.
    expect(events.find((e) => e.le_message.startsWith('Reset Export'))?.le_message).toMatch(
      new RegExp(`\\(was exported \\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2} by Test User in export ${String(first.headers['x-export-id'])}\\)$`),
    );
    const again = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(again.status).toBe(200);
    expect((await readSheet(again.body)).slice(1)).toHaveLength(1);
    expect((await api('post', `/scholarship_payments/${id}/reset_export`).send({})).status).toBe(200);
    const unexported = await planned();
    expect((await api('post', `/scholarship_payments/${unexported.id}/reset_export`).send({})).body.message).toMatch(/not been exported/);
  });

  it('resets a whole export the bank refused: the numbered view filtered by its export, then the batch Reset Export', async () => {
    const ids = await exportable(3);
    const inOrder = (list: number[]) => [...list].sort((x, y) => x - y);
    const [kept, unexported] = await exportable(2);
    const first = await download('/scholarship_payments/export_payments', { ids });
    expect(first.status).toBe(200);
    const exportId = Number(first.headers['x-export-id']);
    expect((await download('/scholarship_payments/export_payments', { ids: [kept] })).status).toBe(200);
    const inExport = async () =>
      ((await api('get', `/scholarship_payments?numbered=true&export_id=${exportId}&per_page=50`, reader.token)).body.data as { id: number }[]).map((r) => r.id);
    expect(inOrder(await inExport())).toEqual(inOrder(ids));
    // The planned view holds no exported payment: the filter finds none there.
    expect((await api('get', `/scholarship_payments?planned=true&export_id=${exportId}`, reader.token)).body.data).toEqual([]);
    expect((await api('get', '/scholarship_payments?export_id=x', reader.token)).body.errors).toHaveProperty('export_id');

    expect((await api('post', '/scholarship_payments/batch/reset_export', reader.token).send({ ids })).status).toBe(403);
    const started = await api('post', '/scholarship_payments/batch/reset_export').send({ ids: [...ids, unexported] });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await waitForRun(t, user.token, started.body.run_id);
    expect(inOrder(run.rows.filter((r) => r.ok).map((r) => r.id))).toEqual(inOrder(ids));
    expect(run.rows.find((r) => r.id === unexported)?.message).toMatch(/not been exported/);
    expect(await inExport()).toEqual([]);
    // The other export keeps its payment.
    const [other] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, kept!));
    expect(other!.exported_timestamp).not.toBeNull();
    const rows = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, ids));
    expect(rows.map((r) => [r.exported_timestamp, r.export_id])).toEqual(ids.map(() => [null, null]));
    // Each goes into the next export again.
    const again = await download('/scholarship_payments/export_payments', { ids });
    expect((await readSheet(again.body)).slice(1)).toHaveLength(3);
  });

  it('writes the SEPA file for names and texts outside the SEPA set, valid against the XSD', async () => {
    const s = await createStudent(t.db, { first_name: 'Zoë & Ærøskøbing', last_name: 'Łódź <Straße> "Ñandú"', ...bank });
    const c = await createContract(t.db, { student_id: s.id });
    const [id] = await exportable(1, { contract_id: c.id, description: 'Stipendium für Ōsaka — 1. Jahr €' });
    const res = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(res.status).toBe(200);
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xmllint(xml).ok, xmllint(xml).output).toBe(true);
    expect(xml).toContain('<Nm>Zoe + AEroskobing Lodz Strasse &apos;Nandu&apos;</Nm>');
    expect(xml).toMatch(/<Ustrd>S\d{4}-\d{5} Stipendium fur Osaka - 1. Jahr<\/Ustrd>/);
  });

  it('says beside the file what it holds otherwise than the records: a name cut or without its other script, a past date asked for today (decision 060)', async () => {
    const cyrillic = await createStudent(t.db, { first_name: 'Иван', last_name: 'Petrov', ...bank });
    const long = await createStudent(t.db, { first_name: 'Maria', last_name: 'Bianchi-Ströbel-'.repeat(5).slice(0, 80), ...bank });
    const [a] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: cyrillic.id })).id });
    const [b] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: long.id })).id });
    // Numbered for a date that has passed since (the bank is asked to carry it out today).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await t.db.update(scholarshipPayments).set({ payment_date: yesterday }).where(eq(scholarshipPayments.id, b!));
    const res = await download('/scholarship_payments/export_payments', { ids: [a, b] });
    expect(res.status, res.body.toString()).toBe(200);
    const [na, nb] = await Promise.all([a!, b!].map(async (id) => (await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id)))[0]!.number));
    const message = decodeURIComponent(res.headers['x-message'] as string);
    expect(message).toContain(`; names in the SEPA file: ${na} as "Petrov" (without Иван), ${nb} as "Maria Bianchi-Strobel-`);
    expect(message).toMatch(/\(cut to 70 characters\); payment date already past, so the bank is asked to pay on \d{2}-\d{2}-\d{4}: /);
    expect(message.endsWith(`: ${nb}`)).toBe(true);
    const [event] = await t.db.select().from(logEvents).where(like(logEvents.le_message, `Exported 2 scholarship payment(s) to the bank (export ${res.headers['x-export-id']},%`));
    expect(event?.le_message).toContain(`names in the SEPA file: ${na} as "Petrov" (without Иван)`);
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xmllint(xml).ok, xmllint(xml).output).toBe(true);
    expect(xml).toMatch(/<CreDtTm>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}<\/CreDtTm>/);
  });

  it('says how many of a selection it left out, not ready or held by another export at this moment', async () => {
    const [ready] = await exportable(1);
    const notNumbered = await planned();
    const res = await download('/scholarship_payments/export_payments', { ids: [ready, notNumbered.id] });
    expect(res.status).toBe(200);
    expect(decodeURIComponent(res.headers['x-message'] as string)).toMatch(/; 1 of the 2 selected not exported: not ready, or being exported by someone else at this moment$/);
  });

  it("pays a student's account to the holder the student named, with the holder's address and the account's reference (decision 034)", async () => {
    const countryId = async (code: string) =>
      (await t.db.select({ id: countries.id }).from(countries).where(eq(countries.cntry_code, code)))[0]?.id ?? (await createCountry(t.db, { cntry_code: code })).id;
    const holderStudent = await createStudent(t.db, {
      first_name: 'Luca',
      last_name: 'Bianchi',
      payment_holder_first_name: 'Maria',
      payment_holder_last_name: 'Bianchi-Ströbel',
      payment_holder_address: 'Bahnhofstrasse 7',
      payment_holder_zip_city: '8001 Zürich',
      payment_holder_cntry_id: await countryId('CH'),
      payment_bank_iban: 'CH93 0076 2011 6238 5295 7',
      payment_bank_swift: 'UBSWCHZH80A',
      payment_bank_reference: 'STU-4711',
    });
    const ownStudent = await createStudent(t.db, { first_name: 'Ana', last_name: 'Sousa', address: 'Rua Augusta 12', zip: '1100-053', city: 'Lisboa', cntry_id: await countryId('PT'), ...bank });
    const [held] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: holderStudent.id })).id, description: 'Monthly allowance' });
    const [own] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: ownStudent.id })).id, description: 'Monthly allowance' });
    const res = await download('/scholarship_payments/export_payments', { ids: [held, own] });
    expect(res.status, res.body.toString()).toBe(200);
    const [header, ...rows] = await readSheet(res.body);
    const at = (title: string) => header!.indexOf(title);
    const numbers = await t.db.select({ id: scholarshipPayments.id, number: scholarshipPayments.number }).from(scholarshipPayments).where(inArray(scholarshipPayments.id, [held!, own!]));
    const numberOf = (id: number) => numbers.find((n) => n.id === id)!.number!;
    const heldRow = rows.find((r) => r[0] === numberOf(held!))!;
    const ownRow = rows.find((r) => r[0] === numberOf(own!))!;
    expect([heldRow[at('Payee')], heldRow[at('Student')], heldRow[at('Payee Address')], heldRow[at('Remittance')]]).toEqual([
      'Maria Bianchi-Ströbel', 'Luca Bianchi', 'Bahnhofstrasse 7, 8001 Zürich, CH', `STU-4711 ${numberOf(held!)} Monthly allowance`,
    ]);
    expect([ownRow[at('Payee')], ownRow[at('Payee Address')], ownRow[at('Remittance')]]).toEqual(['Ana Sousa', 'Rua Augusta 12, 1100-053 Lisboa, PT', `${numberOf(own!)} Monthly allowance`]);

    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xmllint(xml).ok, xmllint(xml).output).toBe(true);
    expect(xml).toContain('<Cdtr><Nm>Maria Bianchi-Strobel</Nm><PstlAdr><Ctry>CH</Ctry><AdrLine>Bahnhofstrasse 7</AdrLine><AdrLine>8001 Zurich</AdrLine></PstlAdr></Cdtr>');
    expect(xml).toContain(`<RmtInf><Ustrd>STU-4711 ${numberOf(held!)} Monthly allowance</Ustrd></RmtInf>`);
    expect(xml).toContain('<Cdtr><Nm>Ana Sousa</Nm><PstlAdr><Ctry>PT</Ctry><AdrLine>Rua Augusta 12</AdrLine><AdrLine>1100-053 Lisboa</AdrLine></PstlAdr></Cdtr>');
    expect(xml).not.toContain('Luca Bianchi');
  });

  it("pays a student who typed their own name as holder, and no holder address, at the student's address (decision 052)", async () => {
    const self = await createStudent(t.db, {
      first_name: 'Ana',
      last_name: 'Lima',
      payment_holder_first_name: ' ana ',
      payment_holder_last_name: 'LIMA',
      address: 'Rua Nova 3',
      zip: '4000-001',
      city: 'Porto',
      ...bank,
    });
    const [id] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: self.id })).id, description: 'Monthly allowance' });
    const res = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(res.status, res.body.toString()).toBe(200);
    const [header, row] = await readSheet(res.body);
    expect(row![header!.indexOf('Payee Address')]).toMatch(/^Rua Nova 3, 4000-001 Porto/);
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xmllint(xml).ok, xmllint(xml).output).toBe(true);
    expect(xml).toMatch(/<Cdtr><Nm>ana LIMA<\/Nm><PstlAdr>(<Ctry>[A-Z]{2}<\/Ctry>)?<AdrLine>Rua Nova 3<\/AdrLine><AdrLine>4000-001 Porto<\/AdrLine><\/PstlAdr><\/Cdtr>/);
  });

  it("pays a university fee to the university with the student's university reference, name and application number", async () => {
    const [uni] = await t.db
      .insert(universities)
      .values({ name: 'Universität Wien', shortname: 'UW', payment_holder_name: '', payment_holder_iban: 'AT611904300234573201', payment_holder_swift: 'BKAUATWWXXX', payment_holder_address: 'Universitätsring 1, 1010 Wien', payment_bank_address: 'Bank', payment_amount: '726' })
      .returning();
    const s = await createStudent(t.db, { first_name: 'Eva', last_name: 'Novak', university_payment_reference: '01234567', ...bank });
    const c = await createContract(t.db, { student_id: s.id, y1_university_id: uni!.id });
    const inv = await feeInvoice(c.id, { number: 'INV-UW-1', invoice_date: '2026-01-01' });
    const [id] = await exportable(1, { contract_id: c.id, scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: uni!.id, amount: '726.00', description: 'Tuition fee Y1' });
    const res = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(res.status, res.body.toString()).toBe(200);
    const [number] = (await t.db.select({ n: scholarshipPayments.number }).from(scholarshipPayments).where(eq(scholarshipPayments.id, id!))).map((r) => r.n);
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xmllint(xml).ok, xmllint(xml).output).toBe(true);
    // No holder name given: the university's own name.
    expect(xml).toContain('<Cdtr><Nm>Universitat Wien</Nm><PstlAdr><AdrLine>Universitatsring 1, 1010 Wien</AdrLine></PstlAdr></Cdtr>');
    expect(xml).toContain(`<Ustrd>01234567 ${number} Eva Novak ${c.application_number} Tuition fee Y1</Ustrd>`);
  });

  it('answers the KIT payments sheet: numbered payments to the KIT university', async () => {
    const [kit] = await t.db
      .insert(universities)
      .values({ name: 'Karlsruher Institut für Technologie', shortname: 'KIT', payment_holder_name: 'KIT Kasse', payment_holder_iban: 'DE89370400440532013000', payment_holder_swift: 'COBADEFFXXX', payment_holder_address: 'Kaiserstraße 12', payment_bank_address: 'Bank', payment_amount: '1500' })
      .returning();
    const c = await createContract(t.db, { student_id: student.id, y1_university_id: kit!.id });
    const inv = await feeInvoice(c.id, { number: 'INV-KIT-1', invoice_date: '2026-01-01' });
    const [id] = await exportable(1, { contract_id: c.id, scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: kit!.id, amount: '1500.00' });
    const res = await download('/scholarship_payments/download_kit_report', {});
    expect(res.status).toBe(200);
    const rows = await readSheet(res.body);
    expect(rows[0]).toEqual(['Payment Number', 'Payment Date', 'Student', 'Application Number', 'Period', 'Invoice Number', 'Description', 'Amount']);
    const [number] = (await t.db.select({ n: scholarshipPayments.number }).from(scholarshipPayments).where(eq(scholarshipPayments.id, id!))).map((r) => r.n);
    expect(rows.slice(1).map((r) => [r[0], r[3], r[5], r[7]])).toEqual([[number, c.application_number, 'INV-KIT-1', 1500]]);
    expect((await download('/scholarship_payments/download_kit_report', {}, reader.token)).status).toBe(403);

    // Without a selection, the rows the overview's filter shows: another contract's KIT payment is left out.
    const other = await createContract(t.db, { student_id: student.id, y1_university_id: kit!.id });
    const otherInvoice = await feeInvoice(other.id, { number: 'INV-KIT-2', invoice_date: '2026-01-01' });
    await exportable(1, { contract_id: other.id, scholarship_payment_type_id: 2, linked_invoice_id: otherInvoice.id, university_id: kit!.id, amount: '1400.00' });
    const numbersIn = async (body: object) => (await readSheet((await download('/scholarship_payments/download_kit_report', body)).body)).slice(1).map((r) => r[5]);
    expect(await numbersIn({ filter: { numbered: true, contract_id: c.id } })).toEqual(['INV-KIT-1']);
    expect(await numbersIn({ filter: { numbered: true } })).toEqual(['INV-KIT-1', 'INV-KIT-2']);
    expect(await numbersIn({ ids: [id!], filter: { numbered: true, contract_id: other.id } })).toEqual(['INV-KIT-1']);
  });
});

describe('scholarship payments: university fee check, bulk edit, permissions', () => {
  it('exports the university fee payments of a period (default: the current one)', async () => {
    const inv = await feeInvoice(contract.id);
    await planned({ scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: contract.y1_university_id, period: '2030-2031/02', amount: '812.34' });
    await planned({ scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: contract.y1_university_id, period: '2030-2031/01', amount: '1.00' });
    const res = await download('/scholarship_payments/export_university_fee_payments', { period: '2030-2031/02' }, reader.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/University_Fees_2030-2031_02\.xlsx/);
    const rows = (await readSheet(res.body)).slice(1);
    expect(rows.map((r) => [r[3], r[4]])).toEqual([['2030-2031/02', 812.34]]);
    const bad = await api('post', '/scholarship_payments/export_university_fee_payments').send({ period: '2030/02' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['period']);
    const current = await download('/scholarship_payments/export_university_fee_payments', {});
    expect(current.status).toBe(200);
  });

  it('bulk edits amount and payment_date of numbered, not exported payments; an empty change set is a 400; exported rows are refused', async () => {
    const [a, b] = await exportable(2);
    expect((await download('/scholarship_payments/export_payments', { ids: [b] })).status).toBe(200);
    const rows = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, [a!, b!]));
    const versions = Object.fromEntries(rows.map((r) => [String(r.id), r.edit_timestamp.toISOString()]));
    const empty = await api('post', '/scholarship_payments/bulk_edit', admin.token).send({ ids: [a], versions, changes: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ changes: ['Change at least one field'] });
    expect((await api('post', '/scholarship_payments/bulk_edit').send({ ids: [a], versions, changes: { amount: 1 } })).status).toBe(403);
    const christmas = `${PAY_ON.slice(0, 4)}-12-24`;
    const started = await api('post', '/scholarship_payments/bulk_edit', admin.token).send({ ids: [a, b], versions, changes: { amount: 42.42, payment_date: christmas } });
    expect(started.status).toBe(202);
    const run = await waitForRun(t, admin.token, started.body.run_id);
    expect(run.failed).toBe(1);
    expect(run.rows.find((r) => r.id === b)?.message).toMatch(/exported to the bank/);
    const [changed] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, a!));
    expect(changed).toMatchObject({ amount: '42.42', payment_date: christmas });
  });

  it("refuses a payment date in another year than the payment's number, by PUT and by bulk edit (decision 060)", async () => {
    const [id] = await exportable(1);
    const [row] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id!));
    const nextYear = `${Number(PAY_ON.slice(0, 4)) + 1}-01-15`;
    const put = await api('put', `/scholarship_payments/${id}`).set('If-Match', row!.edit_timestamp.toISOString()).send({ id, payment_date: nextYear });
    expect(put.status).toBe(400);
    expect(put.body.errors).toEqual({ payment_date: [`Payment ${row!.number} is numbered in ${PAY_ON.slice(0, 4)}: a payment date in ${nextYear.slice(0, 4)} needs a number of ${nextYear.slice(0, 4)}; keep a date of its year`] });
    const versions = { [String(id)]: row!.edit_timestamp.toISOString() };
    const run = await waitForRun(t, admin.token, (await api('post', '/scholarship_payments/bulk_edit', admin.token).send({ ids: [id], versions, changes: { payment_date: nextYear } })).body.run_id);
    expect(run.failed).toBe(1);
    expect(run.rows[0]!.message).toMatch(/is numbered in \d{4}: a payment date in \d{4} needs a number of/);
    const [after] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id!));
    expect(after!.payment_date).toBe(PAY_ON);
  });

  it('keeps a planned payment without a payment date: bulk edit refuses it, and so does the database (scholarship_payments_planned_check)', async () => {
    const row = await planned();
    const versions = { [String(row.id)]: row.edit_timestamp.toISOString() };
    const started = await api('post', '/scholarship_payments/bulk_edit', admin.token).send({ ids: [row.id], versions, changes: { payment_date: '2026-12-24' } });
    expect(started.status).toBe(202);
    const run = await waitForRun(t, admin.token, started.body.run_id);
    expect(run.failed).toBe(1);
    expect(run.rows.find((r) => r.id === row.id)?.message).toMatch(/set when the payment is created/);
    await expect(t.db.update(scholarshipPayments).set({ payment_date: '2026-12-24' }).where(eq(scholarshipPayments.id, row.id))).rejects.toMatchObject({
      cause: { constraint: 'scholarship_payments_planned_check' },
    });
    // So the planned view by payment date is empty without reading a row (crud emptyWhen; sort-indexes.test.ts).
    const listed = await api('get', `/scholarship_payments?planned=true&contract_id=${contract.id}&payment_date=2026-12-24`);
    expect(listed.body.data).toEqual([]);
  });

  it('refuses every write to a Reader', async () => {
    const p = await planned();
    const calls = [
      api('post', `/scholarship_payments/${p.id}/create_payment`, reader.token).send({}),
      api('post', '/scholarship_payments/create_payments', reader.token).send({ ids: [p.id] }),
      api('post', '/scholarship_payments/batch/create_payment', reader.token).send({ ids: [p.id] }),
      api('post', '/scholarship_payments/export_payments', reader.token).send({}),
      api('post', `/scholarship_payments/${p.id}/reset_export`, reader.token).send({}),
      api('post', '/scholarship_payments/bulk_edit', reader.token).send({ ids: [p.id], changes: { amount: 1 } }),
      api('post', '/scholarship_payments/download_sepa', reader.token).send({}),
      api('post', `/contracts/${contract.id}/plan_scholarship_payments`, reader.token).send({}),
      api('post', '/scholarship_payments', reader.token).send(valid(9)),
      api('delete', `/scholarship_payments/${p.id}`, reader.token),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual(calls.map(() => 403));
    const [still] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, p.id));
    expect(still!.number).toBeNull();
  });
});

describe("scholarship payments: the contract's intake and scholarship on the payment (issue 11)", () => {
  const keysOf = async (id: number) => {
    const [row] = await t.db.select({ intake: scholarshipPayments.intake, scholarship_id: scholarshipPayments.scholarship_id }).from(scholarshipPayments).where(eq(scholarshipPayments.id, id));
    return row;
  };
  const ids = async (q: string) => {
    const res = await api('get', `/scholarship_payments?per_page=200&${q}`, reader.token);
    expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
    return (res.body.data as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
  };

  it("takes them from its contract, follows a change of the contract's intake or scholarship and of its own contract", async () => {
    const c1 = await createContract(t.db, { student_id: student.id, intake: 2041, scholarship_id: 1 });
    const c2 = await createContract(t.db, { student_id: student.id, intake: 2042, scholarship_id: 2 });
    const created = await api('post', '/scholarship_payments').send({ ...valid(3), contract_id: c1.id });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const p = created.body.id as number;
    expect(await keysOf(p)).toEqual({ intake: 2041, scholarship_id: 1 });
    expect((await api('get', `/scholarship_payments/${p}`)).body).toMatchObject({ intake: 2041, scholarship_id: 1 });

    // The contract's intake and scholarship change: its payments follow, in the filters and the overview too.
    const edited = await putAsRead(t, user.token, `/contracts/${c1.id}`, { id: c1.id, intake: 2043, scholarship_id: 2 });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await keysOf(p)).toEqual({ intake: 2043, scholarship_id: 2 });
    expect(await ids('intake=2041')).toEqual([]);
    expect(await ids('intake=2043&scholarship_id=2')).toEqual([p]);
    const overview = await api('get', '/scholarship_payments/by_scholarship?intake=2043', reader.token);
    expect(overview.body.data.map((r: { scholarship_id: number; planned_count: number }) => [r.scholarship_id, r.planned_count])).toEqual([[2, 1]]);

    // The payment moves to another contract: it takes that contract's.
    const moved = await putAsRead(t, user.token, `/scholarship_payments/${p}`, { id: p, contract_id: c2.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await keysOf(p)).toEqual({ intake: 2042, scholarship_id: 2 });
    expect(await ids('intake=2042')).toEqual([p]);
    expect(await ids('intake=2043')).toEqual([]);

    // Nothing else decides them: a direct write is put back to the contract's.
    await t.db.update(scholarshipPayments).set({ intake: 1999, scholarship_id: 1 }).where(eq(scholarshipPayments.id, p));
    expect(await keysOf(p)).toEqual({ intake: 2042, scholarship_id: 2 });
  });

  it('cannot be written through the API', async () => {
    const res = await api('post', '/scholarship_payments').send({ ...valid(4), intake: 1999 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors ?? {})).toContain('intake');
  });

  it('a payment made while its contract is being changed waits for that change and takes the new intake', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2044, scholarship_id: 1 });
    const changer = await t.pool.connect();
    const inserter = await t.pool.connect();
    try {
      await changer.query('begin');
      await changer.query('update contracts set intake = 2045 where id = $1', [c.id]);
      await inserter.query('begin');
      const inserting = inserter.query<{ id: number; intake: number }>(
        "insert into scholarship_payments (contract_id, scholarship_payment_type_id, amount, planned_date) values ($1, 1, 10, '2026-01-01') returning id, intake",
        [c.id],
      );
      // The insert waits for the contract's row lock (FOR SHARE in the trigger) until the change commits.
      for (let i = 0; i < 200; i++) {
        const { rows } = await t.pool.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into scholarship_payments%'");
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await changer.query('commit');
      const { rows } = await inserting;
      await inserter.query('commit');
      expect(rows[0]!.intake).toBe(2045);
      expect(await keysOf(rows[0]!.id)).toEqual({ intake: 2045, scholarship_id: 1 });
    } finally {
      changer.release();
      inserter.release();
    }
  });

  it('the filters by intake and scholarship return the rows of the contracts with that intake and scholarship', async () => {
    const made: number[] = [];
    for (const [intake, scholarship] of [[2046, 1], [2046, 2], [2047, 1]] as const) {
      const c = await createContract(t.db, { student_id: student.id, intake, scholarship_id: scholarship });
      for (const type of [1, 3]) made.push((await planned({ contract_id: c.id, scholarship_payment_type_id: type })).id);
    }
    const byContract = async (where: ReturnType<typeof sql>) =>
      (
        await t.db
          .select({ id: scholarshipPayments.id })
          .from(scholarshipPayments)
          .innerJoin(contracts, eq(contracts.id, scholarshipPayments.contract_id))
          .where(and(inArray(scholarshipPayments.id, made), where))
      )
        .map((r) => r.id)
        .sort((a, b) => a - b);
    const within = (xs: number[]) => xs.filter((id) => made.includes(id));
    expect(within(await ids('intake=2046'))).toEqual(await byContract(sql`${contracts.intake} = 2046`));
    expect(within(await ids('intake=2046&scholarship_id=2'))).toEqual(await byContract(sql`${contracts.intake} = 2046 and ${contracts.scholarship_id} = 2`));
    expect(within(await ids('planned=true&intake=2046&scholarship_payment_type_id=3'))).toEqual(
      await byContract(sql`${contracts.intake} = 2046 and ${scholarshipPayments.scholarship_payment_type_id} = 3`),
    );
    expect(within(await ids('scholarship_id=2'))).toEqual(await byContract(sql`${contracts.scholarship_id} = 2`));
    expect(await ids('intake=2046')).toHaveLength(4);
  });
});

describe('scholarship payments: the Scholarship overview (by scholarship) and export by filter', () => {
  it('shows one row per scholarship, intake and type with the counts and sums of the views it opens', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2035, scholarship_id: 2 });
    await planned({ contract_id: c.id, amount: '100.10' });
    await planned({ contract_id: c.id, amount: '200.20' });
    await planned({ contract_id: c.id, amount: '5.55', scholarship_payment_type_id: 3 });
    const [n1, n2] = await exportable(2, { contract_id: c.id, amount: '70.07' });
    expect((await download('/scholarship_payments/export_payments', { ids: [n1] })).status).toBe(200);
    const res = await api('get', '/scholarship_payments/by_scholarship?intake=2035', reader.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data as Record<string, number | string>[];
    expect(rows.map((r) => [r.intake, r.scholarship_id, r.scholarship_payment_type, r.planned_count, r.planned_amount, r.numbered_count, r.numbered_amount, r.exported_count, r.exported_amount])).toEqual([
      [2035, 2, 'Milestone', 2, 300.3, 2, 140.14, 1, 70.07],
      [2035, 2, 'Monthly allowance', 1, 5.55, 0, 0, 0, 0],
    ]);
    // The views each row opens show the same rows: planned, numbered, exported.
    const list = async (q: string) => (await api('get', `/scholarship_payments?per_page=200&intake=2035&scholarship_id=2&scholarship_payment_type_id=1&${q}`, reader.token)).body.data as { id: number; amount: number }[];
    const sum = (xs: { amount: number }[]) => xs.reduce((s, x) => s + Math.round(x.amount * 100), 0) / 100;
    expect(sum(await list('planned=true'))).toBe(300.3);
    expect((await list('numbered=true')).map((r) => r.id).sort()).toEqual([n1, n2].sort());
    expect((await list('numbered=true&exported=true')).map((r) => r.id)).toEqual([n1]);
    expect((await api('get', '/scholarship_payments/by_scholarship?scholarship_payment_type_id=3&intake=2035', reader.token)).body.data).toHaveLength(1);
    const bad = await api('get', '/scholarship_payments/by_scholarship?intake=x', reader.token);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['intake']);
    expect((await api('get', '/scholarship_payments/by_scholarship?unknown=1', reader.token)).status).toBe(400);
  });

  it('exports, without a selection, the ready payments of the overview filter only', async () => {
    const c = await createContract(t.db, { student_id: student.id });
    const other = await createContract(t.db, { student_id: student.id });
    const [mine] = await exportable(1, { contract_id: c.id });
    const [theirs] = await exportable(1, { contract_id: other.id });
    const res = await download('/scholarship_payments/export_payments', { filter: { numbered: 'true', contract_id: c.id, sort: 'number|asc' } });
    expect(res.status).toBe(200);
    const numbers = (await readSheet(res.body)).slice(1).map((r) => r[0]);
    const [row] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, mine!));
    expect(numbers).toEqual([row!.number]);
    const [untouched] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, theirs!));
    expect(untouched!.exported_timestamp).toBeNull();
  });
});

describe("scholarship payments: only a contract that may be paid is paid (decision 035)", () => {
  const numberOf = async (id: number) => (await t.db.select({ n: scholarshipPayments.number }).from(scholarshipPayments).where(eq(scholarshipPayments.id, id)))[0]!.n;
  const schedule = (id: number) => api('post', `/scholarship_payments/${id}/create_payment`).send({ payment_date: '2026-12-01' });

  it('schedules no payment of a contract that is not active or whose offer was rejected, and says why', async () => {
    const inactive = await createContract(t.db, { student_id: student.id, active: false });
    const rejected = await createContract(t.db, { student_id: student.id, contract_status_id: 2, contract_status_date: '2026-02-01' });
    const a = await planned({ contract_id: inactive.id });
    const b = await planned({ contract_id: rejected.id });
    const resA = await schedule(a.id);
    expect([resA.status, resA.body.message]).toEqual([409, `No payment: Contract ${inactive.application_number} is not active`]);
    const resB = await schedule(b.id);
    expect([resB.status, resB.body.message]).toEqual([409, `No payment: The offer of contract ${rejected.application_number} was rejected`]);
    expect([await numberOf(a.id), await numberOf(b.id)]).toEqual([null, null]);
  });

  it('after a drop-out schedules what was due up to that day, and refuses the rest in Schedule Payments with the reason', async () => {
    const c = await createContract(t.db, { student_id: student.id, contract_status_id: 6, contract_status_date: '2026-03-31' });
    const due = await planned({ contract_id: c.id, planned_date: '2026-03-01', period: '2026-03' });
    const after = await planned({ contract_id: c.id, planned_date: '2026-04-01', period: '2026-04' });
    const started = await api('post', '/scholarship_payments/create_payments').send({ ids: [due.id, after.id], payment_date: '2026-12-01' });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const run = await waitForRun(t, user.token, started.body.run_id as number);
    expect(run.rows.map((r) => [r.ok, r.message])).toEqual([
      [true, expect.stringMatching(/^Payment S2026-\d{5} of 01-12-2026$/)],
      [false, `Error for ${c.application_number} 2026-04: No payment: The student of contract ${c.application_number} dropped out on 31-03-2026, before it was due (01-04-2026)`],
    ]);
    expect(await numberOf(due.id)).not.toBeNull();
    expect(await numberOf(after.id)).toBeNull();
  });

  it('leaves a scheduled payment out of the export when its contract stopped being paid since, and names it', async () => {
    const c = await createContract(t.db, { student_id: student.id });
    const [kept, stopped] = [await exportable(1), await exportable(1, { contract_id: c.id })].flat();
    await t.db.update(contracts).set({ contract_status_id: 6, contract_status_date: '2025-12-31' }).where(eq(contracts.id, c.id));
    const res = await download('/scholarship_payments/export_payments', { ids: [kept, stopped] });
    expect(res.status).toBe(200);
    expect((await readSheet(res.body)).slice(1).map((r) => r[0])).toEqual([await numberOf(kept!)]);
    expect(decodeURIComponent(String(res.headers['x-message']))).toContain(
      `left out (not exported): ${await numberOf(stopped!)} (The student of contract ${c.application_number} dropped out on 31-12-2025, before it was due (15-01-2026))`,
    );
    const [row] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, stopped!));
    expect(row!.exported_timestamp).toBeNull();
  });

  it('plans nothing for a contract that dropped out, and says why', async () => {
    const c = await createContract(t.db, { student_id: student.id, intake: 2034, contract_status_id: 6, contract_status_date: '2026-01-15' });
    await t.db.insert(studentFees).values({ intake: 2034, scholarship_id: 1, monthly_allowance_amount: '10.00' });
    const res = await api('post', `/contracts/${c.id}/plan_scholarship_payments`).send({});
    expect([res.status, res.body.message]).toEqual([409, `Nothing planned: The student of contract ${c.application_number} dropped out on 15-01-2026`]);
    expect(await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id))).toHaveLength(0);
  });
});

describe('scholarship payments: a contract changed since planning; the execution date (decision 037)', () => {
  const numberOf = async (id: number) => (await t.db.select({ n: scholarshipPayments.number }).from(scholarshipPayments).where(eq(scholarshipPayments.id, id)))[0]!.n;

  it('pays no allowance outside the contract dates: a contract shortened after planning', async () => {
    const c = await createContract(t.db, { student_id: student.id, start_date: '2041-09-01', end_date: '2043-08-31' });
    const late = await planned({ contract_id: c.id, scholarship_payment_type_id: 3, planned_date: '2043-05-01', period: '2043-05' });
    const milestone = await planned({ contract_id: c.id, planned_date: '2043-05-01', period: 'Y2' });
    await t.db.update(contracts).set({ end_date: '2042-08-31' }).where(eq(contracts.id, c.id));
    const res = await api('post', `/scholarship_payments/${late.id}/create_payment`).send({});
    expect([res.status, res.body.message]).toEqual([409, `No payment: The allowance of 01-05-2043 is outside contract ${c.application_number} (01-09-2041 to 31-08-2042)`]);
    expect(await numberOf(late.id)).toBeNull();
    // A milestone is the cohort's, dated by it: not held to the contract's dates.
    expect((await api('post', `/scholarship_payments/${milestone.id}/create_payment`).send({})).status).toBe(200);
  });

  it("pays no university fee to a university that is no longer one of the contract's, and leaves a scheduled one out of the export", async () => {
    const [old, next] = await t.db
      .insert(universities)
      .values(['OLD', 'NEW'].map((code) => ({ name: `University ${code}`, shortname: `U-${code}`, payment_holder_name: `Kasse ${code}`, payment_holder_iban: 'DE89370400440532013000', payment_holder_swift: 'COBADEFFXXX', payment_holder_address: 'Str. 1', payment_bank_address: 'Bank', payment_amount: '500' })))
      .returning();
    const c = await createContract(t.db, { student_id: student.id, y1_university_id: old!.id, y2_university_id: old!.id });
    const inv = await feeInvoice(c.id, { year: 2, number: `INV-U-${c.id}`, invoice_date: '2026-01-01' });
    const fee = { contract_id: c.id, scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: old!.id, amount: '500.00' };
    const [scheduled] = await exportable(1, fee);
    const unscheduled = await planned(fee);
    await t.db.update(contracts).set({ y2_university_id: next!.id, y1_university_id: next!.id }).where(eq(contracts.id, c.id));
    const res = await api('post', `/scholarship_payments/${unscheduled.id}/create_payment`).send({});
    expect([res.status, res.body.message]).toEqual([409, `No payment: U-OLD is no longer a university of contract ${c.application_number}: plan the fee again`]);
    const exported = await download('/scholarship_payments/export_payments', { ids: [scheduled] });
    expect(exported.status).toBe(409);
    expect(JSON.parse(exported.body.toString()).message).toContain(`${await numberOf(scheduled!)} (U-OLD is no longer a university of contract ${c.application_number}`);
  });

  it('asks the bank to execute a payment dated in the past today, not on its date', async () => {
    const today = todayIn(t.ctx.env.APP_TIMEZONE);
    const p = await planned({ planned_date: '2025-01-15' });
    expect((await api('post', `/scholarship_payments/${p.id}/create_payment`).send({ payment_date: '2025-02-01' })).status).toBe(200);
    const res = await download('/scholarship_payments/export_payments', { ids: [p.id] });
    expect(res.status).toBe(200);
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString('utf8');
    expect(xml.match(/<ReqdExctnDt>[^<]*<\/ReqdExctnDt>/g)).toEqual([`<ReqdExctnDt>${today}</ReqdExctnDt>`]);
  });
});

describe('scholarship payments: bank data checked again at export, Export Selection', () => {
  it('leaves a payment whose payee bank data became invalid out of the export (and not exported)', async () => {
    const s = await createStudent(t.db, bank);
    const c = await createContract(t.db, { student_id: s.id });
    const [id] = await exportable(1, { contract_id: c.id });
    await t.db.update(students).set({ payment_bank_iban: 'DE00370400440532013000' }).where(eq(students.id, s.id));
    const res = await download('/scholarship_payments/export_payments', { ids: [id] });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body.toString()).message).toMatch(/^Nothing to export: no payment ready can be paid: S\d{4}-\d{5} \(The IBAN of .* is not valid\)/);
    const [row] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id!));
    expect(row!.exported_timestamp).toBeNull();
  });

  it('exports the payments whose bank data is valid and tells the user, beside the file, which it left out and why', async () => {
    const good = await createStudent(t.db, bank);
    const bad = await createStudent(t.db, bank);
    const [kept] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: good.id })).id });
    const [dropped] = await exportable(1, { contract_id: (await createContract(t.db, { student_id: bad.id })).id });
    await t.db.update(students).set({ payment_bank_iban: 'DE00370400440532013000' }).where(eq(students.id, bad.id));
    const res = await download('/scholarship_payments/export_payments', { ids: [kept, dropped] });
    expect(res.status).toBe(200);
    const rowOf = async (id: number) => (await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id)))[0]!;
    const keptRow = await rowOf(kept!);
    const droppedRow = await rowOf(dropped!);
    expect(keptRow.exported_timestamp).not.toBeNull();
    expect(droppedRow.exported_timestamp).toBeNull();
    expect(res.headers['access-control-expose-headers']).toContain('X-Message');
    const message = decodeURIComponent(res.headers['x-message'] as string);
    expect(message).toMatch(new RegExp(`^Exported 1 scholarship payment\\(s\\), total € [\\d.]+,\\d{2}; left out \\(not exported\\): ${droppedRow.number} \\(The IBAN of .* is not valid\\)$`));
    expect((await readSheet(res.body)).slice(1).map((r) => r[0])).toEqual([keptRow.number]);
  });

  it('leaves out a numbered payment whose amount was edited to 0 or less: the bank file holds only real transfers', async () => {
    const [kept, zero, negative] = await exportable(3);
    await t.db.update(scholarshipPayments).set({ amount: '0.00' }).where(eq(scholarshipPayments.id, zero!));
    await t.db.update(scholarshipPayments).set({ amount: '-5.50' }).where(eq(scholarshipPayments.id, negative!));
    const res = await download('/scholarship_payments/export_payments', { ids: [kept, zero, negative] });
    expect(res.status).toBe(200);
    const rows = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, [kept!, zero!, negative!])).orderBy(scholarshipPayments.id);
    expect(rows.map((r) => r.exported_timestamp !== null)).toEqual([true, false, false]);
    expect(decodeURIComponent(res.headers['x-message'] as string)).toMatch(
      new RegExp(`; left out \\(not exported\\): ${rows[1]!.number} \\(its amount 0\\.00 is not above 0\\), ${rows[2]!.number} \\(its amount -5\\.50 is not above 0\\)$`),
    );
    const xml = (await download('/scholarship_payments/download_sepa', { export_id: Number(res.headers['x-export-id']) })).body.toString();
    expect(xml.match(/<InstdAmt Ccy="EUR">[^<]*<\/InstdAmt>/g)).toEqual([`<InstdAmt Ccy="EUR">${rows[0]!.amount}</InstdAmt>`]);
    const alone = await download('/scholarship_payments/export_payments', { ids: [zero, negative] });
    expect(alone.status).toBe(409);
    expect(JSON.parse(alone.body.toString()).message).toMatch(/^Nothing to export: no payment ready can be paid: .*is not above 0/);
  });

  it('names every export in a choice list, newest first, and Download SEPA file answers the one chosen', async () => {
    const [first] = await exportable(1, { amount: '1234.50' });
    const older = await download('/scholarship_payments/export_payments', { ids: [first] });
    const [second] = await exportable(1, { amount: '7.00' });
    const newer = await download('/scholarship_payments/export_payments', { ids: [second] });
    const [olderId, newerId] = [older, newer].map((r) => Number(r.headers['x-export-id']));
    const choices = await api('get', '/scholarship_payment_exports/choice', reader.token);
    expect(choices.status).toBe(200);
    const stamp = '\\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2}';
    expect(choices.body[0]).toEqual({ id: newerId, name: expect.stringMatching(new RegExp(`^Export ${newerId} · ${stamp} · Test User · 1 payment\\(s\\) · € 7,00$`)) });
    expect(choices.body[1]).toEqual({ id: olderId, name: expect.stringMatching(new RegExp(`^Export ${olderId} · ${stamp} · Test User · 1 payment\\(s\\) · € 1\\.234,50$`)) });
    const sepaOf = async (body: object) => (await download('/scholarship_payments/download_sepa', body)).body.toString('utf8').match(/<InstdAmt Ccy="EUR">([^<]*)</)?.[1];
    expect(await sepaOf({ export_id: olderId })).toBe('1234.50');
    expect(await sepaOf({})).toBe('7.00');
    // None chosen is the caller's own latest: not the export another user made after it, and none of their own yet
    // is a 409 asking to choose.
    const [third] = await exportable(1, { amount: '3.00' });
    const byAdmin = Number((await download('/scholarship_payments/export_payments', { ids: [third] }, admin.token)).headers['x-export-id']);
    expect(byAdmin).toBeGreaterThan(newerId!);
    expect(await sepaOf({})).toBe('7.00');
    expect((await download('/scholarship_payments/download_sepa', {}, admin.token)).body.toString('utf8')).toContain('<InstdAmt Ccy="EUR">3.00<');
    const other = await userWithToken(t.app, t.db, 'User');
    const none = await api('post', '/scholarship_payments/download_sepa', other.token).send({});
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('You have not exported payments yet: choose the export whose SEPA file you want');
    expect(await sepaOf({ export_id: byAdmin })).toBe('3.00');

    // A payment reset since is still in its export's file: the chooser says so (decision 055), and the checksum
    // changes with it, so a cached list is read again.
    const checksum = (await api('get', '/scholarship_payment_exports/choice_checksum', reader.token)).body.checksum;
    const current = (await api('get', `/scholarship_payments/${first}`)).body;
    expect((await api('post', `/scholarship_payments/${first}/reset_export`).set('If-Match', current.edit_timestamp).send({})).status).toBe(200);
    const after = (await api('get', '/scholarship_payment_exports/choice', reader.token)).body as { id: number; name: string }[];
    expect(after.find((c) => c.id === olderId)!.name).toMatch(/ · 1 payment\(s\) · € 1\.234,50 · 1 reset since: its file still holds them$/);
    expect(after.find((c) => c.id === newerId)!.name).toMatch(/ · € 7,00$/);
    expect((await api('get', '/scholarship_payment_exports/choice_checksum', reader.token)).body.checksum).not.toBe(checksum);
  });

  it('Export Selection answers Scholarship_Payments.xlsx with the selected rows', async () => {
    const a = await planned({ amount: '11.11' });
    const b = await planned({ amount: '22.22' });
    const res = await download('/scholarship_payments/download_report', { ids: [a.id, b.id] }, reader.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/Scholarship_Payments\.xlsx/);
    const rows = await readSheet(res.body);
    expect(rows[0]).toContain('Amount');
    const amountAt = rows[0]!.indexOf('Amount');
    expect(rows.slice(1).map((r) => r[amountAt]).sort()).toEqual([11.11, 22.22]);
  });
});

describe('scholarship payments: schedule payments per document_reference (spec §7)', () => {
  it('creates the payments of the planned rows linked to invoices with that reference, once', async () => {
    const c = await createContract(t.db, { student_id: student.id });
    const inv = await feeInvoice(c.id, { document_reference: `REF-${c.id}-Y1-T5` });
    const other = await feeInvoice(c.id, { document_reference: `REF-${c.id}-Y2-T5`, year: 2 });
    const mine = await planned({ contract_id: c.id, scholarship_payment_type_id: 2, linked_invoice_id: inv.id, university_id: c.y1_university_id, amount: '500.00' });
    const theirs = await planned({ contract_id: c.id, scholarship_payment_type_id: 2, linked_invoice_id: other.id, university_id: c.y1_university_id });
    expect((await api('post', '/scholarship_payments/schedule_payments_by_reference', reader.token).send({ document_reference: `REF-${c.id}-Y1-T5` })).status).toBe(403);
    const res = await api('post', '/scholarship_payments/schedule_payments_by_reference').send({ document_reference: `REF-${c.id}-Y1-T5`, payment_date: '2042-02-02' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(new RegExp(`^Scheduled 1 payment\\(s\\) of REF-${c.id}-Y1-T5: S2042-00001$`));
    const rows = await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, [mine.id, theirs.id]));
    expect(rows.find((r) => r.id === mine.id)).toMatchObject({ number: 'S2042-00001', payment_date: '2042-02-02', payment_allowed: true });
    expect(rows.find((r) => r.id === theirs.id)!.number).toBeNull();
    const again = await api('post', '/scholarship_payments/schedule_payments_by_reference').send({ document_reference: `REF-${c.id}-Y1-T5` });
    expect(again.status).toBe(409);
    const empty = await api('post', '/scholarship_payments/schedule_payments_by_reference').send({ document_reference: ' ' });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(['document_reference']);
  });
});
