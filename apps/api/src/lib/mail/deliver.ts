import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Task } from 'graphile-worker';
import { outbox, outboxAttachments, storedFiles, type Tx } from '@app/db';
import type { AppContext } from '../context.js';
import { recordEvent } from '../events/record.js';
import { scrubText } from '../logger.js';
import { senderOf } from './headers.js';
import { addMailJob, isOnAcceptedTarget, mailLinks, ON_ACCEPTED_TARGETS } from './outbox.js';
import { isConfigured, readSmtpSettings, type SmtpSettings } from './settings.js';

type OutboxRow = typeof outbox.$inferSelect;

/** What one delivery attempt came to. */
export type Attempt =
  | { kind: 'accepted'; reply: string }
  /** 5xx, or a mail that can never go (bad address, no settings): failed at once, not retried. */
  | { kind: 'refused'; reply: string }
  /** 4xx, connection refused or lost, timeout, all before the message was handed over: tried again later. */
  | { kind: 'temporary'; reply: string }
  /** Lost after the whole message was handed over, before the server answered: it may have arrived. */
  | { kind: 'unknown'; reply: string };

interface SmtpishError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/** Errors that no retry can mend although the server gave no 5xx. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'EAUTH', 'ECONFIG', 'EREQUIRETLS']);

/**
 * How long one delivery may take in all, connecting to the last reply: three waits of MAIL_TIMEOUT_MS. nodemailer
 * bounds each wait on its own, so a slow server could stretch a delivery past the stall sweep's 4 × MAIL_TIMEOUT_MS
 * (lib/jobs/worker.ts), which would then call it `unknown` while it was still going — and a late "refused, try
 * again" could send it twice. The delivery is broken off before the sweep can look at it.
 */
export const DELIVERY_DEADLINE_TIMEOUTS = 3;

/** Sorts an error of nodemailer into the outcomes above; `dataSent` says whether the message was handed over. */
export function classify(err: SmtpishError, dataSent: boolean): Attempt {
  const reply = scrubText(String(err.response ?? err.message ?? 'Unknown error')).slice(0, 2000);
  if (typeof err.responseCode === 'number' && err.responseCode >= 500) return { kind: 'refused', reply };
  if (typeof err.responseCode === 'number' && err.responseCode >= 400) return { kind: 'temporary', reply };
  if (dataSent) return { kind: 'unknown', reply: `Connection lost after the message was sent, before the server answered (${reply})` };
  if (err.code && PERMANENT_CODES.has(err.code)) return { kind: 'refused', reply };
  return { kind: 'temporary', reply };
}

async function attachmentsOf(db: AppContext['db'], outboxId: number) {
  return db
    .select({ filename: storedFiles.filename, contentType: storedFiles.mime_type, content: storedFiles.content })
    .from(outboxAttachments)
    .innerJoin(storedFiles, eq(storedFiles.id, outboxAttachments.file_id))
    .where(eq(outboxAttachments.outbox_id, outboxId))
    .orderBy(asc(outboxAttachments.position));
}

/** An SMTP connection kept between deliveries, and what its log told about the message under way. */
interface Connection {
  key: string;
  transport: Transporter;
  /** Set once the whole message of the delivery under way went to the socket (its terminator included). */
  dataSent: boolean;
  closing?: NodeJS.Timeout;
}

/**
 * Connections that finished a delivery cleanly and wait for the next one (decision 066): a run of mails goes over
 * a few connections, not one each. At most one per mail slot of the process; each is closed after
 * `IDLE_CONNECTION_MS` without a mail, before a server would drop it as idle.
 */
const idleConnections: Connection[] = [];
const IDLE_CONNECTION_MS = 2000;

/** What tells connections apart: the server, the login and the timeouts they were opened with. */
const connectionKey = (settings: SmtpSettings, timeout: number) =>
  JSON.stringify([settings.smtp_servername, settings.smtp_port, settings.smtp_security, settings.smtp_username, settings.smtp_password, timeout]);

/** A kept connection of the same server, login and timeouts, if one is idle. */
function keptConnection(key: string): Connection | undefined {
  const at = idleConnections.findIndex((c) => c.key === key);
  if (at < 0) return undefined;
  const kept = idleConnections.splice(at, 1)[0]!;
  clearTimeout(kept.closing);
  kept.dataSent = false;
  return kept;
}

/** A new connection to the server of the settings (opened by its first message). */
function newConnection(settings: SmtpSettings, timeout: number, key: string): Connection {
  const connection = { key, dataSent: false } as Connection;
  connection.transport = nodemailer.createTransport({
    // One connection per transport, one message at a time on it: its log says which message went out.
    pool: true,
    maxConnections: 1,
    maxMessages: 100,
    // Never sent again by nodemailer after the connection closed mid-message: it may have arrived (`unknown`),
    // and a retry is the outbox's decision (decision 016).
    maxRequeues: 0,
    host: settings.smtp_servername,
    port: settings.smtp_port,
    secure: settings.smtp_security === 'tls',
    requireTLS: settings.smtp_security === 'starttls',
    ignoreTLS: settings.smtp_security === 'none',
    auth: settings.smtp_username ? { user: settings.smtp_username, pass: settings.smtp_password ?? '' } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    // nodemailer logs the end of the message data once the whole message (terminator included) went to the socket.
    logger: {
      info: (data: unknown) => {
        if (typeof data === 'object' && data !== null && (data as { tnx?: string }).tnx === 'message' && 'outByteCount' in data) connection.dataSent = true;
      },
    },
    debug: false,
  } as SMTPPool.Options);
  return connection;
}

