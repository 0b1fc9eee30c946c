import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { EVENT_TYPE_IDS, ROLES, type RoleName } from '@app/contracts';
import { contracts, emailSettings, invoicePayments, invoices, outbox, students, templates } from '@app/db';
import { NO_MAIL_SETTINGS } from '../../lib/mail/settings.js';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';
import { startTestSmtp } from '../../test/smtp.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { waitFor } from '../../test/wait.js';

const t = await setupTestApp({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3', MAIL_TIMEOUT_MS: '5000' });
const smtp = await startTestSmtp();
await startTestWorkers(t);

const tokens = {} as Record<RoleName, string>;
const userIds = {} as Record<RoleName, number>;
beforeAll(async () => {
  for (const { name } of ROLES) {
    const u = await userWithToken(t.app, t.db, name);
    tokens[name] = u.token;
    userIds[name] = u.id;
  }
  const res = await api('put', '/config/email/', tokens.Developer).send({
    smtp_servername: '127.0.0.1',
    smtp_port: smtp.port,
    smtp_security: 'none',
    from_email_address: 'office@example.org',
  });
  expect(res.status, res.text).toBe(200);
});

const api = (method: 'get' | 'post' | 'put', path: string, token: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const mailsOf = (contractId: number) => t.db.select().from(outbox).where(and(eq(outbox.resource, 'contract'), eq(outbox.record_id, contractId))).orderBy(outbox.id);
const contractRow = async (id: number) => (await t.db.select().from(contracts).where(eq(contracts.id, id)))[0]!;
const studentRow = async (id: number) => (await t.db.select().from(students).where(eq(students.id, id)))[0]!;

async function contractFor(values: Partial<typeof students.$inferInsert> = {}, contract: Partial<typeof contracts.$inferInsert> = {}) {
  const student = await createStudent(t.db, { first_name: 'Łukasz', last_name: 'Wiśniewski', email_address: `lukasz.${Math.random().toString(36).slice(2)}@example.org`, ...values });
  return { student, contract: await createContract(t.db, { student_id: student.id, ...contract }) };
}

/** A numbered invoice of the contract (issue 14: the mails show what is invoiced, paid and open). */
async function numberedInvoice(contractId: number, amount: string, documentTypeId = 5) {
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contractId, year: 1, semester: 0, amount, description: 'Participation fee year 1', number: `M-${contractId}-${documentTypeId}`, invoice_date: '2026-01-05', expiration_date: '2026-02-04', document_type_id: documentTypeId })
    .returning();
  return row!;
}

describe('send bank info request', () => {
  it("delivers once to the student with the name intact, and sets the contract's and the student's timestamps only after acceptance", async () => {
    const { student, contract } = await contractFor();
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    const count = smtp.received.length;

    const res = await api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({});
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toContain(`to Łukasz Wiśniewski <${student.email_address}> queued`);

    await holding;
    // The server holds its reply to DATA: nothing is stamped yet.
    expect((await contractRow(contract.id)).bankinfo_emailrequest_timestamp).toBeNull();
    expect((await studentRow(student.id)).bankinfo_request_timestamp).toBeNull();
    release();

    const [mail] = await waitFor('the outbox row', () => mailsOf(contract.id), (rows) => rows.length === 1 && rows[0]!.status !== 'queued');
    expect(mail).toMatchObject({ status: 'sent', recipient: student.email_address, recipient_name: 'Łukasz Wiśniewski', subject: `Your bank details for contract ${contract.application_number}` });
    await smtp.waitForMessages(count + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(count + 1);
    const received = smtp.received.at(-1)!;
    expect(received.subject).toBe(`Your bank details for contract ${contract.application_number}`);
    expect(received.text).toContain('Dear Łukasz Wiśniewski,');
    // It asks for what a transfer to the account needs: the bank, a reference the bank wants, and a holder who is
    // someone else with the holder's address (the bank information import reads each of these, decision 034).
    expect(received.text).toContain('the reference your bank needs on each transfer');
    expect(received.text).toContain("the account holder's name, address, postal code, city and country");
    expect((received.to as { value: { address?: string; name: string }[] }).value).toEqual([{ address: student.email_address, name: 'Łukasz Wiśniewski' }]);

    expect((await contractRow(contract.id)).bankinfo_emailrequest_timestamp?.getTime()).toBe(mail!.sent_timestamp!.getTime());
    const after = await studentRow(student.id);
    expect(after.bankinfo_request_timestamp?.getTime()).toBe(mail!.sent_timestamp!.getTime());
    expect(after.bankinfo_request_user).toBe(userIds.User);
  });

  it('is refused with the reason for an inactive contract or a student without an e-mail address, queueing nothing', async () => {
    const { contract: inactive } = await contractFor({}, { active: false });
    const { contract: noMail } = await contractFor({ email_address: '' });
    const a = await api('post', `/contracts/${inactive.id}/send_bankinfo_request`, tokens.User).send({});
    expect(a.status).toBe(409);
    expect(a.body.message).toBe('The contract is not active');
    const b = await api('post', `/contracts/${noMail.id}/send_bankinfo_request`, tokens.User).send({});
    expect(b.status).toBe(409);
    expect(b.body.message).toBe('The student has no e-mail address');
    expect(await mailsOf(inactive.id)).toEqual([]);
    expect(await mailsOf(noMail.id)).toEqual([]);
  });

  it('as a batch over three contracts, one student without an e-mail address: 2 ok and an error line naming the contract', async () => {
    const one = await contractFor();
    const two = await contractFor();
    const none = await contractFor({ email_address: '  ' });
    const count = smtp.received.length;
    const res = await api('post', '/contracts/batch/send_bankinfo_request', tokens.User).send({ ids: [one.contract.id, two.contract.id, none.contract.id] });
    expect(res.status, res.text).toBe(202);
    const run = await waitForRun(t, tokens.User, res.body.run_id);
    expect(run).toMatchObject({ status: 'finished', total: 3, done: 3, failed: 1, label: 'Email bank info request', dry_run: false });
    expect(run.rows.filter((r) => r.ok).map((r) => r.id).sort()).toEqual([one.contract.id, two.contract.id].sort());
    expect(run.rows.find((r) => !r.ok)!.message).toBe(`Error for ${none.contract.application_number}: The student has no e-mail address`);
    await smtp.waitForMessages(count + 2);
    const recipients = smtp.received.slice(count).map((m) => (m.to as { value: { address?: string }[] }).value[0]!.address);
    expect(recipients.sort()).toEqual([one.student.email_address, two.student.email_address].sort());
    for (const { contract } of [one, two]) {
      await waitFor('the timestamp', () => contractRow(contract.id), (r) => r.bankinfo_emailrequest_timestamp !== null);
    }
    expect(await mailsOf(none.contract.id)).toEqual([]);
    expect((await contractRow(none.contract.id)).bankinfo_emailrequest_timestamp).toBeNull();
  });

  it('as a dry run shows who would get what and who is skipped and why, and sends and queues nothing', async () => {
    const one = await contractFor();
    const inactive = await contractFor({}, { active: false });
    const datas = smtp.dataCount();
    const res = await api('post', '/contracts/batch/send_bankinfo_request', tokens.User).send({ ids: [one.contract.id, inactive.contract.id], dry_run: true });
    expect(res.status, res.text).toBe(202);
    const run = await waitForRun(t, tokens.User, res.body.run_id);
    expect(run).toMatchObject({ status: 'finished', dry_run: true, total: 2, failed: 1 });
    expect(run.rows.find((r) => r.ok)!.message).toBe(
      `E-mail "Your bank details for contract ${one.contract.application_number}" to Łukasz Wiśniewski <${one.student.email_address}> queued`,
    );
    expect(run.rows.find((r) => !r.ok)!.message).toBe(`Error for ${inactive.contract.application_number}: The contract is not active`);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.dataCount()).toBe(datas);
    expect(await t.db.select().from(outbox).where(inArray(outbox.record_id, [one.contract.id, inactive.contract.id]))).toEqual([]);
    expect((await contractRow(one.contract.id)).bankinfo_emailrequest_timestamp).toBeNull();
  });
});

describe('send PF status', () => {
  it('queues the participation-fee status and sets pf_status_email_timestamp once accepted; the batch is "Send PF Status"', async () => {
    const { student, contract } = await contractFor();
    const pf = await numberedInvoice(contract.id, '1234.56');
    await numberedInvoice(contract.id, '99.00', 7);
    await t.db.insert(invoicePayments).values({ number: `P-M-${contract.id}`, invoice_id: pf.id, payment_date: '2026-01-20', amount_paid: '234.56' });
    const count = smtp.received.length;
    const res = await api('post', `/contracts/${contract.id}/send_pf_status`, tokens.User).send({});
    expect(res.status, res.text).toBe(200);
    await smtp.waitForMessages(count + 1);
    const received = smtp.received.at(-1)!;
    expect(received.subject).toBe(`Participation fee status of contract ${contract.application_number}`);
    expect(received.text).toContain('Dear Łukasz Wiśniewski,');
    // Only the participation fee, with its payment: invoiced 1.234,56, paid 234,56, open 1.000,00.
    expect(received.text).toContain(`- ${pf.number} of 05-01-2026: € 1.234,56, open € 1.000,00`);
    expect(received.text).toContain('Paid: € 234,56');
    expect(received.text).toContain('Open: € 1.000,00');
    expect(received.text).not.toContain(`M-${contract.id}-7`);
    const stamped = await waitFor('pf_status_email_timestamp', () => contractRow(contract.id), (r) => r.pf_status_email_timestamp !== null);
    const [mail] = await mailsOf(contract.id);
    expect(mail).toMatchObject({ status: 'sent', recipient: student.email_address });
    expect(stamped.pf_status_email_timestamp!.getTime()).toBe(mail!.sent_timestamp!.getTime());
    // The bank-info timestamps are the bank-info request's alone.
    expect(stamped.bankinfo_emailrequest_timestamp).toBeNull();

    const other = await contractFor();
    await numberedInvoice(other.contract.id, '500.00');
    const batch = await api('post', '/contracts/batch/send_pf_status', tokens.User).send({ ids: [other.contract.id] });
    expect(batch.status).toBe(202);
    expect(await waitForRun(t, tokens.User, batch.body.run_id)).toMatchObject({ label: 'Send PF Status', failed: 0, done: 1 });
  });

  it('is refused (409) when no participation fee is invoiced, alone and as a batch row, queueing nothing', async () => {
    const { contract: none } = await contractFor();
    const { contract: otherFee } = await contractFor();
    await numberedInvoice(otherFee.id, '99.00', 7);
    for (const c of [none, otherFee]) {
      const res = await api('post', `/contracts/${c.id}/send_pf_status`, tokens.User).send({});
      expect([res.status, res.body.message]).toEqual([409, `No participation fee is invoiced for contract ${c.application_number}`]);
    }
    const run = await waitForRun(t, tokens.User, (await api('post', '/contracts/batch/send_pf_status', tokens.User).send({ ids: [none.id], dry_run: true })).body.run_id);
    expect(run.rows[0]!.message).toBe(`Error for ${none.application_number}: No participation fee is invoiced for contract ${none.application_number}`);
    expect(await mailsOf(none.id)).toEqual([]);
    expect(await mailsOf(otherFee.id)).toEqual([]);
  });
});

describe('send payment info and request payment info for a refund', () => {
  it('queue their mails to the student, concerning the contract', async () => {
    const { student, contract } = await contractFor();
    const nothingOpen = await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({});
    expect(nothingOpen.status).toBe(409);
    expect(nothingOpen.body.message).toBe(`Contract ${contract.application_number} has nothing open to pay`);
    const inv = await numberedInvoice(contract.id, '500.25');
    expect((await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({})).status).toBe(200);
    // No credit yet: nothing to refund.
    const noCredit = await api('post', `/contracts/${contract.id}/request_refund_info`, tokens.User).send({ reason: 'Semester cancelled' });
    expect(noCredit.status).toBe(409);
    expect(noCredit.body.message).toBe('The contract has no credit to refund');
    // 650.75 paid on 500.25 invoiced: a credit of 150.50, the amount asked about when none is given.
    await t.db.insert(invoicePayments).values({ number: `P-R-${contract.id}`, invoice_id: inv.id, payment_date: '2026-01-20', amount_paid: '650.75' });
    const refund = await api('post', `/contracts/${contract.id}/request_refund_info`, tokens.User).send({ reason: 'Semester cancelled' });
    expect(refund.status, refund.text).toBe(200);
    const mails = await mailsOf(contract.id);
    expect(mails.map((m) => m.subject)).toEqual([`Payment information for invoice ${inv.number}`, 'Refund of € 150,50: your bank details, please']);
    expect(mails[0]!.text_body).toContain('please transfer € 500,25');
    expect(mails.every((m) => m.recipient === student.email_address)).toBe(true);
    expect(mails[1]!.text_body).toContain('(Semester cancelled)');
  });

  it("asks for what is open less the contract's credit (an invoice paid, then credited), and for nothing when the credit covers it", async () => {
    const { contract } = await contractFor();
    const paid = await numberedInvoice(contract.id, '1000.00', 5);
    await numberedInvoice(contract.id, '1000.00', 7);
    await t.db.insert(invoicePayments).values({ number: `P-C-${contract.id}`, invoice_id: paid.id, payment_date: '2026-01-20', amount_paid: '1000.00' });
    // 400 of the paid invoice credited: 600 of the other is still to pay.
    await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '400.00', description: 'Credit', number: `CN-${paid.number}`, invoice_date: '2026-02-01', document_type_id: 6, linked_invoice_id: paid.id });
    expect((await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({})).status).toBe(200);
    expect((await mailsOf(contract.id)).at(-1)!.text_body).toContain('please transfer € 600,00');
    // Credited in full: the student owes nothing, though the other invoice is open on its own.
    await t.db.insert(invoices).values({ contract_id: contract.id, year: 1, semester: 0, amount: '600.00', description: 'Credit', number: `CN-${paid.number}-2`, invoice_date: '2026-02-02', document_type_id: 6, linked_invoice_id: paid.id });
    const covered = await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({});
    expect([covered.status, covered.body.message]).toEqual([409, `Contract ${contract.application_number} has nothing open to pay: its credit of € 1.000,00 covers what is open`]);
  });

  it('lists each open invoice with what is open and its due date, or "overdue since" a date gone by, and the credit taken off', async () => {
    const { contract } = await contractFor();
    const values = (number: string, amount: string, expiration: string, type = 5) => ({
      contract_id: contract.id, year: 1, semester: 0, amount, description: `Fee ${number}`, number, invoice_date: '2026-01-05', expiration_date: expiration, document_type_id: type,
    });
    const [late] = await t.db.insert(invoices).values(values(`L-${contract.id}`, '300.00', '2026-02-04')).returning();
    await t.db.insert(invoices).values(values(`F-${contract.id}`, '450.50', '2099-03-01', 7));
    const [overpaid] = await t.db.insert(invoices).values(values(`O-${contract.id}`, '100.00', '2026-02-04', 1)).returning();
    await t.db.insert(invoicePayments).values({ number: `P-L-${contract.id}`, invoice_id: late!.id, payment_date: '2026-01-20', amount_paid: '100.00' });
    await t.db.insert(invoicePayments).values({ number: `P-O-${contract.id}`, invoice_id: overpaid!.id, payment_date: '2026-01-20', amount_paid: '150.00' });
    const res = await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({});
    expect(res.status, res.text).toBe(200);
    const text = (await mailsOf(contract.id)).at(-1)!.text_body;
    expect(text).toContain('please transfer € 600,50 for your contract');
    expect(text).toContain(`- L-${contract.id} (Fee L-${contract.id}): € 200,00, overdue since 04-02-2026`);
    expect(text).toContain(`- F-${contract.id} (Fee F-${contract.id}): € 450,50, due by 01-03-2099`);
    expect(text).toContain('- less your credit on the contract: € 50,00');
    expect(text).not.toContain(`O-${contract.id} (`);
  });

  it('the refund request answers 400 naming the field for a bad amount or a missing or bad reason, and queues nothing', async () => {
    const { contract } = await contractFor();
    const cases: [object, string][] = [
      [{ amount: -5, reason: 'x' }, 'amount'],
      [{ amount: 'ten', reason: 'x' }, 'amount'],
      [{ amount: 1.234, reason: 'x' }, 'amount'],
      [{ amount: 10 }, 'reason'],
      [{ amount: 10, reason: '  ' }, 'reason'],
      [{ amount: 10, reason: 'x', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await api('post', `/contracts/${contract.id}/request_refund_info`, tokens.User).send(body);
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect(await mailsOf(contract.id)).toEqual([]);
  });
});

/** Every mail queued so far delivered: the server's next behaviour (hold, refuse) is then for the next mail. */
const outboxIdle = () => waitFor('no mail waiting', () => t.db.select().from(outbox).where(eq(outbox.status, 'queued')), (rows) => rows.length === 0);

describe('the same mail twice', () => {
  it('while the first waits in the outbox, a second send of it is refused (409 naming it), alone and as a batch row; once it went, it may go again', async () => {
    const { student, contract } = await contractFor();
    await numberedInvoice(contract.id, '120.00');
    // A contract with a credit, for the refund request.
    const { contract: credited } = await contractFor();
    await t.db.insert(invoicePayments).values({ number: `P-T-${credited.id}`, invoice_id: (await numberedInvoice(credited.id, '10.00')).id, payment_date: '2026-01-20', amount_paid: '200.00' });
    await outboxIdle();
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // The server answers none of the mails until released: each stays waiting however quickly it is delivered.
    smtp.next.push({ kind: 'hold', held: () => held(), release: released }, ...[1, 2, 3].map(() => ({ kind: 'hold' as const, held: () => undefined, release: released })));
    expect((await api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({})).status).toBe(200);
    await holding;
    const subject = `Your bank details for contract ${contract.application_number}`;
    const waiting = `The e-mail "${subject}" to ${student.email_address} is already waiting in the outbox: it can be sent again once it went or failed`;
    const again = await api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({});
    expect([again.status, again.body.message]).toEqual([409, waiting]);
    const run = await waitForRun(t, tokens.User, (await api('post', '/contracts/batch/send_bankinfo_request', tokens.User).send({ ids: [contract.id] })).body.run_id);
    expect(run).toMatchObject({ failed: 1, done: 1 });
    expect(run.rows[0]!.message).toBe(`Error for ${contract.application_number}: ${waiting}`);
    // The contract's other mails are other mails; each of them is refused a second time while it waits.
    const others = [
      [contract.id, 'send_pf_status', {}],
      [contract.id, 'send_email_paymentinfo', {}],
      [credited.id, 'request_refund_info', { reason: 'Overpaid' }],
    ] as const;
    for (const [id, name, body] of others) {
      const first = await api('post', `/contracts/${id}/${name}`, tokens.User).send(body);
      expect(first.status, `${name}: ${first.text}`).toBe(200);
      const second = await api('post', `/contracts/${id}/${name}`, tokens.User).send(body);
      expect([second.status, second.body.message], name).toEqual([409, expect.stringMatching(/^The e-mail ".+" to .+ is already waiting in the outbox/)]);
    }
    release();
    await waitFor('all sent', () => mailsOf(contract.id), (rows) => rows.length === 3 && rows.every((r) => r.status === 'sent'));
    await waitFor('the refund request sent', () => mailsOf(credited.id), (rows) => rows.length === 1 && rows[0]!.status === 'sent');
    expect((await api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({})).status).toBe(200);
    await waitFor('sent again', () => mailsOf(contract.id), (rows) => rows.length === 4 && rows.every((r) => r.status === 'sent'));
  });

  it('three sends at once queue it exactly once', async () => {
    const { contract } = await contractFor();
    await outboxIdle();
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => undefined, release: new Promise<void>((r) => (release = r)) });
    const answers = await Promise.all([0, 1, 2].map(() => api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({})));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    release();
    await waitFor('one sent', () => mailsOf(contract.id), (rows) => rows.length === 1 && rows[0]!.status === 'sent');
  });
});

