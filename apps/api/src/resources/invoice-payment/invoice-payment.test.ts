import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, desc, eq, sql } from 'drizzle-orm';
import { EVENT_TYPE_IDS, formatDateTime, invoicePaymentResource, todayIn } from '@app/contracts';
import { invoicePayments, invoices, logEvents, outbox } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { binaryParser, contractMoneyOf, createContract, createStudent, userWithToken } from '../../test/factories.js';
import { pdfText } from '../../test/files.js';
import { startTestSmtp } from '../../test/smtp.js';
import { waitFor } from '../../test/wait.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';

// Two job workers: a test holds both at the SMTP server so that a third mail waits in the outbox.
const t = await setupTestApp({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3', MAIL_TIMEOUT_MS: '5000', WORKER_CONCURRENCY: '2' });
const smtp = await startTestSmtp();
await startTestWorkers(t);

type U = Awaited<ReturnType<typeof userWithToken>>;
let user: U;
let reader: U;
let developer: U;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
  developer = await userWithToken(t.app, t.db, 'Developer');
  const res = await api('put', '/config/email/', developer.token).send({ smtp_servername: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_email_address: 'office@example.org' });
  expect(res.status, res.text).toBe(200);
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
/** The newest event-log entry of a payment. */
const lastEventOf = async (id: number) =>
  (await t.db.select().from(logEvents).where(and(eq(logEvents.resource, 'invoice_payment'), eq(logEvents.record_id, id))).orderBy(desc(logEvents.id)).limit(1))[0];

let seq = 0;
async function contractWithStudent() {
  const student = await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ñúñez-Øberg', email_address: `zoe.${++seq}.${Date.now()}@example.org` });
  return { student, contract: await createContract(t.db, { student_id: student.id }) };
}
async function numbered(contractId: number, amount: string, values: Partial<typeof invoices.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contractId, year: 1, semester: 0, amount, description: 'Participation fee year 1', planned_date: '2026-03-01', number: `T-${++seq}-${Date.now()}`, invoice_date: '2026-03-05', expiration_date: '2026-04-04', document_type_id: 5, ...values })
    .returning();
  return row!;
}
const { contract: suiteContract } = await contractWithStudent();
const suiteInvoice = await numbered(suiteContract.id, '9999999.00');

crudSuite(t, {
  resource: invoicePaymentResource,
  valid: (n) => ({ invoice_id: suiteInvoice.id, payment_date: `2026-0${1 + (n % 9)}-1${n % 10}`, amount_paid: 10 + n + 0.25, commission: n % 3 }),
  invalid: { body: { commission: -1 }, fields: ['invoice_id', 'payment_date', 'amount_paid', 'commission'] },
  change: { comments: 'Paid in two parts', paid_by_shopify: true, amount_shopify: 12.5 },
  sortBy: ['payment_date', 'amount_paid'],
});

const payment = async (id: number) => (await api('get', `/invoice_payments/${id}`)).body;
const invoiceRow = async (id: number) => (await api('get', `/invoices/${id}`)).body;
async function pay(invoiceId: number, amount: number, extra: Record<string, unknown> = {}) {
  const res = await api('post', '/invoice_payments').send({ invoice_id: invoiceId, payment_date: '2026-03-10', amount_paid: amount, ...extra });
  expect(res.status, res.text).toBe(201);
  return payment(res.body.id);
}
async function update(id: number, changes: Record<string, unknown>, token = user.token) {
  const current = await payment(id);
  const res = await api('put', `/invoice_payments/${id}`, token).set('If-Match', current.edit_timestamp).send({ id, ...changes });
  return res;
}

