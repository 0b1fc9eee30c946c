import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '@app/contracts';
import { contracts, invoicePayments, invoices, outbox, outboxAttachments, students, type DbOrTx, type Tx } from '@app/db';
import type { Actor } from '../crud/crud-service.js';
import { recordEvent } from '../events/record.js';
import type { StoredFile } from '../files/stored-files.js';
import { addJob } from '../jobs/queue.js';
import { messageIdFor } from './headers.js';
import { requireMailSettings } from './settings.js';

/** The job that delivers one outbox row. */
export const MAIL_TASK = 'deliver_mail';

/**
 * The record timestamps a mail may set when the SMTP server accepts it: a fixed allow-list, so a row of the
 * outbox can never name a table or column of its own choosing. Each is applied in the transaction that marks
 * the mail sent, with the time of acceptance (and who asked, where the record keeps it).
 */
export const ON_ACCEPTED_TARGETS = {
  'contract.bankinfo_emailrequest_timestamp': (tx: Tx, id: number, at: Date) =>
    tx.update(contracts).set({ bankinfo_emailrequest_timestamp: at }).where(eq(contracts.id, id)),
  'contract.pf_status_email_timestamp': (tx: Tx, id: number, at: Date) => tx.update(contracts).set({ pf_status_email_timestamp: at }).where(eq(contracts.id, id)),
  /** The invoice e-mail (issue 13 point 7): its timestamp and who sent it. */
  'invoice.email_timestamp': (tx: Tx, id: number, at: Date, userId: number | null) =>
    tx.update(invoices).set({ email_timestamp: at, email_user: userId }).where(eq(invoices.id, id)),
  'invoice.email_reminder_timestamp': (tx: Tx, id: number, at: Date) => tx.update(invoices).set({ email_reminder_timestamp: at }).where(eq(invoices.id, id)),
  /** The student's bank-info-requested timestamp and user. */
  'student.bankinfo_request': (tx: Tx, id: number, at: Date, userId: number | null) =>
    tx.update(students).set({ bankinfo_request_timestamp: at, bankinfo_request_user: userId }).where(eq(students.id, id)),
  /** The payment confirmation's timestamp and user (issue 14 point 3). */
  'invoice_payment.payment_confirmation': (tx: Tx, id: number, at: Date, userId: number | null) =>
    tx.update(invoicePayments).set({ payment_confirmation_timestamp: at, payment_confirmation_user: userId }).where(eq(invoicePayments.id, id)),
} as const;

export type OnAcceptedTarget = keyof typeof ON_ACCEPTED_TARGETS;
export interface OnAccepted {
  target: OnAcceptedTarget;
  id: number;
}

export const isOnAcceptedTarget = (value: unknown): value is OnAcceptedTarget => typeof value === 'string' && Object.hasOwn(ON_ACCEPTED_TARGETS, value);

/**
 * A stored file attached by reference (decision 065): the PDFs of invoices, credit notes and payments are never
 * changed or deleted, so the mail sends what existed when it was asked for, even if the record's PDF is rendered
 * again later. Attached under its stored name and type.
 */
export type MailAttachment = Pick<StoredFile, 'id'>;

export interface MailToQueue {
  /** The recipient's address, and their name for the To header (never a header of its own, whatever it holds). */
  to: string | { address: string; name?: string | null };
  subject: string;
  text: string;
  html?: string | null;
  attachments?: readonly MailAttachment[];
  /** The record the mail is about (`{resource: 'contract', id: 12}`): the outbox filters by it. */
  concerns?: { resource: string; id: number };
  /** Timestamps to set once the SMTP server accepted the message. */
  onAccepted?: readonly OnAccepted[];
}

/** A line of a header: CR, LF and other controls become spaces (a header value cannot start a new header). */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * Refuses a mail that is already waiting in the outbox (decision 019, widened by decision 039): the same mail —
 * same record, same recipient, same subject — still `queued` (waiting, or being handed to the server). The
 * first one has not gone yet, so a second would reach the student twice; once it went or failed, it may be sent
 * again. A lock on the record's mails (for the transaction) orders two sends at once, so exactly one is queued
 * even where the caller holds no lock on the record itself.
 */