describe('a mail that fails', () => {
  it("is in the contract's History, linked to its student, for the User who sent it", async () => {
    const { student, contract } = await contractFor();
    await outboxIdle();
    smtp.next.push({ kind: 'refuse', code: 550, message: 'Mailbox unavailable' });
    expect((await api('post', `/contracts/${contract.id}/send_bankinfo_request`, tokens.User).send({})).status).toBe(200);
    await waitFor('failed', () => mailsOf(contract.id), (rows) => rows[0]?.status === 'failed');
    const history = await api('get', `/logging/?resource=contract&record_id=${contract.id}&sort=le_time|desc`, tokens.User);
    expect(history.status).toBe(200);
    const failed = (history.body.data as { eventtype_id: number; le_message: string; student_id: number; contract_id: number; usr_id: number }[]).find((e) => e.eventtype_id === EVENT_TYPE_IDS.emailFailed)!;
    expect(failed).toMatchObject({ student_id: student.id, contract_id: contract.id, usr_id: userIds.User });
    expect(failed.le_message).toMatch(/^E-mail "Your bank details for contract .+" to .+ failed: .*550 Mailbox unavailable/);
    const byStudent = await api('get', `/logging/?student_id=${student.id}&eventtype_id=${EVENT_TYPE_IDS.emailFailed}`, tokens.User);
    expect(byStudent.body.data).toHaveLength(1);
  });
});

