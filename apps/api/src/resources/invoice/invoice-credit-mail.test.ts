import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { creditNoteCommand, EVENT_TYPE_IDS, todayIn } from '@app/contracts';
import { invoices, logEvents, outbox, outboxAttachments, storedFiles, students, templates } from '@app/db';
import { recordTemplateFailure, TemplateRenderFailure } from '../../lib/templates/store.js';
import { templateDefinition } from '../../lib/templates/registry.js';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, createStudent, userWithToken } from '../../test/factories.js';
import { pdfText } from '../../test/files.js';
import { startTestSmtp } from '../../test/smtp.js';
import { waitFor } from '../../test/wait.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';

const t = await setupTestApp({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3', MAIL_TIMEOUT_MS: '5000' });
const smtp = await startTestSmtp();
await startTestWorkers(t);
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
  const dev = await userWithToken(t.app, t.db, 'Developer');
  const res = await api('put', '/config/email/', dev.token).send({ smtp_servername: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_email_address: 'office@example.org' });
  expect(res.status, res.text).toBe(200);
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

async function contractFor() {
  const student = await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ångström-Çelik', email_address: `zoe.${Math.random().toString(36).slice(2)}@example.org` });
  return { student, contract: await createContract(t.db, { student_id: student.id }) };
}

/** A numbered invoice made the real way: planned, then create_pdf. */
async function numbered(contractId: number, values: Partial<typeof invoices.$inferInsert> = {}, invoiceDate?: string) {
  const [p] = await t.db
    .insert(invoices)
    .values({ contract_id: contractId, year: 1, semester: 0, amount: '1000.00', description: 'Participation fee year 1', planned_date: '2026-03-01', document_type_id: 5, document_reference: 'REF', ...values })
    .returning();
  const res = await api('post', `/invoices/${p!.id}/create_pdf`).send(invoiceDate ? { invoice_date: invoiceDate } : {});
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string; edit_timestamp: string };
}
const get = async (id: number) => (await api('get', `/invoices/${id}`)).body;

describe('credit notes (issue 13 point 6)', () => {
  it('copies the invoice, maps the type, numbers CN- + the invoice number (then -2), stores its own PDF and lowers what is open', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { semester: 1, year: 2 });
    const first = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 100.1, description: 'Semester abroad cancelled — Größe' });
    expect(first.status, first.text).toBe(201);
    const cn = await get(first.body.id);
    expect(cn).toMatchObject({
      number: `CN-${inv.number}`,
      contract_id: contract.id,
      year: 2,
      semester: 1,
      document_type_id: 6,
      is_creditnote: true,
      is_locked: true,
      linked_invoice_id: inv.id,
      linked_invoice_number: inv.number,
      amount: 100.1,
      description: 'Semester abroad cancelled — Größe',
      invoice_date: todayIn(t.ctx.env.APP_TIMEZONE),
      pdf_filename: `Credit_Note_CN-${inv.number}.pdf`,
    });
    const second = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 0.01, description: 'Rounding' });
    expect(second.status, second.text).toBe(201);
    expect((await get(second.body.id)).number).toBe(`CN-${inv.number}-2`);

    const after = await get(inv.id);
    expect(after).toMatchObject({ amount: 1000, total_amount: 899.89, to_be_payed_amount: 899.89, credit_note: `CN-${inv.number}, CN-${inv.number}-2` });
    const contractRow = (await api('get', `/contracts/${contract.id}`)).body;
    expect(contractRow).toMatchObject({ invoiced_amount: 899.89, to_be_payed_amount: 899.89 });

    const pdf = await api('post', `/invoices/${first.body.id}/download_pdf`, reader.token).buffer(true).parse(binaryParser);
    expect(pdf.status).toBe(200);
    const text = pdfText(pdf.body as Buffer);
    expect(text).toContain(`CN-${inv.number}`);
    expect(text).toContain('Zoë Ångström-Çelik');
    expect(text).toContain('Semester abroad cancelled — Größe');
    expect(text).toContain('100,10');
    const [file] = await t.db.select({ name: storedFiles.filename }).from(storedFiles).innerJoin(invoices, eq(invoices.pdf_file_id, storedFiles.id)).where(eq(invoices.id, first.body.id));
    expect(file!.name).toBe(`Credit_Note_CN-${inv.number}.pdf`);
    const events = await t.db.select().from(logEvents).where(and(eq(logEvents.resource, 'invoice'), eq(logEvents.record_id, first.body.id)));
    expect(events.map((e) => e.le_message)).toContain(`Created Credit Note CN-${inv.number} over € 100,10 for invoice ${inv.number}`);
  });

  it('maps every invoice type to its credit-note type: 1→2, 3→4, 5→6, 7→8, 9→10', async () => {
    const { contract } = await contractFor();
    for (const type of [1, 3, 5, 7, 9]) {
      const inv = await numbered(contract.id, { document_type_id: type, pro_forma: type === 3 });
      const res = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 1, description: 'x' });
      expect(res.status, res.text).toBe(201);
      expect((await get(res.body.id)).document_type_id).toBe(type + 1);
    }
  });

  it('never credits more than is not yet credited: 409 naming that amount, nothing created', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '50.00' });
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 20, description: 'a' })).status).toBe(201);
    const res = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 30.01, description: 'b' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`The credit note cannot be more than what is not yet credited on invoice ${inv.number}: € 30,00`);
    expect(res.body.message).not.toMatch(/select|numeric|stack/i);
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 30, description: 'c' })).status).toBe(201);
    const none = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 0.01, description: 'd' });
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('€ 0,00');
    const cns = await t.db.select().from(invoices).where(eq(invoices.linked_invoice_id, inv.id));
    expect(cns.map((c) => c.number).sort()).toEqual([`CN-${inv.number}`, `CN-${inv.number}-2`]);
  });

  it('credits a paid invoice (decision 036): what was paid beyond becomes a credit on the contract', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '1000.00' });
    const paid = await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: todayIn(t.ctx.env.APP_TIMEZONE), amount_paid: 1000 });
    expect(paid.status, paid.text).toBe(201);
    expect((await get(inv.id)).to_be_payed_amount).toBe(0);
    const res = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 400, description: 'Second semester not taken' });
    expect(res.status, res.text).toBe(201);
    expect(await get(inv.id)).toMatchObject({ total_amount: 600, payed_amount: 1000, to_be_payed_amount: -400 });
    const c = (await api('get', `/contracts/${contract.id}`)).body;
    expect(c).toMatchObject({ invoiced_amount: 600, payed_amount: 1000, to_be_payed_amount: -400 });
    // The rest can be credited too, and no more.
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 600.01, description: 'x' })).status).toBe(409);
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 600, description: 'Withdrawn' })).status).toBe(201);
    expect((await get(inv.id)).to_be_payed_amount).toBe(-1000);
  });

  it('two credit notes at once over the whole open amount: one is made, the other refused', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '10.00' });
    const answers = await Promise.all([0, 1].map(() => api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 10, description: 'all' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect((await get(inv.id)).to_be_payed_amount).toBe(0);
  });

  it('is refused for a planned invoice or a credit note (409), and names bad or copied fields (400)', async () => {
    const { contract } = await contractFor();
    const [p] = await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '5.00', description: 'p', planned_date: '2026-01-01', document_reference: 'REF' }).returning();
    const planned = await api('post', '/invoices').send({ linked_invoice_id: p!.id, amount: 1, description: 'x' });
    expect(planned.status).toBe(409);
    expect(planned.body.message).toBe('Only a numbered invoice can be credited: create the invoice first');
    const inv = await numbered(contract.id);
    const cn = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 1, description: 'x' });
    const ofCn = await api('post', '/invoices').send({ linked_invoice_id: cn.body.id, amount: 0.5, description: 'x' });
    expect(ofCn.status).toBe(409);
    const bad = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: -1, contract_id: contract.id, year: 2 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['amount', 'contract_id', 'description', 'year']);
    const unknown = await api('post', '/invoices').send({ linked_invoice_id: 99999999, amount: 1, description: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.linked_invoice_id).toEqual(['Invoice is not known']);
    expect((await api('post', '/invoices', reader.token).send({ linked_invoice_id: inv.id, amount: 1, description: 'x' })).status).toBe(403);
  });

  it('a credit note is locked: frozen fields refused, delete refused', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id);
    const made = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 1, description: 'x' });
    const cn = await get(made.body.id);
    const put = await api('put', `/invoices/${cn.id}`).set('If-Match', cn.edit_timestamp).send({ id: cn.id, amount: 2 });
    expect(put.status).toBe(409);
    expect((await api('delete', `/invoices/${cn.id}`)).status).toBe(409);
    const comment = await api('put', `/invoices/${cn.id}`).set('If-Match', cn.edit_timestamp).send({ id: cn.id, comments: 'ok' });
    expect(comment.status, comment.text).toBe(200);
  });

  it('Export Open Invoices leaves out an invoice its credit notes closed, and shows what is still open of the others', async () => {
    const { contract } = await contractFor();
    const closed = await numbered(contract.id, { amount: '20.00' });
    const partly = await numbered(contract.id, { amount: '30.00' });
    expect((await api('post', '/invoices').send({ linked_invoice_id: closed.id, amount: 20, description: 'all' })).status).toBe(201);
    expect((await api('post', '/invoices').send({ linked_invoice_id: partly.id, amount: 0.3, description: 'some' })).status).toBe(201);
    const res = await api('post', '/invoices/download_report_open', reader.token).send({ filter: { contract_id: contract.id } }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.body as never);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows).toHaveLength(2);
    const header = rows[0] as string[];
    expect(rows[1]![header.indexOf('Invoice Number')]).toBe(partly.number);
    expect(rows[1]![header.indexOf('Amount to be paid')]).toBe(29.7);
    expect(rows[1]![header.indexOf('Credit Note')]).toBe(`CN-${partly.number}`);
  });

  it('names the command: Cancel Registration for a pro-forma non-invoice type, Create Credit Note otherwise', () => {
    expect(creditNoteCommand({ pro_forma: true, document_type_id: 3 })).toBe('Cancel Registration');
    expect(creditNoteCommand({ pro_forma: true, document_type_id: 1 })).toBe('Create Credit Note');
    expect(creditNoteCommand({ pro_forma: false, document_type_id: 3 })).toBe('Create Credit Note');
    expect(creditNoteCommand({ pro_forma: false, document_type_id: 5 })).toBe('Create Credit Note');
  });
});