async function refuseIfWaiting(tx: Tx, concerns: { resource: string; id: number }, address: string, subject: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mail:${concerns.resource}:${concerns.id}`}))`);
  const [waiting] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(eq(outbox.resource, concerns.resource), eq(outbox.record_id, concerns.id), eq(outbox.status, 'queued'), eq(outbox.recipient, address), eq(outbox.subject, subject)),
    )
    .limit(1);
  if (waiting) throw new AppError('CONFLICT', `The e-mail "${subject}" to ${address} is already waiting in the outbox: it can be sent again once it went or failed`);
}

/**
 * Queues an e-mail: its outbox row, its attachments and the delivery job, all in the caller's transaction, so
 * the mail exists exactly when the action that asked for it commits (DESIGN §7). Answers the outbox row's id.
 * Refused (409) when the Email settings name no SMTP server or from address — the mail could never go — and,
 * for a mail about a record, when the same mail is still waiting in the outbox.
 */
export async function queueMail(tx: Tx, actor: Actor | null, mail: MailToQueue): Promise<number> {
  const to = typeof mail.to === 'string' ? { address: mail.to, name: null } : mail.to;
  for (const target of mail.onAccepted ?? []) {
    if (!isOnAcceptedTarget(target.target)) throw new Error(`queueMail: "${String(target.target)}" is not an allowed on-accepted target`);
  }
  const settings = await requireMailSettings(tx);
  const userId = actor?.user.id ?? null;
  const address = oneLine(to.address);
  const subject = oneLine(mail.subject).slice(0, 500);
  if (mail.concerns) await refuseIfWaiting(tx, mail.concerns, address, subject);
  const links = await mailLinks(tx, mail.concerns?.resource ?? null, mail.concerns?.id ?? null);
  const [row] = await tx
    .insert(outbox)
    .values({
      recipient: address,
      recipient_name: to.name ? oneLine(to.name).slice(0, 200) : null,
      subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      resource: mail.concerns?.resource ?? null,
      record_id: mail.concerns?.id ?? null,
      contract_id: links.contractId ?? null,
      on_accepted: mail.onAccepted && mail.onAccepted.length > 0 ? mail.onAccepted.map((o) => ({ target: o.target, id: o.id })) : null,
      message_id: messageIdFor(settings.from_email_address),
      created_user: userId,
      edit_user: userId,
    })
    .returning({ id: outbox.id });
  const id = row!.id;
  const attachments = mail.attachments ?? [];
  if (attachments.length > 0) await tx.insert(outboxAttachments).values(attachments.map((a, position) => ({ outbox_id: id, position, file_id: a.id })));
  await addMailJob(tx, id);
  // The queueing is the outbox row's own event (the action that asked for the mail records its own on the
  // record); its contract and student are linked, so the log finds it by either.
  await recordEvent(tx, {
    type: 'emailQueued',
    userId,
    resource: 'outbox',
    recordId: id,
    contractId: links.contractId,
    studentId: links.studentId,
    message: `E-mail "${subject}" to ${address} queued`,
  });
  return id;
}

/**
 * The delivery job of a row, now or at `runAt`. SMTP outcomes never make the job fail (the outbox decides about
 * retries, decision 016); graphile-worker retries it only when it threw — the database failed before or after
 * the send — and the claim makes that harmless: a row whose delivery began is never claimed again.
 *
 * A row has one delivery job waiting at most: the job key is the row's, so a new job of the row replaces the one
 * waiting (graphile-worker moves its `run_at`; a job already running keeps running, without the key). Resend of a
 * mail waiting to retry thereby moves its next try to now, rather than adding a second one beside it.
 */
export async function addMailJob(tx: DbOrTx, outboxId: number, runAt?: Date): Promise<void> {
  await addJob(tx, MAIL_TASK, { outbox_id: outboxId }, { maxAttempts: 10, runAt, jobKey: `${MAIL_TASK}:${outboxId}` });
}