describe('invoice payments: fields, numbers and net amount', () => {
  it('answers the spec fields with invoice, contract and student, commission 0 and a P-number of the payment year', async () => {
    const { contract, student } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const row = await pay(inv.id, 100, { payment_date: '2019-02-03' });
    expect(Object.keys(row).sort()).toEqual(Object.keys(invoicePaymentResource.schema.shape).sort());
    expect(row).toMatchObject({
      number: 'P2019-00001',
      invoice_id: inv.id,
      invoice: inv.number,
      contract_id: contract.id,
      contract: contract.application_number,
      student_id: student.id,
      student_name: 'Zoë Ñúñez-Øberg',
      commission: 0,
      net_amount: 100,
      paid_by_shopify: false,
      amount_shopify: null,
      invoice_open_amount: 400,
      payment_confirmation_timestamp: null,
      pdf_filename: null,
    });
    expect((await pay(inv.id, 1, { payment_date: '2019-12-31' })).number).toBe('P2019-00002');
  });

  it('computes the net amount in the database, exact for awkward values, and again when either part changes', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '5000.00');
    const a = await pay(inv.id, 0.3, { commission: 0.1 });
    expect(a.net_amount).toBe(0.2);
    const b = await pay(inv.id, 1234.56, { commission: 0.07, paid_by_shopify: true, amount_shopify: 1234.56 });
    expect(b.net_amount).toBe(1234.49);
    const stored = await t.db.select({ net: invoicePayments.net_amount }).from(invoicePayments).where(eq(invoicePayments.id, b.id));
    expect(stored[0]!.net).toBe('1234.49');
    expect((await update(b.id, { commission: 34.56 })).body.net_amount).toBe(1200);
    expect((await update(b.id, { amount_paid: 1000.1 })).body.net_amount).toBe(965.54);
  });

  it('needs the payment date and refuses a net amount sent by the client (400 naming the field)', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '50.00');
    const res = await api('post', '/invoice_payments').send({ invoice_id: inv.id, amount_paid: 5 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['payment_date']);
    const sent = await api('post', '/invoice_payments').send({ invoice_id: inv.id, amount_paid: 5, payment_date: '2026-01-01', net_amount: 99 });
    expect(sent.status).toBe(400);
    expect(Object.keys(sent.body.errors)).toContain('net_amount');
    const unknown = await api('post', '/invoice_payments').send({ invoice_id: 2_000_000_000, amount_paid: 5, payment_date: '2026-01-01' });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['invoice_id']);
    expect(await t.db.select().from(invoicePayments).innerJoin(invoices, eq(invoices.id, invoicePayments.invoice_id)).where(eq(invoices.contract_id, contract.id))).toHaveLength(0);
  });

  it('refuses a commission above the amount paid with 400 naming commission, on create and on an edit of either, and changes nothing', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const COMMISSION = { commission: ['Commission cannot be more than the amount paid'] };
    const created = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: '2026-03-10', amount_paid: 10, commission: 10.01 });
    expect(created.status, created.text).toBe(400);
    expect(created.body.errors).toEqual(COMMISSION);
    // All of it kept by the shop is still a payment: net amount 0.
    const row = await pay(inv.id, 10, { commission: 10 });
    expect(row.net_amount).toBe(0);
    // An edit of one of the two is compared with the other as stored.
    for (const changes of [{ amount_paid: 9.99 }, { commission: 10.01 }, { amount_paid: 5, commission: 6 }]) {
      const res = await update(row.id, changes);
      expect(res.status, JSON.stringify(changes)).toBe(400);
      expect(res.body.errors, JSON.stringify(changes)).toEqual(COMMISSION);
    }
    expect(await payment(row.id)).toMatchObject({ amount_paid: 10, commission: 10, net_amount: 0, edit_timestamp: row.edit_timestamp });
    expect(await t.db.select().from(invoicePayments).where(eq(invoicePayments.invoice_id, inv.id))).toHaveLength(1);
    expect((await update(row.id, { amount_paid: 20, commission: 20 })).body).toMatchObject({ amount_paid: 20, commission: 20, net_amount: 0 });
  });

  it('keeps the commission within the amount paid in the database too (invoice_payments_commission_within_amount_check)', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const values = { number: `PC-${inv.id}`, invoice_id: inv.id, payment_date: '2026-03-10', amount_paid: '10.00' };
    const within = { cause: { constraint: 'invoice_payments_commission_within_amount_check' } };
    await expect(t.db.insert(invoicePayments).values({ ...values, commission: '10.01' })).rejects.toMatchObject(within);
    const [row] = await t.db.insert(invoicePayments).values({ ...values, commission: '10.00' }).returning();
    await expect(t.db.update(invoicePayments).set({ amount_paid: '9.99' }).where(eq(invoicePayments.id, row!.id))).rejects.toMatchObject(within);
  });

  it('refuses a payment date after today (office time zone), or an edit into another year than its number\'s, with 400 naming payment_date; today and past dates are fine', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const today = todayIn(t.ctx.env.APP_TIMEZONE);
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const FUTURE = { payment_date: ['Payment date cannot be in the future'] };
    for (const date of ['2099-12-31', tomorrow]) {
      const res = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: date, amount_paid: 5 });
      expect(res.status, date).toBe(400);
      expect(res.body.errors, date).toEqual(FUTURE);
    }
    const row = await pay(inv.id, 5, { payment_date: today });
    expect(row.payment_date).toBe(today);
    expect((await pay(inv.id, 5, { payment_date: '1999-12-31' })).number).toBe('P1999-00001');
    const edit = await update(row.id, { payment_date: tomorrow });
    expect(edit.status).toBe(400);
    expect(edit.body.errors).toEqual(FUTURE);
    expect(await payment(row.id)).toMatchObject({ payment_date: today, edit_timestamp: row.edit_timestamp });
    const newYear = `${today.slice(0, 4)}-01-01`;
    expect((await update(row.id, { payment_date: newYear })).body).toMatchObject({ payment_date: newYear });
    // The number carries its date's year: a date in another year is refused, naming the field (and changes nothing).
    const otherYear = await update(row.id, { payment_date: '2020-02-29' });
    expect(otherYear.status).toBe(400);
    expect(otherYear.body.errors).toEqual({
      payment_date: [`Payment ID ${row.number} is numbered in ${today.slice(0, 4)}: a payment date in 2020 needs a number of 2020; delete the payment and book it again with its date`],
    });
    expect(await payment(row.id)).toMatchObject({ payment_date: newYear });
    // The refused payments took no number of their year.
    expect((await pay(inv.id, 5, { payment_date: today })).number).toBe(`P${today.slice(0, 4)}-${String(Number(row.number.slice(-5)) + 1).padStart(5, '0')}`);
  });

  it('records every change field by field in the event log', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '80.00');
    const row = await pay(inv.id, 40);
    expect((await update(row.id, { commission: 1.5, comments: 'Card' })).status).toBe(200);
    const event = await lastEventOf(row.id);
    expect(event!.changes).toEqual({ commission: { old: 0, new: 1.5 }, comments: { old: null, new: 'Card' } });
    expect(event!.contract_id).toBe(contract.id);
  });
});