/** Keeps a connection that finished cleanly for the next delivery, until it has been idle too long. */
function keepConnection(connection: Connection): void {
  connection.closing = setTimeout(() => {
    const at = idleConnections.indexOf(connection);
    if (at >= 0) idleConnections.splice(at, 1);
    connection.transport.close();
  }, IDLE_CONNECTION_MS);
  connection.closing.unref();
  idleConnections.push(connection);
}

/** Closes the connections kept between deliveries (the job workers stop). */
export function closeIdleConnections(): void {
  for (const connection of idleConnections.splice(0)) {
    clearTimeout(connection.closing);
    connection.transport.close();
  }
}

/**
 * Hands one mail to the SMTP server of the settings. Every header comes from a structured value that nodemailer
 * encodes (a name holding CR/LF stays inside its header). Never throws: the outcome says what happened.
 */
export async function sendOne(ctx: AppContext, settings: SmtpSettings, mail: OutboxRow): Promise<Attempt> {
  if (!isConfigured(settings)) return { kind: 'temporary', reply: 'The Email settings name no SMTP server or from address yet' };
  const timeout = ctx.env.MAIL_TIMEOUT_MS;
  const deadline = new AbortController();
  const deadlineMs = timeout * DELIVERY_DEADLINE_TIMEOUTS;
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const key = connectionKey(settings, timeout);
  try {
    const sender = senderOf(ctx.env, settings.from_email_address);
    const message: SendMailOptions = {
      from: sender.from,
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      to: { name: mail.recipient_name ?? '', address: mail.recipient },
      subject: mail.subject,
      text: mail.text_body,
      html: mail.html_body ?? undefined,
      messageId: mail.message_id ?? undefined,
      attachments: (await attachmentsOf(ctx.db, mail.id)).map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      disableFileAccess: true,
      disableUrlAccess: true,
      // Broken off at the deadline: nodemailer closes the connection, so nothing of this attempt arrives later.
      signal: deadline.signal,
    };
    const kept = keptConnection(key);
    if (kept) {
      const attempt = await sendOver(kept, message, deadline.signal, deadlineMs);
      // A kept connection the server closed or turned away (a 421 for too many messages) before this message went
      // out: once more on a new one, rather than waiting MAIL_RETRY_BASE_MS for the outbox's next attempt.
      if (attempt.kind !== 'temporary' || kept.dataSent || deadline.signal.aborted) return attempt;
    }
    return await sendOver(newConnection(settings, timeout, key), message, deadline.signal, deadlineMs);
  } finally {
    clearTimeout(timer);
  }
}

/** One try of a delivery over a connection; the connection is kept after a clean answer and closed after any error. */
async function sendOver(connection: Connection, message: SendMailOptions, deadline: AbortSignal, deadlineMs: number): Promise<Attempt> {
  let clean = false;
  try {
    const info = await connection.transport.sendMail(message);
    // Answered without an error: the connection is in a known state, ready for the next message.
    clean = true;
    const rejected = (info.rejected ?? []).length > 0;
    const reply = scrubText(String(info.response ?? ''));
    return rejected ? { kind: 'refused', reply } : { kind: 'accepted', reply };
  } catch (err) {
    if (deadline.aborted) {
      // Cut before the whole message was handed over, the server cannot have accepted it: tried again. After, it may have.
      return classify({ code: 'EABORT', message: `Given up after ${Math.round(deadlineMs / 1000)} s: the SMTP server did not finish the delivery in time` }, connection.dataSent);
    }
    return classify(err as SmtpishError, connection.dataSent);
  } finally {
    // A connection after any error (a refusal too) is not used again: the next delivery starts on a new one.
    if (clean) keepConnection(connection);
    else connection.transport.close();
  }
}

const touch = () => sql`greatest(now(), ${outbox.edit_timestamp} + interval '1 millisecond')`;

/** Takes the row for a delivery: only a queued row with no delivery under way. */
async function claim(ctx: AppContext, id: number): Promise<OutboxRow | undefined> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(outbox).where(eq(outbox.id, id)).for('update');
    if (!row || row.status !== 'queued' || row.sending_since !== null) return undefined;
    const [claimed] = await tx
      .update(outbox)
      .set({ sending_since: sql`now()`, attempts: sql`${outbox.attempts} + 1` })
      .where(eq(outbox.id, id))
      .returning();
    return claimed;
  });
}

/**
 * A delivery's outcome in the event log, on the record the mail is about (the invoice, payment or contract whose
 * History the person who sent it can read; decision 039) with its contract and student linked, so a failure is seen
 * by whoever sent it — the Outbox is for Administrators. A mail about no record stays on its outbox row.
 */