/** The contract and student of the record a mail concerns (a contract, an invoice or credit note, a payment). */
export async function mailLinks(db: DbOrTx, resource: string | null, recordId: number | null): Promise<{ contractId?: number; studentId?: number }> {
  if (recordId === null) return {};
  const found = async (query: Promise<{ contractId: number; studentId: number }[]>) => {
    const [row] = await query;
    return row ? { contractId: row.contractId, studentId: row.studentId } : {};
  };
  switch (resource) {
    case 'contract':
      return found(db.select({ contractId: contracts.id, studentId: contracts.student_id }).from(contracts).where(eq(contracts.id, recordId)));
    case 'invoice':
      return found(
        db.select({ contractId: contracts.id, studentId: contracts.student_id }).from(invoices).innerJoin(contracts, eq(contracts.id, invoices.contract_id)).where(eq(invoices.id, recordId)),
      );
    case 'invoice_payment':
      return found(
        db
          .select({ contractId: contracts.id, studentId: contracts.student_id })
          .from(invoicePayments)
          .innerJoin(contracts, eq(contracts.id, invoicePayments.contract_id))
          .where(eq(invoicePayments.id, recordId)),
      );
    default:
      return {};
  }
}

/** The records a mail can be about, for Resend's check that the record is still there. */
const MAIL_RECORDS = {
  contract: { table: contracts, what: 'a contract' },
  invoice: { table: invoices, what: 'an invoice' },
  invoice_payment: { table: invoicePayments, what: 'a payment' },
} as const;

/**
 * Puts a failed or unknown mail back in the queue, by hand (the Resend action), or has a queued one waiting to retry
 * tried now; refused while it could not go. The caller holds the row's lock, as the delivery's claim takes it: a
 * delivery under way is seen here and refused, and one claimed after this finds the row ready for one attempt.
 */
export async function requeueMail(tx: Tx, actor: Actor, id: number): Promise<{ recipient: string; was?: string }> {
  await requireMailSettings(tx);
  const [mail] = await tx
    .select({ resource: outbox.resource, recordId: outbox.record_id, contractId: outbox.contract_id, recipient: outbox.recipient, sendingSince: outbox.sending_since })
    .from(outbox)
    .where(eq(outbox.id, id));
  if (!mail) throw new AppError('NOT_FOUND', `E-mail ${id} not found`);
  // Its attempt may be accepted this very moment: a second one beside it could deliver it twice.
  if (mail.sendingSince !== null) throw new AppError('CONFLICT', 'This e-mail is being handed to the SMTP server now: its outcome shows here in a moment');
  if (mail.resource && mail.recordId !== null && Object.hasOwn(MAIL_RECORDS, mail.resource)) {
    const { table, what } = MAIL_RECORDS[mail.resource as keyof typeof MAIL_RECORDS];
    const [still] = await tx.select({ id: table.id }).from(table).where(eq(table.id, mail.recordId));
    if (!still) throw new AppError('CONFLICT', `This e-mail is about ${what} that was deleted: it is not sent again`);
  }
  // A mail about a contract, its invoices or payments is the student's (decision 054): it goes again to the
  // student's address as it is now, so that the address staff corrected after the failure is the one used.
  const [student] =
    mail.contractId === null
      ? []
      : await tx.select({ email: students.email_address }).from(contracts).innerJoin(students, eq(students.id, contracts.student_id)).where(eq(contracts.id, mail.contractId));
  const current = student?.email?.trim();
  const recipient = current && current.toLowerCase() !== mail.recipient.toLowerCase() ? current : mail.recipient;
  await tx
    .update(outbox)
    .set({ status: 'queued', attempts: 0, sending_since: null, recipient, edit_user: actor.user.id, edit_timestamp: sql`greatest(now(), ${outbox.edit_timestamp} + interval '1 millisecond')` })
    .where(eq(outbox.id, id));
  await addMailJob(tx, id);
  return recipient === mail.recipient ? { recipient } : { recipient, was: mail.recipient };
}