describe('before the Email settings name a server', () => {
  it('every mail action is refused (409), alone and as a batch row, and nothing is queued', async () => {
    const { contract } = await contractFor();
    await numberedInvoice(contract.id, '80.00');
    await t.db.delete(emailSettings);
    try {
      for (const name of ['send_bankinfo_request', 'send_pf_status', 'send_email_paymentinfo']) {
        const res = await api('post', `/contracts/${contract.id}/${name}`, tokens.User).send({});
        expect([res.status, res.body.message], name).toEqual([409, NO_MAIL_SETTINGS]);
      }
      const run = await waitForRun(t, tokens.User, (await api('post', '/contracts/batch/send_bankinfo_request', tokens.User).send({ ids: [contract.id], dry_run: true })).body.run_id);
      expect(run.rows[0]!.message).toBe(`Error for ${contract.application_number}: ${NO_MAIL_SETTINGS}`);
      expect(await mailsOf(contract.id)).toEqual([]);
    } finally {
      const res = await api('put', '/config/email/', tokens.Developer).send({ smtp_servername: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_email_address: 'office@example.org' });
      expect(res.status, res.text).toBe(200);
    }
  });
});

describe('a template that does not render with real data', () => {
  it('answers 500 saying which template and line, without internals, and queues nothing', async () => {
    // Only a database edit can store it: an upload is checked against the sample first.
    await t.db.insert(templates).values({ internalname: 'payment_info_email', content: 'subject: Pay\n--- text ---\n{{ nowhere.to_be_found }}\n', filename: 'broken.liquid' });
    try {
      const { contract } = await contractFor();
      await numberedInvoice(contract.id, '10.00');
      const res = await api('post', `/contracts/${contract.id}/send_email_paymentinfo`, tokens.User).send({});
      expect(res.status).toBe(500);
      expect(res.body.message).toMatch(/^E-mail: payment information: the uploaded template payment_info_email does not render \(line 3: undefined variable: nowhere/);
      expect(res.text).not.toMatch(/at .*\.js|node_modules|stack/);
      expect(await mailsOf(contract.id)).toEqual([]);
    } finally {
      await t.db.delete(templates).where(eq(templates.internalname, 'payment_info_email'));
    }
  });
});

describe('who may send', () => {
  it('a Reader gets 403 on each mail action and batch, and nothing is queued', async () => {
    const { contract } = await contractFor();
    for (const name of ['send_bankinfo_request', 'send_pf_status', 'send_email_paymentinfo', 'request_refund_info']) {
      expect((await api('post', `/contracts/${contract.id}/${name}`, tokens.Reader).send({ amount: 1, reason: 'x' })).status, name).toBe(403);
    }
    for (const name of ['send_bankinfo_request', 'send_pf_status']) {
      expect((await api('post', `/contracts/batch/${name}`, tokens.Reader).send({ ids: [contract.id] })).status, name).toBe(403);
    }
    expect(await mailsOf(contract.id)).toEqual([]);
  });

});