const mailsOf = (invoiceId: number) => t.db.select().from(outbox).where(and(eq(outbox.resource, 'invoice'), eq(outbox.record_id, invoiceId))).orderBy(outbox.id);
const row = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

describe('invoice e-mail and reminder (issue 13 point 7)', () => {
  it('queues the invoice mail with its stored PDF attached; email_timestamp is set only once the server accepted it', async () => {
    const { student, contract } = await contractFor();
    const inv = await numbered(contract.id, {}, '2030-01-10');
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    const count = smtp.received.length;
    const res = await api('post', `/invoices/${inv.id}/send_email`).send({ reminder: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(`E-mail "Invoice ${inv.number} for contract ${contract.application_number}" to Zoë Ångström-Çelik <${student.email_address}> queued`);
    await holding;
    expect((await row(inv.id)).email_timestamp).toBeNull();
    release();
    const [mail] = await waitFor('the outbox row', () => mailsOf(inv.id), (rows) => rows.length === 1 && rows[0]!.status === 'sent');
    await smtp.waitForMessages(count + 1);
    const received = smtp.received.at(-1)!;
    expect(received.subject).toBe(`Invoice ${inv.number} for contract ${contract.application_number}`);
    expect(received.text).toContain('Dear Zoë Ångström-Çelik,');
    expect(received.attachments).toHaveLength(1);
    const stored = (await t.db.select().from(storedFiles).where(eq(storedFiles.id, (await row(inv.id)).pdf_file_id!)))[0]!;
    expect(received.attachments[0]!.filename).toBe(`Invoice_${inv.number}.pdf`);
    expect(Buffer.compare(received.attachments[0]!.content, stored.content as Buffer)).toBe(0);
    const after = await waitFor('the timestamp', () => row(inv.id), (r) => r.email_timestamp !== null);
    expect(after.email_timestamp!.getTime()).toBe(mail!.sent_timestamp!.getTime());
    expect(after.email_user).toBe(user.id);
    expect(after.email_reminder_timestamp).toBeNull();
    expect((await get(inv.id)).email_timestamp).not.toBeNull();
  });

  it("attaches the invoice's own stored PDF, not a copy of it: a mail adds no stored file (decision 065)", async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, {}, '2030-01-11');
    const files = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(storedFiles))[0]!.n;
    const before = await files();
    const res = await api('post', `/invoices/${inv.id}/send_email`).send({ reminder: false });
    expect(res.status, res.text).toBe(200);
    const [mail] = await mailsOf(inv.id);
    const attached = await t.db.select().from(outboxAttachments).where(eq(outboxAttachments.outbox_id, mail!.id));
    expect(attached.map((a) => a.file_id)).toEqual([(await row(inv.id)).pdf_file_id]);
    expect(await files()).toBe(before);
    await waitFor('the mail sent', () => mailsOf(inv.id), (rows) => rows[0]!.status === 'sent');
  });

  it('two sends at once queue the mail once; the second is told it is waiting in the outbox', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id);
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    const answers = await Promise.all([0, 1].map(() => api('post', `/invoices/${inv.id}/send_email`).send({})));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toMatch(
      new RegExp(`^The e-mail "Invoice ${inv.number} for contract .+" to .+ is already waiting in the outbox: it can be sent again once it went or failed$`),
    );
    await holding;
    release();
    await waitFor('the mail sent', () => mailsOf(inv.id), (rows) => rows.length === 1 && rows[0]!.status === 'sent');
    // Once it went, the invoice may be sent again.
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({})).status).toBe(200);
    expect(await mailsOf(inv.id)).toHaveLength(2);
    // Delivered before the next test counts what the SMTP server received.
    await waitFor('the second mail sent', () => mailsOf(inv.id), (rows) => rows.every((r) => r.status === 'sent'));
  });

  it('sends a reminder only for an expired invoice of type 1 (else 409), stamping email_reminder_timestamp', async () => {
    const { contract } = await contractFor();
    const fresh = await numbered(contract.id, { document_type_id: 1 });
    const notExpired = await api('post', `/invoices/${fresh.id}/send_email`).send({ reminder: true });
    expect(notExpired.status).toBe(409);
    expect(notExpired.body.message).toBe(`Invoice ${fresh.number} is not expired`);
    const oldFee = await numbered(contract.id, { document_type_id: 5 }, '2020-01-10');
    const wrongType = await api('post', `/invoices/${oldFee.id}/send_email`).send({ reminder: true });
    expect(wrongType.status).toBe(409);
    expect(wrongType.body.message).toBe('A reminder is sent only for an invoice of document type 1 (Invoice)');
    const expired = await numbered(contract.id, { document_type_id: 1, amount: '77.70' }, '2020-02-10');
    const count = smtp.received.length;
    const res = await api('post', `/invoices/${expired.id}/send_email`).send({ reminder: true });
    expect(res.status, res.text).toBe(200);
    await smtp.waitForMessages(count + 1);
    const received = smtp.received.at(-1)!;
    expect(received.subject).toBe(`Reminder: invoice ${expired.number} is still open`);
    expect(received.text).toContain('€ 77,70');
    const after = await waitFor('the reminder timestamp', () => row(expired.id), (r) => r.email_reminder_timestamp !== null);
    expect(after.email_timestamp).toBeNull();
    expect(await mailsOf(fresh.id)).toEqual([]);
    expect(await mailsOf(oldFee.id)).toEqual([]);
  });

  it("sends no reminder when the contract's credit covers the expired invoice (another invoice paid, then credited)", async () => {
    const { contract } = await contractFor();
    const expired = await numbered(contract.id, { document_type_id: 1, amount: '300.00' }, '2020-02-10');
    const paid = await numbered(contract.id, { document_type_id: 5, amount: '500.00' });
    expect((await api('post', '/invoice_payments').send({ invoice_id: paid.id, payment_date: '2026-01-10', amount_paid: 500 })).status).toBe(201);
    expect((await api('post', '/invoices').send({ linked_invoice_id: paid.id, amount: 500, description: 'Withdrawn' })).status).toBe(201);
    const res = await api('post', `/invoices/${expired.id}/send_email`).send({ reminder: true });
    expect([res.status, res.body.message]).toEqual([409, `Contract ${contract.application_number} owes nothing: its credit covers invoice ${expired.number}`]);
    expect(await mailsOf(expired.id)).toEqual([]);
  });

  it('is refused for a planned invoice (409) and for a Reader (403); a credit note can be mailed', async () => {
    const { contract } = await contractFor();
    const [p] = await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '5.00', description: 'p', planned_date: '2026-01-01', document_reference: 'REF' }).returning();
    const planned = await api('post', `/invoices/${p!.id}/send_email`).send({});
    expect(planned.status).toBe(409);
    const inv = await numbered(contract.id);
    expect((await api('post', `/invoices/${inv.id}/send_email`, reader.token).send({})).status).toBe(403);
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({ reminder: 'yes' })).status).toBe(400);
    const cn = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 3, description: 'credit' });
    const count = smtp.received.length;
    const res = await api('post', `/invoices/${cn.body.id}/send_email`).send({});
    expect(res.status, res.text).toBe(200);
    await smtp.waitForMessages(count + 1);
    expect(smtp.received.at(-1)!.attachments[0]!.filename).toBe(`Credit_Note_CN-${inv.number}.pdf`);
  });

  it('sends no invoice e-mail for an invoice credited in full: its PDF would ask for a payment that was cancelled', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '80.00' });
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 80, description: 'Cancelled' })).status).toBe(201);
    const res = await api('post', `/invoices/${inv.id}/send_email`).send({});
    expect([res.status, res.body.message]).toEqual([409, `Invoice ${inv.number} is credited in full`]);
    expect(await mailsOf(inv.id)).toEqual([]);
  });

  it('as a batch: a dry run queues nothing; Send Email and Send Email Reminder run with their labels and refuse rows with the reason', async () => {
    const { contract } = await contractFor();
    const a = await numbered(contract.id, { document_type_id: 1 }, '2020-03-01');
    const b = await numbered(contract.id, { document_type_id: 5 }, '2020-03-01');
    const datas = smtp.dataCount();
    const dry = await api('post', '/invoices/batch/send_email').send({ ids: [a.id, b.id], reminder: true, dry_run: true });
    expect(dry.status, dry.text).toBe(202);
    const dryRun = await waitForRun(t, user.token, dry.body.run_id);
    expect(dryRun).toMatchObject({ status: 'finished', dry_run: true, total: 2, failed: 1, label: 'Send Email Reminder' });
    expect(await mailsOf(a.id)).toEqual([]);
    const run = await waitForRun(t, user.token, (await api('post', '/invoices/batch/send_email').send({ ids: [a.id, b.id], reminder: true })).body.run_id);
    expect(run).toMatchObject({ status: 'finished', total: 2, failed: 1, label: 'Send Email Reminder' });
    expect(run.rows.find((r) => !r.ok)!.message).toBe(`Error for ${b.number} REF: A reminder is sent only for an invoice of document type 1 (Invoice)`);
    await waitFor('the reminder', () => row(a.id), (r) => r.email_reminder_timestamp !== null);
    const plain = await waitForRun(t, user.token, (await api('post', '/invoices/batch/send_email').send({ ids: [a.id, b.id] })).body.run_id);
    expect(plain).toMatchObject({ status: 'finished', total: 2, failed: 0, label: 'Send Email' });
    await waitFor('both stamped', () => Promise.all([row(a.id), row(b.id)]), (rows) => rows.every((r) => r.email_timestamp !== null));
    expect(smtp.dataCount()).toBe(datas + 3);
    expect((await api('post', '/invoices/batch/send_email', reader.token).send({ ids: [a.id] })).status).toBe(403);
  });
});