describe('invoice payments: the money follows at once', () => {
  it("changes the invoice's and the contract's paid and open amounts on create, edit and delete", async () => {
    const { contract } = await contractWithStudent();
    const a = await numbered(contract.id, '1000.00');
    const b = await numbered(contract.id, '250.50');
    expect(await contractMoneyOf(t.db, contract.id)).toMatchObject({ invoiced_amount: 1250.5, payed_amount: 0, to_be_payed_amount: 1250.5 });
    const p1 = await pay(a.id, 300.3);
    await pay(b.id, 0.5);
    expect(await invoiceRow(a.id)).toMatchObject({ payed_amount: 300.3, to_be_payed_amount: 699.7 });
    expect(await contractMoneyOf(t.db, contract.id)).toMatchObject({ payed_amount: 300.8, to_be_payed_amount: 949.7 });
    expect((await api('get', `/contracts/${contract.id}`)).body).toMatchObject({ payed_amount: 300.8, to_be_payed_amount: 949.7 });
    expect((await update(p1.id, { amount_paid: 1000 })).status).toBe(200);
    expect(await invoiceRow(a.id)).toMatchObject({ payed_amount: 1000, to_be_payed_amount: 0 });
    expect(await contractMoneyOf(t.db, contract.id)).toMatchObject({ payed_amount: 1000.5, to_be_payed_amount: 250 });
    expect((await api('delete', `/invoice_payments/${p1.id}`)).status).toBe(204);
    expect(await invoiceRow(a.id)).toMatchObject({ payed_amount: 0, to_be_payed_amount: 1000 });
    expect(await contractMoneyOf(t.db, contract.id)).toMatchObject({ payed_amount: 0.5, to_be_payed_amount: 1250 });
  });

  it('refuses a payment on a planned invoice and on a credit note with 409 and the reason', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '100.00');
    const [planned] = await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '10.00', description: 'Planned', planned_date: '2026-03-01', document_reference: 'REF' }).returning();
    const [cn] = await t.db
      .insert(invoices)
      .values({ contract_id: contract.id, year: 1, semester: 0, amount: '10.00', description: 'Credit', number: `CN-${inv.number}`, invoice_date: '2026-03-06', document_type_id: 6, linked_invoice_id: inv.id })
      .returning();
    const onPlanned = await api('post', '/invoice_payments').send({ invoice_id: planned!.id, payment_date: '2026-03-10', amount_paid: 5 });
    expect(onPlanned.status).toBe(409);
    expect(onPlanned.body.message).toMatch(/planned, not numbered/);
    const onCredit = await api('post', '/invoice_payments').send({ invoice_id: cn!.id, payment_date: '2026-03-10', amount_paid: 5 });
    expect(onCredit.status).toBe(409);
    expect(onCredit.body.message).toMatch(/credit note/);
    // The credit note lowers what the invoice owes: 90.00 open.
    expect(await invoiceRow(inv.id)).toMatchObject({ total_amount: 90, to_be_payed_amount: 90 });
  });

  it('refuses an overpayment with 409 naming the open amount, and books it as a credit on the contract when allowed', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '100.00');
    const first = await pay(inv.id, 60);
    const over = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: '2026-03-11', amount_paid: 40.01 });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('open for € 40,00');
    expect(over.body.errors.allow_overpayment).toBeDefined();
    // An edit that pays too much is refused the same way; its own amount counts as open.
    const edit = await update(first.id, { amount_paid: 100.01 });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toContain('open for € 100,00');
    expect((await update(first.id, { amount_paid: 100 })).status).toBe(200);
    // Paid in full, then overpaid: the refusal says so in words, not "open for € 0,00" or "€ -25,00".
    const full = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: '2026-03-11', amount_paid: 25 });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe(`Invoice ${inv.number} is paid in full: a payment of € 25,00 pays it all too much. If you book it anyway, the overpayment becomes a credit on the contract.`);
    await pay(inv.id, 25, { allow_overpayment: true });
    expect(await invoiceRow(inv.id)).toMatchObject({ payed_amount: 125, to_be_payed_amount: -25 });
    expect(await contractMoneyOf(t.db, contract.id)).toMatchObject({ invoiced_amount: 100, payed_amount: 125, to_be_payed_amount: -25 });
    const more = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: '2026-03-12', amount_paid: 10 });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe(`Invoice ${inv.number} is overpaid by € 25,00 already: with a payment of € 10,00 it is overpaid by € 35,00. If you book it anyway, the overpayment becomes a credit on the contract.`);
  });

  it('keeps the invoice from being paid twice over by payments racing each other', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '100.00');
    const results = await Promise.all([1, 2, 3].map(() => api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: '2026-03-10', amount_paid: 60 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await invoiceRow(inv.id)).toMatchObject({ payed_amount: 60, to_be_payed_amount: 40 });
  });
});