async function mailEvent(tx: Tx, row: OutboxRow, type: 'emailSent' | 'emailFailed', message: string): Promise<void> {
  const onRecord = row.resource !== null && row.record_id !== null;
  const links = await mailLinks(tx, row.resource, row.record_id);
  await recordEvent(tx, {
    type,
    userId: row.created_user,
    resource: onRecord ? row.resource! : 'outbox',
    recordId: onRecord ? row.record_id! : row.id,
    contractId: links.contractId,
    studentId: links.studentId,
    message,
  });
}

/**
 * Records an attempt's outcome; on acceptance also the record timestamps the mail was to set, in one transaction.
 * Only while the row is still the one this attempt claimed (queued, with the claim's `sending_since`): a result
 * that comes after the stall sweep called the row `unknown`, or after a Resend started another attempt, changes
 * nothing (a late "try again" would otherwise send it twice). Answers whether it was recorded.
 */
export async function recordAttempt(ctx: AppContext, row: OutboxRow, attempt: Attempt): Promise<boolean> {
  const { env } = ctx;
  const claimed = and(eq(outbox.id, row.id), eq(outbox.status, 'queued'), row.sending_since === null ? sql`false` : eq(outbox.sending_since, row.sending_since));
  return ctx.db.transaction(async (tx) => {
    const what = `E-mail "${row.subject}" to ${row.recipient}`;
    if (attempt.kind === 'accepted') {
      const [sent] = await tx
        .update(outbox)
        .set({ status: 'sent', sending_since: null, last_reply: attempt.reply, sent_timestamp: sql`now()`, edit_timestamp: touch() })
        .where(claimed)
        .returning({ at: outbox.sent_timestamp });
      if (!sent) return false;
      const at = sent.at!;
      for (const target of Array.isArray(row.on_accepted) ? (row.on_accepted as { target?: unknown; id?: unknown }[]) : []) {
        if (!isOnAcceptedTarget(target.target) || typeof target.id !== 'number') continue;
        await ON_ACCEPTED_TARGETS[target.target](tx, target.id, at, row.created_user);
      }
      await mailEvent(tx, row, 'emailSent', `${what} sent (${attempt.reply})`);
      return true;
    }
    if (attempt.kind === 'temporary' && row.attempts < env.MAIL_MAX_ATTEMPTS) {
      const delay = env.MAIL_RETRY_BASE_MS * 2 ** (row.attempts - 1);
      const retried = await tx.update(outbox).set({ sending_since: null, last_reply: attempt.reply, edit_timestamp: touch() }).where(claimed).returning({ id: outbox.id });
      if (retried.length === 0) return false;
      await addMailJob(tx, row.id, new Date(Date.now() + delay));
      return true;
    }
    const status = attempt.kind === 'unknown' ? 'unknown' : 'failed';
    const reply = attempt.kind === 'temporary' ? `Gave up after ${row.attempts} attempts: ${attempt.reply}` : attempt.reply;
    const ended = await tx.update(outbox).set({ status, sending_since: null, last_reply: reply, edit_timestamp: touch() }).where(claimed).returning({ id: outbox.id });
    if (ended.length === 0) return false;
    await mailEvent(tx, row, 'emailFailed', status === 'unknown' ? `${what}: delivery unknown — ${reply}` : `${what} failed: ${reply}`);
    return true;
  });
}

/** The job: one delivery attempt of one outbox row. */
export function deliverMailTask(ctx: AppContext): Task {
  return async (payload) => {
    const id = Number((payload as { outbox_id?: unknown }).outbox_id);
    if (!Number.isInteger(id)) return;
    const row = await claim(ctx, id);
    if (!row) return;
    const attempt = await sendOne(ctx, await readSmtpSettings(ctx.db), row);
    const recorded = await recordAttempt(ctx, row, attempt);
    if (recorded) ctx.logger.info({ outbox_id: id, outcome: attempt.kind, attempt: row.attempts }, 'mail delivery attempt');
    else ctx.logger.warn({ outbox_id: id, outcome: attempt.kind, attempt: row.attempts }, 'mail delivery result came after the row moved on (stall sweep or resend): not recorded');
  };
}

/**
 * A row whose delivery started long ago and never finished (its worker died mid-send) may have arrived: it
 * becomes `unknown`, never sent again by itself. Answers the ids it marked.
 */
export async function markStalledMails(ctx: AppContext, olderThanMs: number): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    const stalled = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.status, 'queued'), isNotNull(outbox.sending_since), lt(outbox.sending_since, new Date(Date.now() - olderThanMs))))
      .for('update', { skipLocked: true });
    for (const row of stalled) {
      const reply = 'The delivery was interrupted (the worker stopped while sending): it may or may not have arrived';
      await tx.update(outbox).set({ status: 'unknown', sending_since: null, last_reply: reply, edit_timestamp: touch() }).where(eq(outbox.id, row.id));
      await mailEvent(tx, row, 'emailFailed', `E-mail "${row.subject}" to ${row.recipient}: delivery unknown — ${reply}`);
    }
    return stalled.map((r) => r.id);
  });
}