describe('what the invoice and credit-note mails say (decision 039)', () => {
  /** The last mail of the invoice as the SMTP server received it. */
  const lastMail = async (id: number) => {
    const rows = await waitFor('the mail sent', () => mailsOf(id), (r) => r.length > 0 && r.at(-1)!.status === 'sent');
    const messageId = rows.at(-1)!.message_id;
    return waitFor('the mail received', async () => smtp.received.find((m) => m.messageId === messageId), (m) => m !== undefined).then((m) => m!);
  };

  it("a credit note's mail credits the amount on its invoice, with no due date and no request to pay", async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '1000.00' }, '2030-01-10');
    const cn = await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 400, description: 'Semester abroad shortened' });
    const res = await api('post', `/invoices/${cn.body.id}/send_email`).send({});
    expect(res.status, res.text).toBe(200);
    const received = await lastMail(cn.body.id);
    expect(received.subject).toBe(`Credit note CN-${inv.number} for contract ${contract.application_number}`);
    expect(received.text).toContain(`we credit you € 400,00 on invoice ${inv.number} (Semester abroad shortened)`);
    expect(received.text).toContain(`After this credit, € 600,00 of invoice ${inv.number} is still open.`);
    expect(received.text).toContain('You do not need to pay anything for this credit note.');
    expect(received.text).not.toMatch(/transfer|€ -|09-02-2030/i);
    expect(received.attachments.map((a) => a.filename)).toEqual([`Credit_Note_CN-${inv.number}.pdf`]);
  });

  it('the invoice mail asks for what is still open after credits and payments, by the due date, and agrees with its PDF', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '1000.00' }, '2030-01-10');
    expect((await api('post', '/invoices').send({ linked_invoice_id: inv.id, amount: 100, description: 'Discount' })).status).toBe(201);
    expect((await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: todayIn(t.ctx.env.APP_TIMEZONE), amount_paid: 300 })).status).toBe(201);
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({})).status).toBe(200);
    const received = await lastMail(inv.id);
    expect(received.text).toContain(`please find attached invoice ${inv.number} of 10-01-2030 over € 1.000,00`);
    expect(received.text).toContain(`Credited (CN-${inv.number}): € 100,00`);
    expect(received.text).toContain('Paid so far: € 300,00');
    expect(received.text).toContain('Still open: € 600,00, by 09-02-2030.');
    expect(received.text).toContain('Please transfer € 600,00 by 09-02-2030');
    expect(received.text).not.toContain('€ 900,00');
    // The PDF's total is the invoice's amount, as the mail says it.
    expect(pdfText(received.attachments[0]!.content)).toContain('€ 1.000,00');
  });

  it('an invoice paid in full gets a copy that thanks, and asks for nothing', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { amount: '200.00' }, '2030-01-10');
    expect((await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: todayIn(t.ctx.env.APP_TIMEZONE), amount_paid: 200 })).status).toBe(201);
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({})).status).toBe(200);
    const received = await lastMail(inv.id);
    expect(received.text).toContain('This invoice is paid in full, thank you.');
    expect(received.text).toContain('Paid so far: € 200,00');
    expect(received.text).not.toMatch(/transfer|Still open/);
  });

  it('the reminder asks for the same open amount, its payments counted', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id, { document_type_id: 1, amount: '300.00' }, '2020-02-10');
    expect((await api('post', '/invoice_payments').send({ invoice_id: inv.id, payment_date: todayIn(t.ctx.env.APP_TIMEZONE), amount_paid: 120.5 })).status).toBe(201);
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({ reminder: true })).status).toBe(200);
    const received = await lastMail(inv.id);
    expect(received.text).toContain('is still open: € 179,50 were due on 11-03-2020');
    expect(received.text).toContain('Paid so far: € 120,50');
    expect(received.text).toContain('Please transfer € 179,50');
  });

  it("a failed invoice mail is in the invoice's History, linked to its contract and student", async () => {
    const { student, contract } = await contractFor();
    const inv = await numbered(contract.id);
    await waitFor('no mail waiting', () => t.db.select().from(outbox).where(eq(outbox.status, 'queued')), (rows) => rows.length === 0);
    smtp.next.push({ kind: 'refuse', code: 550, message: 'No such user' });
    expect((await api('post', `/invoices/${inv.id}/send_email`).send({})).status).toBe(200);
    await waitFor('failed', () => mailsOf(inv.id), (rows) => rows[0]?.status === 'failed');
    const history = await api('get', `/logging/?resource=invoice&record_id=${inv.id}&eventtype_id=${EVENT_TYPE_IDS.emailFailed}`, reader.token);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ contract_id: contract.id, student_id: student.id, usr_id: user.id });
    expect(history.body.data[0].le_message).toMatch(/failed: .*550 No such user/);
  });
});