describe('invoice payments: overview filters and export', () => {
  it("sorts by the invoice's number both ways, as a join with the invoices orders them (the payment's copy, 0030)", async () => {
    const { contract } = await contractWithStudent();
    const [a, b] = [await numbered(contract.id, '100.00'), await numbered(contract.id, '100.00')];
    // Paid in the other order, so the payments' ids do not follow the invoices' numbers.
    await pay(b.id, 1);
    await pay(a.id, 2);
    await pay(b.id, 3);
    for (const direction of ['asc', 'desc']) {
      const res = await api('get', `/invoice_payments?contract_id=${contract.id}&sort=invoice|${direction}`);
      const expected = await t.db.execute<{ id: number; number: string }>(
        sql.raw(`select p.id, i.number from invoice_payments p join invoices i on i.id = p.invoice_id
          where i.contract_id = ${contract.id} order by i.number ${direction}, p.id ${direction}`),
      );
      expect(res.body.data.map((r: { id: number; invoice: string }) => [r.id, r.invoice])).toEqual(expected.rows.map((r) => [r.id, r.number]));
    }
  });

  it('filters by contract, student, e-mail sent and payment date after, sorted by number by default', async () => {
    const { contract, student } = await contractWithStudent();
    const inv = await numbered(contract.id, '1000.00');
    const early = await pay(inv.id, 1, { payment_date: '2026-01-15' });
    const late = await pay(inv.id, 2, { payment_date: '2026-06-15' });
    await t.db.update(invoicePayments).set({ payment_confirmation_timestamp: new Date() }).where(eq(invoicePayments.id, late.id));
    const ids = async (query: string) => (await api('get', `/invoice_payments?${query}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids(`contract_id=${contract.id}`)).toEqual([early.id, late.id]);
    expect(await ids(`student_id=${student.id}`)).toEqual([early.id, late.id]);
    expect(await ids(`contract_id=${contract.id}&email_sent=true`)).toEqual([late.id]);
    expect(await ids(`contract_id=${contract.id}&email_sent=false`)).toEqual([early.id]);
    expect(await ids(`contract_id=${contract.id}&payment_date_after=2026-03-01`)).toEqual([late.id]);
    const bad = await api('get', '/invoice_payments?payment_date_after=2026-13-01');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['payment_date_after']);
  });

  it("quick filter: the payment's number, its invoice's number, the contract's application number or the student's name, on every page", async () => {
    const student = await createStudent(t.db, { first_name: 'Quirin', last_name: 'Paysucher' });
    const contract = await createContract(t.db, { student_id: student.id });
    const first = await numbered(contract.id, '500.00', { number: 'QF-2098-00001' });
    const second = await numbered(contract.id, '500.00', { number: 'QF-2098-00002' });
    for (const inv of [first, second, first]) await pay(inv.id, 10);
    const other = await numbered((await contractWithStudent()).contract.id, '500.00', { number: 'QF-2098-00003' });
    await pay(other.id, 10);
    const [{ number: paymentNumber }] = (await t.db.select({ number: invoicePayments.number }).from(invoicePayments).where(eq(invoicePayments.invoice_id, other.id))) as [{ number: string }];
    const byNumber = (rows: { id: number }[]) => rows.map((r) => Number(r.id));
    for (const text of ['Paysu', 'quirin pay', 'QF-2098', '2098-00003', contract.application_number, paymentNumber, 'q', 'qf', 'ñ', 'zq']) {
      // What the text means, written plainly: each arm a LIKE, no index in mind.
      const { rows } = await t.db.execute<{ id: number }>(sql`
        select p.id from invoice_payments p join invoices i on i.id = p.invoice_id join contracts c on c.id = i.contract_id
        where p.number ilike ${`%${text}%`} or i.number ilike ${`%${text}%`} or c.application_number ilike ${`%${text}%`}
          or (${sql.join(text.split(' ').map((w) => sql`c.name_key like '%' || f_unaccent(lower(${w})) || '%'`), sql` and `)})
        order by p.number, p.id`);
      const meant = byNumber(rows);
      const all = await api('get', `/invoice_payments?search=${encodeURIComponent(text)}&per_page=200`);
      expect(all.status, all.text).toBe(200);
      expect(byNumber(all.body.data), text).toEqual(meant.slice(0, 200));
      if (meant.length <= 200) expect(all.body.links.pagination, text).toMatchObject({ total: meant.length });
      const page = await api('get', `/invoice_payments?search=${encodeURIComponent(text)}&per_page=2&page=2`);
      expect(byNumber(page.body.data), `${text} page 2`).toEqual(meant.slice(2, 4));
    }
    expect((await api('get', '/invoice_payments?search=Paysu')).body.data).toHaveLength(3);
  });

  it('exports the selection as xlsx with the overview columns, amounts as numbers', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '2000.00');
    const a = await pay(inv.id, 1234.56, { commission: 0.07 });
    const res = await api('post', '/invoice_payments/download_report').send({ filter: { contract_id: contract.id } }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.body as never);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Payment ID', 'Invoice Number', 'Contract', 'Student Name', 'Net Amount', 'Commission', 'Amount Paid', 'Payment Date']));
    const row = sheet.getRow(2);
    expect(row.getCell(header.indexOf('Payment ID') + 1).value).toBe(a.number);
    expect(row.getCell(header.indexOf('Net Amount') + 1).value).toBe(1234.49);
    expect(sheet.rowCount).toBe(2);
  });
});

describe('invoice payments: confirmation PDF and e-mail', () => {
  it('create_pdf is for developers; download_pdf answers the stored PDF; before one exists 409', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '100.00');
    const row = await pay(inv.id, 42.42);
    expect((await api('post', `/invoice_payments/${row.id}/download_pdf`).send({})).status).toBe(409);
    expect((await api('post', `/invoice_payments/${row.id}/create_pdf`, user.token).send({})).status).toBe(403);
    const created = await api('post', `/invoice_payments/${row.id}/create_pdf`, developer.token).send({});
    expect(created.status, created.text).toBe(200);
    expect(created.body.pdf_filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
    const pdf = await api('post', `/invoice_payments/${row.id}/download_pdf`, reader.token).send({}).buffer(true).parse(binaryParser);
    expect(pdf.status).toBe(200);
    const text = pdfText(pdf.body as Buffer);
    expect(text).toContain(inv.number!);
    expect(text).toContain(String(row.number));
    expect(text).toContain('42,42');
  });

  it('the confirmation says what is left on the invoice: still open, or a credit when paid too much (decision 055)', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '2500.00');
    const part = await pay(inv.id, 1000);
    expect((await api('post', `/invoice_payments/${part.id}/create_pdf`, developer.token).send({})).status).toBe(200);
    const partText = pdfText((await api('post', `/invoice_payments/${part.id}/download_pdf`).send({}).buffer(true).parse(binaryParser)).body as Buffer).replace(/\s+/g, ' ');
    expect(partText).toContain('Still open € 1.500,00');
    const beyond = await pay(inv.id, 1550, { allow_overpayment: true });
    const count = smtp.received.length;
    expect((await api('post', `/invoice_payments/${beyond.id}/send_email`).send({})).status).toBe(200);
    const mail = (await smtp.waitForMessages(count + 1))[count]!;
    expect(mail.text).toContain('You paid € 50,00 more than the invoice asked for: it is a credit on your contract.');
    expect(pdfText(mail.attachments[0]!.content).replace(/\s+/g, ' ')).toContain('Credit on your contract € 50,00');
  });

  it('send_email renders the PDF when missing, attaches it, and stamps the confirmation only when the SMTP server accepted it', async () => {
    const { contract, student } = await contractWithStudent();
    const inv = await numbered(contract.id, '2000.00');
    const row = await pay(inv.id, 1234.56, { payment_date: '2026-03-12' });
    const count = smtp.received.length;
    const res = await api('post', `/invoice_payments/${row.id}/send_email`).send({});
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toContain(`<${student.email_address}> queued`);
    const mail = (await smtp.waitForMessages(count + 1))[count]!;
    expect(mail.to).toMatchObject({ value: [{ address: student.email_address }] });
    expect(mail.subject).toContain(inv.number!);
    expect(mail.subject).toContain(String(row.number));
    expect(mail.text).toContain(String(row.number));
    const attachment = mail.attachments[0]!;
    expect(attachment.filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
    const text = pdfText(attachment.content);
    expect(text).toContain(inv.number!);
    expect(text).toContain('1.234,56');
    const stamped = await waitFor('confirmation stamped', () => payment(row.id), (r) => r.payment_confirmation_timestamp !== null);
    expect(stamped.payment_confirmation_user).toBe('Test User');
    expect(stamped.pdf_filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
  });

  it('an edit of amount, commission or payment date drops the stored PDF and the sent confirmation (recorded with the edit): download is a 409 until send_email renders the new one', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '2000.00');
    const row = await pay(inv.id, 100, { payment_date: '2026-03-12' });
    const createPdf = async () => expect((await api('post', `/invoice_payments/${row.id}/create_pdf`, developer.token).send({})).body.pdf_filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
    const sendEmail = async () => {
      const count = smtp.received.length;
      const res = await api('post', `/invoice_payments/${row.id}/send_email`).send({});
      expect(res.status, res.text).toBe(200);
      return pdfText((await smtp.waitForMessages(count + 1))[count]!.attachments[0]!.content);
    };
    const download = () => api('post', `/invoice_payments/${row.id}/download_pdf`).send({});
    await createPdf();
    expect(await sendEmail()).toContain('100,00');
    const stamped = await waitFor('confirmation stamped', () => payment(row.id), (r) => r.payment_confirmation_timestamp !== null);

    const edited = await update(row.id, { amount_paid: 123.45 });
    expect(edited.status, edited.text).toBe(200);
    // The confirmation sent told the student 100,00: it no longer counts as sent (decision 046).
    expect(edited.body).toMatchObject({ amount_paid: 123.45, pdf_filename: null, pdf_timestamp: null, payment_confirmation_timestamp: null, payment_confirmation_user: null });
    const event = await lastEventOf(row.id);
    expect(event!.changes).toEqual({ amount_paid: { old: 100, new: 123.45 } });
    expect(event!.le_message).toBe(
      `Updated Invoice Payment "${row.number}": amount_paid 100 → 123.45. The confirmation sent ${formatDateTime(stamped.payment_confirmation_timestamp, t.ctx.env.APP_TIMEZONE)} showed the old values: Email Sent cleared until the new one is sent`,
    );
    const unsent = await api('get', `/invoice_payments?contract_id=${contract.id}&email_sent=false`);
    expect(unsent.body.data.map((r: { id: number }) => r.id)).toEqual([row.id]);
    const before = await download();
    expect(before.status).toBe(409);
    expect(before.body.message).toBe('No PDF has been created for this payment yet');
    const sent = await sendEmail();
    expect(sent).toContain('123,45');
    expect((await payment(row.id)).pdf_filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
    expect(pdfText((await download().buffer(true).parse(binaryParser)).body as Buffer)).toContain('123,45');

    // A comment keeps the PDF; the commission and the payment date drop it like the amount.
    expect((await update(row.id, { comments: 'Checked' })).body.pdf_filename).toBe(`Payment_Confirmation_${row.number}.pdf`);
    for (const changes of [{ commission: 3.45 }, { payment_date: '2026-03-13' }]) {
      expect((await update(row.id, changes)).body, JSON.stringify(changes)).toMatchObject({ ...changes, pdf_filename: null });
      expect((await download()).status, JSON.stringify(changes)).toBe(409);
      await createPdf();
    }
    expect(pdfText((await download().buffer(true).parse(binaryParser)).body as Buffer)).toContain('13-03-2026');
  });

  it('batch Send Payment Confirmation previews without queuing anything, then queues one mail per payment', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '2000.00');
    const ids = [(await pay(inv.id, 10)).id, (await pay(inv.id, 20)).id];
    const mails = () => t.db.select().from(outbox).where(eq(outbox.resource, 'invoice_payment'));
    const before = (await mails()).length;
    const preview = await api('post', '/invoice_payments/batch/send_email').send({ ids, dry_run: true });
    expect(preview.status, preview.text).toBe(202);
    expect(await waitForRun(t, user.token, preview.body.run_id)).toMatchObject({ status: 'finished', dry_run: true, total: 2, failed: 0, label: 'Send Payment Confirmation' });
    expect((await mails()).length).toBe(before);
    expect((await payment(ids[0]!)).pdf_filename).toBeNull();
    const real = await api('post', '/invoice_payments/batch/send_email').send({ ids });
    expect(await waitForRun(t, user.token, real.body.run_id)).toMatchObject({ status: 'finished', dry_run: false, total: 2, failed: 0 });
    expect((await mails()).length).toBe(before + 2);
  });

  it('a confirmation still waiting in the outbox is not queued again (409 naming it), alone or as a batch row; its delivery is in the payment\'s History', async () => {
    const { contract, student } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const row = await pay(inv.id, 50);
    const mails = () => t.db.select().from(outbox).where(and(eq(outbox.resource, 'invoice_payment'), eq(outbox.record_id, row.id)));
    // The server holds the next message it reads: the earlier tests' mails delivered first.
    await waitFor('no mail waiting', () => t.db.select().from(outbox).where(eq(outbox.status, 'queued')), (rows) => rows.length === 0);
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    expect((await api('post', `/invoice_payments/${row.id}/send_email`).send({})).status).toBe(200);
    await holding;
    const again = await api('post', `/invoice_payments/${row.id}/send_email`).send({});
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(new RegExp(`^The e-mail "Payment ${row.number} received: .+" to ${student.email_address} is already waiting in the outbox`));
    const run = await waitForRun(t, user.token, (await api('post', '/invoice_payments/batch/send_email').send({ ids: [row.id] })).body.run_id);
    expect(run).toMatchObject({ failed: 1 });
    expect(run.rows[0]!.message).toMatch(/^Error for .+: The e-mail ".+" to .+ is already waiting in the outbox/);
    release();
    await waitFor('sent', mails, (rows) => rows.length === 1 && rows[0]!.status === 'sent');
    const events = await api('get', `/logging/?resource=invoice_payment&record_id=${row.id}&eventtype_id=${EVENT_TYPE_IDS.emailSent}`, reader.token);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({ contract_id: contract.id, student_id: student.id, usr_id: user.id });
  });

  it('a confirmation still waiting when its payment is deleted or edited is withdrawn, never sent, and Resend refuses a deleted one (409)', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const { contract, student } = await contractWithStudent();
    const inv = await numbered(contract.id, '500.00');
    const [first, second, wrong, edited] = [await pay(inv.id, 10), await pay(inv.id, 20), await pay(inv.id, 30), await pay(inv.id, 40)];
    await waitFor('no mail waiting', () => t.db.select().from(outbox).where(eq(outbox.status, 'queued')), (rows) => rows.length === 0);
    // Both workers hold a mail at the server, so the third payment's confirmation waits in the outbox.
    const releases: (() => void)[] = [];
    const holding = [0, 1].map(() => {
      let held!: () => void;
      const holds = new Promise<void>((r) => (held = r));
      smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => releases.push(r)) });
      return holds;
    });
    for (const row of [first, second]) expect((await api('post', `/invoice_payments/${row.id}/send_email`).send({})).status).toBe(200);
    await Promise.all(holding);
    for (const row of [wrong, edited]) expect((await api('post', `/invoice_payments/${row.id}/send_email`).send({})).status).toBe(200);
    const [waiting] = await t.db.select().from(outbox).where(and(eq(outbox.resource, 'invoice_payment'), eq(outbox.record_id, wrong.id)));
    expect(waiting).toMatchObject({ status: 'queued', sending_since: null });

    // An edit of what the confirmation shows withdraws it too (decision 046); the edit's event says so.
    expect((await update(edited.id, { amount_paid: 45 })).status).toBe(200);
    const [stale] = await t.db.select().from(outbox).where(and(eq(outbox.resource, 'invoice_payment'), eq(outbox.record_id, edited.id)));
    expect(stale).toMatchObject({ status: 'failed', last_reply: 'Not sent: the payment was edited before the mail went: send the confirmation again' });
    expect((await lastEventOf(edited.id))!.le_message).toBe(
      `Updated Invoice Payment "${edited.number}": amount_paid 40 → 45. E-mail "${stale!.subject}" to ${student.email_address} withdrawn: it showed the old values`,
    );

    // Deleted as it is now (Send Email stamped it since it was booked: the stamp booked is stale, decision 060).
    const shown = (await api('get', `/invoice_payments/${wrong.id}`)).body.edit_timestamp as string;
    expect((await api('delete', `/invoice_payments/${wrong.id}`).set('If-Match', wrong.edit_timestamp)).status).toBe(409);
    const deleted = await api('delete', `/invoice_payments/${wrong.id}`).set('If-Match', shown);
    expect(deleted.status, deleted.text).toBe(204);
    const [withdrawn] = await t.db.select().from(outbox).where(eq(outbox.id, waiting!.id));
    expect(withdrawn).toMatchObject({ status: 'failed', last_reply: `Not sent: Invoice Payment "${wrong.number}" was deleted before the mail went` });
    const events = await t.db.select().from(logEvents).where(and(eq(logEvents.resource, 'invoice_payment'), eq(logEvents.record_id, wrong.id), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.emailFailed)));
    expect(events.map((e) => [e.le_message, e.contract_id, e.student_id])).toEqual([
      [`E-mail "${waiting!.subject}" to ${student.email_address} withdrawn: not sent, the Invoice Payment was deleted`, contract.id, student.id],
    ]);
    const resend = await api('post', `/outbox/${waiting!.id}/resend`, admin.token).send({});
    expect([resend.status, resend.body.message]).toEqual([409, 'This e-mail is about a payment that was deleted: it is not sent again']);

    for (const release of releases) release();
    const mailsOf = (id: number) => t.db.select().from(outbox).where(and(eq(outbox.resource, 'invoice_payment'), eq(outbox.record_id, id)));
    for (const row of [first, second]) await waitFor('sent', () => mailsOf(row.id), (rows) => rows[0]?.status === 'sent');
    await waitFor('no mail waiting', () => t.db.select().from(outbox).where(eq(outbox.status, 'queued')), (rows) => rows.length === 0);
    expect(smtp.received.filter((m) => m.subject?.includes(wrong.number) || m.subject?.includes(edited.number))).toEqual([]);
    expect((await mailsOf(wrong.id))[0]).toMatchObject({ status: 'failed', attempts: 0 });
  });

  it("a contract's mails are found by the contract: about it, its invoice and its payment (decision 045), and only those", async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const { contract } = await contractWithStudent();
    const other = await contractWithStudent();
    // Numbered through Create PDF, so that the invoice has the PDF its mail attaches.
    const inv = await numbered(contract.id, '500.00', { number: null, invoice_date: null, expiration_date: null, document_reference: `MAILS-${contract.id}` });
    const created = await api('post', `/invoices/${inv.id}/create_pdf`).send({});
    expect(created.status, created.text).toBe(200);
    const row = await pay(inv.id, 50);
    const otherRow = await pay((await numbered(other.contract.id, '500.00')).id, 20);
    for (const path of [`/invoice_payments/${row.id}/send_email`, `/invoices/${inv.id}/send_email`, `/contracts/${contract.id}/send_bankinfo_request`, `/invoice_payments/${otherRow.id}/send_email`]) {
      const res = await api('post', path).send({});
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    const res = await api('get', `/outbox?contract_id=${contract.id}&sort=created_timestamp|asc`, admin.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((m: { resource: string; record_id: number; contract_id: number }) => [m.resource, m.record_id, m.contract_id])).toEqual([
      ['invoice_payment', row.id, contract.id],
      ['invoice', inv.id, contract.id],
      ['contract', contract.id, contract.id],
    ]);
    expect((await api('get', '/outbox?contract_id=0', admin.token)).body.errors).toHaveProperty('contract_id');
  });

  it('refuses every write to a reader with 403 and changes nothing', async () => {
    const { contract } = await contractWithStudent();
    const inv = await numbered(contract.id, '100.00');
    const row = await pay(inv.id, 10);
    expect((await api('post', '/invoice_payments', reader.token).send({ invoice_id: inv.id, payment_date: '2026-03-10', amount_paid: 5 })).status).toBe(403);
    expect((await update(row.id, { comments: 'x' }, reader.token)).status).toBe(403);
    expect((await api('delete', `/invoice_payments/${row.id}`, reader.token)).status).toBe(403);
    expect((await api('post', `/invoice_payments/${row.id}/create_pdf`, reader.token).send({})).status).toBe(403);
    expect((await api('post', `/invoice_payments/${row.id}/send_email`, reader.token).send({})).status).toBe(403);
    expect((await api('post', '/invoice_payments/batch/send_email', reader.token).send({ ids: [row.id], dry_run: true })).status).toBe(403);
    expect(await payment(row.id)).toMatchObject({ comments: null, pdf_filename: null, amount_paid: 10 });
    expect(await invoiceRow(inv.id)).toMatchObject({ payed_amount: 10 });
  });
});
