import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { todayIn } from '@app/contracts';
import { contracts, invoicePayments, invoices, students, templates } from '@app/db';
import { DEFAULTS_DIR } from '../../lib/templates/registry.js';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, createStudent, userWithToken } from '../../test/factories.js';
import { pdfText } from '../../test/files.js';
import { academicYearOf } from '../../lib/invoicing/status.js';

const t = await setupTestApp();
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const post = (path: string, body: object = {}) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${reader.token}`).send(body).buffer(true).parse(binaryParser);

let seq = 0;
/**
 * A contract with two numbered invoices: participation fee 1000.00 of 2026-01-10, due 2026-02-09, paid 400.00 on
 * 2026-02-01 and 600.00 on 2026-05-01; administration fee 250.50 of 2026-03-01, due 2026-03-31, credited 50.50 on
 * 2026-03-15 and not paid.
 */
async function contractWithHistory() {
  const student = await createStudent(t.db, { first_name: 'Ærøskøbing', last_name: 'Ōtani' });
  const contract = await createContract(t.db, { student_id: student.id });
  const n = ++seq;
  const base = { contract_id: contract.id, year: 1, semester: 0 };
  const [pf] = await t.db
    .insert(invoices)
    .values({ ...base, amount: '1000.00', description: 'Participation fee', number: `F${n}-1`, invoice_date: '2026-01-10', expiration_date: '2026-02-09', document_type_id: 5 })
    .returning();
  const [admin] = await t.db
    .insert(invoices)
    .values({ ...base, amount: '250.50', description: 'Administration fee', number: `F${n}-2`, invoice_date: '2026-03-01', expiration_date: '2026-03-31', document_type_id: 7 })
    .returning();
  await t.db.insert(invoices).values({ ...base, amount: '50.50', description: 'Credit', number: `CN-F${n}-2`, invoice_date: '2026-03-15', document_type_id: 8, linked_invoice_id: admin!.id });
  await t.db.insert(invoicePayments).values([
    { number: `PF${n}-1`, invoice_id: pf!.id, payment_date: '2026-02-01', amount_paid: '400.00' },
    { number: `PF${n}-2`, invoice_id: pf!.id, payment_date: '2026-05-01', amount_paid: '600.00' },
  ]);
  return { student, contract, pf: pf!, admin: admin! };
}

async function sheetRows(body: Buffer, index = 0) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as never);
  const sheet = book.worksheets[index]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, i) => {
    if (i === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((h, k) => [h, values[k] ?? null])));
  });
  return { names: book.worksheets.map((w) => w.name), header, rows };
}

describe('payment status of one contract as of a simulation date', () => {
  it('before a payment the invoice shows open, and expired when its deadline has passed (xlsx)', async () => {
    const { contract, pf, admin } = await contractWithHistory();
    const res = await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-04-15', format: 'xlsx' });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`Payment_Status_${contract.application_number}_2026-04-15.xlsx`);
    const { rows } = await sheetRows(res.body as Buffer);
    expect(rows.map((r) => [r['Invoice Number'], r.Invoiced, r.Credited, r.Paid, r.Open, r.Expired])).toEqual([
      // The second payment (2026-05-01) is after the date: 600.00 still open, the deadline passed.
      [pf.number, 1000, 0, 400, 600, 'Yes'],
      [admin.number, 250.5, 50.5, 0, 200, 'Yes'],
    ]);
    const later = await sheetRows((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-05-01', format: 'xlsx' })).body as Buffer);
    expect(later.rows.map((r) => [r.Paid, r.Open, r.Expired])).toEqual([
      [1000, 0, 'No'],
      [0, 200, 'Yes'],
    ]);
    // Before the credit note and the second invoice: only the first invoice, not yet due.
    const early = await sheetRows((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-01-31', format: 'xlsx' })).body as Buffer);
    expect(early.rows.map((r) => [r['Invoice Number'], r.Open, r.Expired])).toEqual([[pf.number, 1000, 'No']]);
  });

  it('as a PDF, with the totals and the expired invoices marked', async () => {
    const { contract, pf } = await contractWithHistory();
    const res = await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-04-15' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const text = pdfText(res.body as Buffer).replace(/\s+/g, ' ');
    expect(text).toContain(`${pf.number} of 10-01-2026, due 09-02-2026`);
    expect(text).toContain('(EXPIRED)');
    expect(text).toMatch(/Open € 800,00/);
    expect(text).toContain('Ærøskøbing Ōtani');
  });

  it('a payment booked before its invoice was dated shows as paid in advance, as the balance of the same day counts it', async () => {
    const { contract, pf } = await contractWithHistory();
    // Paid on 2026-02-20 on an invoice dated 2026-03-10.
    const [later] = await t.db
      .insert(invoices)
      .values({ contract_id: contract.id, year: 2, semester: 0, amount: '333.33', description: 'Second year', number: `F${++seq}-7`, invoice_date: '2026-03-10', expiration_date: '2026-04-09', document_type_id: 5 })
      .returning();
    await t.db.insert(invoicePayments).values({ number: `PF${seq}-7`, invoice_id: later!.id, payment_date: '2026-02-20', amount_paid: '333.33' });
    const status = await sheetRows((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-02-25', format: 'xlsx' })).body as Buffer);
    expect(status.rows.map((r) => [r['Invoice Number'], r.Invoiced, r.Paid, r.Open, r.Expired])).toEqual([
      [pf.number, 1000, 400, 600, 'Yes'],
      [later!.number, 0, 333.33, -333.33, 'No'],
    ]);
    const balance = await sheetRows((await post('/contracts/download_balance', { ids: [contract.id], date: '2026-02-25' })).body as Buffer);
    const statusOpen = status.rows.reduce((sum, r) => sum + Math.round(Number(r.Open) * 100), 0) / 100;
    expect(balance.rows[0]!.Open).toBe(statusOpen);
    expect(balance.rows[0]!.Paid).toBe(733.33);
    const pdf = pdfText((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-02-25' })).body as Buffer).replace(/\s+/g, ' ');
    expect(pdf).toContain(`${later!.number} of 10-03-2026`);
    expect(pdf).toContain('(paid before it was invoiced)');
    expect(pdf).toMatch(/Open € 266,67/);
    // Before the payment, the later invoice is not on the statement at all.
    const before = await sheetRows((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-02-19', format: 'xlsx' })).body as Buffer);
    expect(before.rows.map((r) => r['Invoice Number'])).toEqual([pf.number]);
  });

  it('the PDF is the template payment_status_pdf: an uploaded one words it (DESIGN §7, decision 055)', async () => {
    const { contract, pf } = await contractWithHistory();
    const text = readFileSync(path.join(DEFAULTS_DIR, 'payment_status_pdf.liquid'), 'utf8').replace('title: Payment status', 'title: Zahlungsstand');
    await t.db.insert(templates).values({ internalname: 'payment_status_pdf', content: text, filename: 'payment_status_pdf.liquid' });
    try {
      const pdf = pdfText((await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-04-15' })).body as Buffer).replace(/\s+/g, ' ');
      expect(pdf).toContain('Zahlungsstand');
      expect(pdf).toContain(`${pf.number} of 10-01-2026`);
    } finally {
      await t.db.delete(templates).where(eq(templates.internalname, 'payment_status_pdf'));
    }
  });

  it('the PF payment status shows the participation fee only', async () => {
    const { contract, pf } = await contractWithHistory();
    const res = await post(`/contracts/${contract.id}/download_pf_paymentstatus`, { date: '2026-06-01' });
    expect(res.status).toBe(200);
    const { rows } = await sheetRows(res.body as Buffer);
    expect(rows.map((r) => [r['Invoice Number'], r.Paid, r.Open])).toEqual([[pf.number, 1000, 0]]);
  });

  it('a bad simulation date or format is a 400 naming the field', async () => {
    const { contract } = await contractWithHistory();
    const bad = await post(`/contracts/${contract.id}/download_payment_status`, { date: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(String(bad.body)).errors).toHaveProperty('date');
    const format = await post(`/contracts/${contract.id}/download_payment_status`, { format: 'doc' });
    expect(format.status).toBe(400);
    expect(JSON.parse(String(format.body)).errors).toHaveProperty('format');
  });
});

describe('exports over a filtered set of contracts', () => {
  it('a filter with an unknown field is a 400 naming it, before the export is recorded in the log (found by the fuzz test)', async () => {
    for (const path of ['download_paymentstatus', 'download_balance', 'download_payments_due', 'download_paymentstatus_period']) {
      const [{ before }] = (await t.db.execute<{ before: string }>(sql`select count(*)::text as before from log_events`)).rows as [{ before: string }];
      const res = await post(`/contracts/${path}`, { filter: { prototype: '-1', intake: 2024 } });
      expect([path, res.status], String(res.body)).toEqual([path, 400]);
      expect(JSON.parse(String(res.body)).errors).toHaveProperty('prototype');
      const [{ after }] = (await t.db.execute<{ after: string }>(sql`select count(*)::text as after from log_events`)).rows as [{ after: string }];
      expect([path, after]).toEqual([path, before]);
    }
  });

  it('POST /contracts/download_paymentstatus: every invoice of the filtered contracts as of the date', async () => {
    const { student, pf, admin } = await contractWithHistory();
    const res = await post('/contracts/download_paymentstatus', { filter: { student_id: student.id }, date: '2026-02-15' });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain('Payment_Status_2026-02-15.xlsx');
    const { names, rows } = await sheetRows(res.body as Buffer);
    expect(names).toEqual(['Payment status as of 15-02-2026']);
    expect(rows.map((r) => [r['Invoice Number'], r.Paid, r.Open, r.Expired])).toEqual([[pf.number, 400, 600, 'Yes']]);
    expect(rows.some((r) => r['Invoice Number'] === admin.number)).toBe(false);
  });

  it('export of balance to date: per contract invoiced, credited, paid and open', async () => {
    const a = await contractWithHistory();
    const b = await contractWithHistory();
    const res = await post('/contracts/download_balance', { ids: [a.contract.id, b.contract.id], date: '2026-04-01' });
    expect(res.status).toBe(200);
    // The file and its sheet say the day the figures are as of; "Invoiced" says it is before the credit notes
    // (the contract screen's "Invoiced amount" is net of them).
    expect(res.headers['content-disposition']).toContain('Balance_2026-04-01.xlsx');
    const { names, rows } = await sheetRows(res.body as Buffer);
    expect(names).toEqual(['Balance as of 01-04-2026']);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect([r['Invoiced (before credit notes)'], r.Credited, r.Paid, r.Open]).toEqual([1250.5, 50.5, 400, 800]);
  });

  it('the list exports give the contracts in the overview\'s order (its filter and sort), each contract\'s lines together', async () => {
    const made = [];
    for (const last of ['Quorder Beta', 'Quorder Alpha', 'Quorder Gamma']) {
      const c = await contractWithHistory();
      await t.db.update(contracts).set({ last_name: last }).where(eq(contracts.id, c.contract.id));
      await t.db.update(students).set({ last_name: last }).where(eq(students.id, c.student.id));
      made.push({ last, number: c.contract.application_number });
    }
    const expected = [...made].sort((x, y) => y.last.localeCompare(x.last)).map((m) => m.number);
    const filter = { search: 'Quorder', sort: 'last_name|desc' };
    const balance = await sheetRows((await post('/contracts/download_balance', { filter, date: '2026-04-01' })).body as Buffer);
    expect(balance.rows.map((r) => r.Contract)).toEqual(expected);
    const status = await sheetRows((await post('/contracts/download_paymentstatus', { filter, date: '2026-04-01' })).body as Buffer);
    expect([...new Set(status.rows.map((r) => r.Contract))]).toEqual(expected);
    expect(status.rows).toHaveLength(6);
    const period = await post('/contracts/download_paymentstatus_period', { filter, from: '2026-01-01', until: '2026-12-31' });
    expect((await sheetRows(period.body as Buffer, 0)).rows.map((r) => r.Contract)).toEqual(expected);
    expect([...new Set((await sheetRows(period.body as Buffer, 1)).rows.map((r) => r.Contract))]).toEqual(expected);
  });

  it('Payments_Due.xlsx: the open invoices by due date, expired first, amounts as numbers', async () => {
    const { student, pf, admin } = await contractWithHistory();
    // A third invoice, due in the future and open.
    const [future] = await t.db
      .insert(invoices)
      .values({ contract_id: pf.contract_id, year: 2, semester: 0, amount: '0.30', description: 'Later fee', number: `F${++seq}-9`, invoice_date: '2026-01-01', expiration_date: '2099-01-01', document_type_id: 5 })
      .returning();
    const res = await post('/contracts/download_payments_due', { filter: { student_id: student.id } });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain('Payments_Due.xlsx');
    const { header, rows } = await sheetRows(res.body as Buffer);
    expect(header.slice(0, 3)).toEqual(['Due Date', 'Expired', 'Contract']);
    // The participation fee is paid in full (today is after 2026-05-01): not due.
    expect(rows.map((r) => r['Invoice Number'])).toEqual([admin.number, future!.number]);
    expect(rows[0]!.Open).toBe(200);
    expect(typeof rows[0]!.Open).toBe('number');
    expect(rows[1]!.Open).toBe(0.3);
    expect(rows[0]!.Expired).toBe('Yes');
    expect(rows[1]!.Expired).toBe('No');
    expect(rows[0]!['Due Date']).toBeInstanceOf(Date);
    expect(rows.map((r) => r['Contract owes'])).toEqual([200.3, 200.3]);
  });

  it('Payments_Due.xlsx shows beside each invoice what its contract owes in all, when a credit covers part of it', async () => {
    const { student, pf, admin } = await contractWithHistory();
    // 920.00 of the paid participation fee credited: a credit of 920.00 against the admin fee's 200.00 open... and
    // a third invoice of 1000.00: the contract owes 280.00 of the 1,200.00 its invoices have open.
    await t.db.insert(invoices).values({ contract_id: pf.contract_id, year: 1, semester: 0, amount: '920.00', description: 'Partly withdrawn', number: `CN-${pf.number}`, invoice_date: '2026-06-01', document_type_id: 6, linked_invoice_id: pf.id });
    const [third] = await t.db
      .insert(invoices)
      .values({ contract_id: pf.contract_id, year: 2, semester: 0, amount: '1000.00', description: 'Second year', number: `F${++seq}-8`, invoice_date: '2026-06-01', expiration_date: '2026-07-01', document_type_id: 5 })
      .returning();
    const res = await post('/contracts/download_payments_due', { filter: { student_id: student.id } });
    const { names, rows } = await sheetRows(res.body as Buffer);
    expect(names).toEqual([`Payments due as of ${todayIn('Europe/Berlin').split('-').reverse().join('-')}`]);
    expect(rows.map((r) => [r['Invoice Number'], r.Open, r['Contract owes']])).toEqual([
      [admin.number, 200, 280],
      [third!.number, 1000, 280],
    ]);
  });

  it("Payments_Due.xlsx leaves out a contract whose credit covers its open invoices (another paid, then credited)", async () => {
    const { student, pf, admin } = await contractWithHistory();
    // The paid participation fee credited in full: the student is owed its payment, more than the open admin fee.
    await t.db.insert(invoices).values({ contract_id: pf.contract_id, year: 1, semester: 0, amount: pf.amount, description: 'Withdrawn', number: `CN-${pf.number}`, invoice_date: '2026-06-01', document_type_id: 6, linked_invoice_id: pf.id });
    const res = await post('/contracts/download_payments_due', { filter: { student_id: student.id } });
    expect(res.status).toBe(200);
    expect((await sheetRows(res.body as Buffer)).rows.map((r) => r['Invoice Number'])).not.toContain(admin.number);
  });

  it('Contracts.xlsx keeps working with the money columns', async () => {
    const { student } = await contractWithHistory();
    const res = await post('/contracts/download_report', { filter: { student_id: student.id } });
    expect(res.status).toBe(200);
    const { rows } = await sheetRows(res.body as Buffer);
    expect([rows[0]!.Invoiced, rows[0]!.Paid, rows[0]!.Open]).toEqual([1200, 1000, 200]);
  });
});

describe('payment status over a period (issue 18 point 3)', () => {
  it('sheet one a row per contract for the period with the balance at its end, sheet two the documents and payments', async () => {
    const { student, contract, pf, admin } = await contractWithHistory();
    const res = await post('/contracts/download_paymentstatus_period', { filter: { student_id: student.id }, from: '2026-02-01', until: '2026-03-31' });
    expect(res.status).toBe(200);
    const one = await sheetRows(res.body as Buffer, 0);
    expect(one.names).toEqual(['Contracts', 'Documents and payments']);
    expect(one.header).toEqual(['Contract', 'Student Name', 'Invoiced (before credit notes)', 'Credited', 'Paid', 'Open', 'Balance at end']);
    // In the period: the administration fee and its credit note, and the first payment; at its end 800.00 open.
    expect(one.rows).toEqual([{ Contract: contract.application_number, 'Student Name': 'Ærøskøbing Ōtani', 'Invoiced (before credit notes)': 250.5, Credited: 50.5, Paid: 400, Open: -200, 'Balance at end': 800 }]);
    const two = await sheetRows(res.body as Buffer, 1);
    expect(two.rows.map((r) => [r.Kind, r.Number, r.Amount])).toEqual([
      ['Payment', `PF${seq}-1`, -400],
      ['Invoice', admin.number, 250.5],
      ['Credit note', `CN-${admin.number}`, -50.5],
    ]);
    expect(two.rows.some((r) => r.Number === pf.number)).toBe(false);
  });

  it('defaults to the academic year containing today, and from after until is a 400 naming the field', async () => {
    const { student } = await contractWithHistory();
    const year = academicYearOf(todayIn(t.ctx.env.APP_TIMEZONE));
    const res = await post('/contracts/download_paymentstatus_period', { filter: { student_id: student.id } });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`Payment_Status_${year.from}_${year.until}.xlsx`);
    const bad = await post('/contracts/download_paymentstatus_period', { from: '2026-05-01', until: '2026-04-30' });
    expect(bad.status).toBe(400);
    expect(Object.keys(JSON.parse(String(bad.body)).errors)).toEqual(['from']);
    expect(academicYearOf('2026-08-31')).toEqual({ from: '2025-09-01', until: '2026-08-31' });
    expect(academicYearOf('2026-09-01')).toEqual({ from: '2026-09-01', until: '2027-08-31' });
  });
});