describe('link registration fee (issue 13 point 8)', () => {
  it("links a numbered pro-forma registration fee of the same student; shown as linked_invoice_number; the student's registration_fee_payed follows", async () => {
    const { student, contract } = await contractFor();
    const fee = await numbered(contract.id, { document_type_id: 3, pro_forma: true, amount: '150.00' });
    const inv = await numbered(contract.id, { document_type_id: 1 });
    expect((await t.db.select().from(students).where(eq(students.id, student.id)))[0]!.registration_fee_payed).toBe(false);
    const res = await api('post', `/invoices/${inv.id}/link_registration_id`).send({ registration_fee_id: fee.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ linked_invoice_id: fee.id, linked_invoice_number: fee.number });
    expect((await t.db.select().from(students).where(eq(students.id, student.id)))[0]!.registration_fee_payed).toBe(true);
    // A link is not a credit: the invoice's own figures stay.
    expect((await get(inv.id)).to_be_payed_amount).toBe(1000);
  });

  it('refuses what is not a numbered pro-forma registration fee of that student (409), an unknown id or a missing one (400), a Reader (403)', async () => {
    const { contract } = await contractFor();
    const other = await contractFor();
    const inv = await numbered(contract.id, { document_type_id: 1 });
    const notFee = await numbered(contract.id, { document_type_id: 5 });
    const foreign = await numbered(other.contract.id, { document_type_id: 3, pro_forma: true });
    expect((await api('post', `/invoices/${inv.id}/link_registration_id`).send({ registration_fee_id: notFee.id })).status).toBe(409);
    const f = await api('post', `/invoices/${inv.id}/link_registration_id`).send({ registration_fee_id: foreign.id });
    expect(f.status).toBe(409);
    expect(f.body.message).toBe(`Registration fee ${foreign.number} belongs to another student`);
    const missing = await api('post', `/invoices/${inv.id}/link_registration_id`).send({});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['registration_fee_id']);
    expect((await api('post', `/invoices/${inv.id}/link_registration_id`).send({ registration_fee_id: 99999999 })).status).toBe(400);
    expect((await api('post', `/invoices/${inv.id}/link_registration_id`, reader.token).send({ registration_fee_id: foreign.id })).status).toBe(403);
    expect((await row(inv.id)).linked_invoice_id).toBeNull();
  });
});

const failuresLogged = () =>
  t.db.select().from(logEvents).where(eq(logEvents.eventtype_id, EVENT_TYPE_IDS.templateFailed)).orderBy(desc(logEvents.id));

describe('failures of create_pdf and send_email (issue 18 point 4)', () => {
  it('a template that does not render: 500 saying which template, no internals, nothing numbered or queued', async () => {
    const { contract } = await contractFor();
    const inv = await numbered(contract.id);
    const [p] = await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '5.00', description: 'p', planned_date: '2026-01-01', document_reference: 'REF' }).returning();
    const broken = 'title: {% if %}\n--- intro ---\nx';
    await t.db.insert(templates).values([
      { internalname: 'invoice_pdf', content: broken, filename: 'invoice_pdf.liquid' },
      { internalname: 'invoice_email', content: 'subject: {{ invoice.number | nosuchfilter: }\n--- text ---\n{% for %}', filename: 'invoice_email.liquid' },
    ]);
    try {
      const pdf = await api('post', `/invoices/${p!.id}/create_pdf`).send({});
      expect(pdf.status).toBe(500);
      expect(pdf.body.message).toMatch(/^Invoice \(PDF\): the uploaded template invoice_pdf does not render \(.+\); check it on the Configuration screen$/);
      expect(pdf.text).not.toMatch(/at .+\.(ts|js):\d+|select |stack/i);
      expect((await row(p!.id)).number).toBeNull();
      const mail = await api('post', `/invoices/${inv.id}/send_email`).send({});
      expect(mail.status).toBe(500);
      expect(mail.body.message).toMatch(/^E-mail: invoice: the uploaded template invoice_email does not render \(.+\); check it on the Configuration screen$/);
      expect(mail.text).not.toMatch(/at .+\.(ts|js):\d+|select |stack/i);
      expect(await mailsOf(inv.id)).toEqual([]);
      // The Administrators learn of it from the event log (the request's own transaction was rolled back), once a
      // minute per template.
      await expect.poll(async () => (await failuresLogged()).map((e) => e.le_message)).toEqual([
        expect.stringMatching(/^E-mail: invoice: the uploaded template invoice_email does not render .* — while POST \/api\/v1\.0\/invoices\/\d+\/send_email$/),
        expect.stringMatching(/^Invoice \(PDF\): the uploaded template invoice_pdf does not render .* — while POST \/api\/v1\.0\/invoices\/\d+\/create_pdf$/),
      ]);
      expect((await api('post', `/invoices/${p!.id}/create_pdf`).send({})).status).toBe(500);
      expect(await failuresLogged()).toHaveLength(2);
    } finally {
      await t.db.delete(templates).where(inArray(templates.internalname, ['invoice_pdf', 'invoice_email']));
    }
  });

  it('a template failure is logged once a minute by what the log holds, whichever process logged it', async () => {
    const definition = templateDefinition('refund_request_email')!;
    const failure = new TemplateRenderFailure(definition, 'E-mail: refund: does not render');
    const logged = async () => (await failuresLogged()).filter((e) => e.record_id === definition.id);
    // Another process (a worker) logged it a moment ago: this one keeps to the same minute.
    await t.db.insert(logEvents).values({ eventtype_id: EVENT_TYPE_IDS.templateFailed, le_message: 'logged by a worker', resource: 'template', record_id: definition.id });
    await recordTemplateFailure(t.db, failure, null, 'sending a refund request');
    expect((await logged()).map((e) => e.le_message)).toEqual(['logged by a worker']);
    // A minute later it is logged again, once.
    await t.db.update(logEvents).set({ le_time: sql`now() - interval '61 seconds'` }).where(and(eq(logEvents.resource, 'template'), eq(logEvents.record_id, definition.id)));
    await recordTemplateFailure(t.db, failure, null, 'sending a refund request');
    await recordTemplateFailure(t.db, failure, null, 'sending a refund request');
    expect((await logged()).map((e) => e.le_message)).toEqual(['E-mail: refund: does not render — while sending a refund request', 'logged by a worker']);
  });
});
