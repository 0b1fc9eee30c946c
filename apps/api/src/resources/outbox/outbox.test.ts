import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { EVENT_TYPE_IDS, outboxActions, type SessionUser } from '@app/contracts';
import { contracts, invoicePayments, invoices, logEvents, outbox, students } from '@app/db';
import type { Actor } from '../../lib/crud/crud-service.js';
import { storeFile } from '../../lib/files/stored-files.js';
import { classify, markStalledMails, recordAttempt, sendOne } from '../../lib/mail/deliver.js';
import { addMailJob, queueMail, type MailToQueue } from '../../lib/mail/outbox.js';
import { NO_MAIL_SETTINGS, readSmtpSettings, seedEmailSettings, settingsFromUrl } from '../../lib/mail/settings.js';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';
import { sha256 } from '../../test/files.js';
import { startTestSmtp } from '../../test/smtp.js';
import { startTestWorkers } from '../../test/workers.js';
import { waitFor } from '../../test/wait.js';

const SECRET = 'smtp-Pa55word-that-must-never-show';
const lines: string[] = [];
const t = await setupTestApp(
  { LOG_LEVEL: 'debug', MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3', MAIL_TIMEOUT_MS: '5000' },
  { write: (line: string) => void lines.push(line) },
);
const smtp = await startTestSmtp({ username: 'office', password: SECRET });
await startTestWorkers(t);

let developer: Awaited<ReturnType<typeof userWithToken>>;
let admin: Awaited<ReturnType<typeof userWithToken>>;
let user: Awaited<ReturnType<typeof userWithToken>>;
let actor: Actor;
/** Every response body of the file, to prove the password never is in one. */
const answers: string[] = [];

const api = (method: 'get' | 'post' | 'put', path: string, token: string) => {
  const req = t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
  const then = req.then.bind(req);
  req.then = ((ok, fail) =>
    then((res) => {
      answers.push(res.text);
      return res;
    }).then(ok, fail)) as typeof req.then;
  return req;
};

const settingsBody = {
  smtp_servername: '127.0.0.1',
  smtp_port: smtp.port,
  smtp_security: 'none',
  smtp_username: 'office',
  smtp_password: SECRET,
  from_email_address: 'office@example.org',
  test_email_address: 'tester@example.org',
};

const rowOf = async (id: number) => (await t.db.select().from(outbox).where(eq(outbox.id, id)))[0]!;
const settled = (id: number) => waitFor(`mail ${id}`, () => rowOf(id), (r) => r.status !== 'queued');
const queue = (mail: MailToQueue) => t.db.transaction((tx) => queueMail(tx, actor, mail));
/**
 * A mail's events: its queueing on its outbox row; its delivery's outcome on the record it concerns (decision 039),
 * or on the outbox row when it concerns none.
 */
async function eventsOf(id: number) {
  const row = await rowOf(id);
  const onRecord = row.resource !== null && row.record_id !== null;
  const outcome = onRecord
    ? and(eq(logEvents.resource, row.resource!), eq(logEvents.record_id, row.record_id!), inArray(logEvents.eventtype_id, [EVENT_TYPE_IDS.emailSent, EVENT_TYPE_IDS.emailFailed]))
    : undefined;
  return t.db
    .select()
    .from(logEvents)
    .where(or(and(eq(logEvents.resource, 'outbox'), eq(logEvents.record_id, id)), outcome))
    .orderBy(logEvents.id);
}

beforeAll(async () => {
  developer = await userWithToken(t.app, t.db, 'Developer');
  admin = await userWithToken(t.app, t.db, 'Administrator');
  user = await userWithToken(t.app, t.db, 'User');
  const me = await api('get', '/auth/me', admin.token);
  actor = { user: me.body.user as SessionUser };
});

describe('before the Email settings name a server', () => {
  it('a mail is refused (409) rather than answered "queued", and a failed one cannot be resent', async () => {
    expect((await readSmtpSettings(t.db)).smtp_servername).toBe('');
    const refused = await queue({ to: 'early@example.org', subject: 'Too early', text: 'x' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, message: NO_MAIL_SETTINGS });
    expect(await t.db.select().from(outbox).where(eq(outbox.recipient, 'early@example.org'))).toEqual([]);
    const [failed] = await t.db.insert(outbox).values({ recipient: 'old@example.org', subject: 'Old', text_body: 'x', status: 'failed' }).returning();
    const resend = await api('post', `/outbox/${failed!.id}/resend`, admin.token).send({});
    expect([resend.status, resend.body.message]).toEqual([409, NO_MAIL_SETTINGS]);
    expect((await rowOf(failed!.id)).status).toBe('failed');
  });
});

describe('Email settings', () => {
  it('are seeded from SMTP_URL on first start only, and the URL is read into its parts', async () => {
    expect(settingsFromUrl('smtps://mailer%40example.org:p%40ss@mail.example.org')).toEqual({
      smtp_servername: 'mail.example.org',
      smtp_port: 465,
      smtp_security: 'tls',
      smtp_username: 'mailer@example.org',
      smtp_password: 'p@ss',
      from_email_address: 'mailer@example.org',
    });
    expect(settingsFromUrl('smtp://localhost:1025?security=none&from=office@example.org')).toMatchObject({
      smtp_servername: 'localhost',
      smtp_port: 1025,
      smtp_security: 'none',
      smtp_username: '',
      smtp_password: null,
      from_email_address: 'office@example.org',
    });
    expect(() => settingsFromUrl(`http://user:${SECRET}@host`)).toThrow(/^SMTP_URL must start with smtp:\/\/ or smtps:\/\/$/);
    expect(await seedEmailSettings(t.db, `smtp://seed:${SECRET}@localhost:2525?from=seed@example.org`)).toBe(true);
    const seeded = await api('get', '/config/email', developer.token).expect(200);
    expect(seeded.body).toMatchObject({ smtp_servername: 'localhost', smtp_port: 2525, smtp_security: 'starttls', smtp_username: 'seed', smtp_password_set: true, from_email_address: 'seed@example.org' });
    expect(await seedEmailSettings(t.db, 'smtp://other@elsewhere:25')).toBe(false);
    expect((await api('get', '/config/email', developer.token)).body.smtp_servername).toBe('localhost');
  });

  it('are read and saved by a Developer only: 403 for an Administrator, and the password is never answered', async () => {
    expect((await api('put', '/config/email/', admin.token).send(settingsBody)).status).toBe(403);
    expect((await api('get', '/config/email', admin.token)).status).toBe(403);
    expect((await api('post', '/config/email/send_test', admin.token).send({})).status).toBe(403);
    const saved = await api('put', '/config/email/', developer.token).send(settingsBody);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({
      smtp_servername: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_security: 'none',
      smtp_username: 'office',
      smtp_password_set: true,
      from_email_address: 'office@example.org',
      test_email_address: 'tester@example.org',
      edit_timestamp: expect.any(String),
      reply_to_address: t.ctx.env.OFFICE_EMAIL,
    });
    expect(saved.text).not.toContain(SECRET);
  });

  it('answer the Reply-To address the environment gives every mail (OFFICE_EMAIL), or none when it is the From address', async () => {
    expect(t.ctx.env.OFFICE_EMAIL).toBe('scholarships@example.org');
    const current = await api('get', '/config/email', developer.token).expect(200);
    expect(current.body.reply_to_address).toBe('scholarships@example.org');
    const same = await api('put', '/config/email/', developer.token)
      .set('If-Match', current.body.edit_timestamp)
      .send({ ...settingsBody, smtp_password: null, from_email_address: 'Scholarships@example.org' });
    expect([same.status, same.body.reply_to_address]).toEqual([200, null]);
    expect((await api('get', '/config/email', developer.token)).body.reply_to_address).toBeNull();
    // Not a setting: a body naming it is refused by name, as any unknown field.
    const edited = await api('put', '/config/email/', developer.token).send({ ...settingsBody, reply_to_address: 'elsewhere@example.org' });
    expect([edited.status, Object.keys(edited.body.errors ?? {})]).toEqual([400, ['reply_to_address']]);
    await api('put', '/config/email/', developer.token).set('If-Match', same.body.edit_timestamp).send({ ...settingsBody, smtp_password: null }).expect(200);
  });

  it('answer 400 naming the field for a missing port or server, an invalid from or test address, an unknown field', async () => {
    const put = (body: object) => api('put', '/config/email/', developer.token).send({ ...settingsBody, ...body });
    const cases: [object, string][] = [
      [{ smtp_port: undefined }, 'smtp_port'],
      [{ smtp_port: 70000 }, 'smtp_port'],
      [{ smtp_servername: ' ' }, 'smtp_servername'],
      [{ from_email_address: 'not an address' }, 'from_email_address'],
      [{ from_email_address: undefined }, 'from_email_address'],
      [{ test_email_address: 'tester@' }, 'test_email_address'],
      [{ smtp_security: 'ssl' }, 'smtp_security'],
      [{ smtp_password_hint: 'x' }, 'smtp_password_hint'],
    ];
    for (const [body, field] of cases) {
      const res = await put(body);
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    // A server is a host name or an address, nothing more; a port a whole number (decision 039).
    for (const host of ['smtp example org', 'smtp://mail.example.org:587', 'mail.example.org:587']) {
      const res = await put({ smtp_servername: host });
      expect([res.status, res.body.errors]).toEqual([400, { smtp_servername: ['SMTP server must be a host name (mail.example.org) or an IP address, without "smtp://", port or spaces'] }]);
    }
    // A header smuggled in after a line break: one line is what a one-line field takes (decision 060).
    const smuggled = await put({ smtp_servername: 'mail.example.org\r\nBcc: x' });
    expect([smuggled.status, smuggled.body.errors]).toEqual([400, { smtp_servername: ['SMTP server must be one line (no line breaks)'] }]);
    for (const port of ['25', 25.5]) {
      const res = await put({ smtp_port: port });
      expect([res.status, res.body.errors]).toEqual([400, { smtp_port: ['SMTP port must be a whole number 1–65535'] }]);
    }
    // An empty test address is no address, and is fine.
    expect((await put({ test_email_address: '' })).body.test_email_address).toBeNull();
    await put({}).expect(200);
  });

  it('keep the stored password when the field is left empty, and refuse a stale If-Match', async () => {
    const before = await api('get', '/config/email', developer.token);
    const res = await api('put', '/config/email/', developer.token)
      .set('If-Match', before.body.edit_timestamp)
      .send({ ...settingsBody, smtp_password: '', test_email_address: 'second@example.org' });
    expect(res.status).toBe(200);
    expect(res.body.smtp_password_set).toBe(true);
    const stale = await api('put', '/config/email/', developer.token).set('If-Match', before.body.edit_timestamp).send({ ...settingsBody, smtp_port: 2526 });
    expect(stale.status).toBe(409);
    expect((await api('get', '/config/email', developer.token)).body.smtp_port).toBe(smtp.port);
    await api('put', '/config/email/', developer.token).set('If-Match', res.body.edit_timestamp).send({ ...settingsBody, smtp_password: null }).expect(200);
    const logins = smtp.logins.length;
    const id = await queue({ to: 'keeps@example.org', subject: 'Password kept', text: 'x' });
    expect((await settled(id)).status).toBe('sent');
    expect(smtp.logins.slice(logins)).toEqual([{ username: 'office', password: SECRET }]);
  });

  it('"Send test mail" queues the test mail template to the test address, and it arrives through the outbox', async () => {
    const res = await api('post', '/config/email/send_test', developer.token).send({});
    expect(res.status, res.text).toBe(200);
    const row = await settled(res.body.outbox_id as number);
    expect(row).toMatchObject({ status: 'sent', recipient: 'tester@example.org' });
    const mail = smtp.received.find((m) => m.messageId === row.message_id);
    // The `test_email` template's text: the office's name, who sent it, when (DD-MM-YYYY HH:mm) and through which server.
    expect(mail?.subject).toBe(`Test mail from ${t.ctx.env.OFFICE_NAME}`);
    expect((mail?.to as { text: string }).text).toBe('tester@example.org');
    expect(mail?.text).toMatch(/^This is a test mail, sent on \d{2}-\d{2}-\d{4} \d{2}:\d{2} by Test Developer to tester@example\.org through .+:\d+ \(/);
    expect(mail?.text).toContain('(Ł, ő, Ş, ß, €)');
  });
});

describe('delivery', () => {
  it('delivers a message once, with UTF-8 subject and body intact and the attachment readable; a CR/LF in the name adds no header', async () => {
    const count = smtp.received.length;
    const datas = smtp.dataCount();
    const content = Buffer.from('Zahlungsplan für Łukasz Wiśniewski: € 500,00\n');
    const fileId = await storeFile(t.db, { filename: 'Übersicht Łukasz.txt', mimeType: 'text/plain', size: content.length, sha256: sha256(content), buffer: content }, null);
    const id = await queue({
      to: { address: 'lukasz@example.org', name: 'Łukasz Wiśniewski\r\nBcc: evil@example.org' },
      subject: 'Bankdaten für Łukasz Wiśniewski',
      text: 'Sehr geehrter Łukasz Wiśniewski,\nbitte senden Sie uns Ihre Bankdaten (€ 1.234,56).',
      html: '<p>Sehr geehrter <b>Łukasz Wiśniewski</b></p>',
      attachments: [{ id: fileId }],
    });
    const row = await settled(id);
    expect(row.status, row.last_reply ?? '').toBe('sent');
    expect(row.attempts).toBe(1);
    expect(row.last_reply).toContain('250');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(count + 1);
    expect(smtp.dataCount()).toBe(datas + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.subject).toBe('Bankdaten für Łukasz Wiśniewski');
    expect(mail.text).toContain('Sehr geehrter Łukasz Wiśniewski,');
    expect(mail.text).toContain('€ 1.234,56');
    expect(mail.html).toContain('<b>Łukasz Wiśniewski</b>');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toBe('Übersicht Łukasz.txt');
    expect(mail.attachments[0]!.content.toString('utf8')).toBe('Zahlungsplan für Łukasz Wiśniewski: € 500,00\n');
    expect(mail.headers.has('bcc')).toBe(false);
    const to = mail.to as { value: { address?: string; name: string }[] };
    expect(to.value.map((v) => v.address)).toEqual(['lukasz@example.org']);
    expect(mail.from?.value[0]?.address).toBe('office@example.org');
    const events = await eventsOf(id);
    expect(events.map((e) => e.eventtype_id)).toEqual([EVENT_TYPE_IDS.emailQueued, EVENT_TYPE_IDS.emailSent]);
  });

  it('comes from the office by name, replies go to OFFICE_EMAIL, and its Message-ID is of the From domain, not the recipient\'s', async () => {
    const id = await queue({ to: { address: 'student@uni.example.net', name: 'Zoë' }, subject: 'Headers', text: 'x' });
    const row = await settled(id);
    expect(row.status).toBe('sent');
    expect(row.message_id).toMatch(/^<[^@>]+@example\.org>$/);
    const mail = smtp.received.find((m) => m.messageId === row.message_id)!;
    expect(mail.from?.value).toEqual([{ address: 'office@example.org', name: t.ctx.env.OFFICE_NAME }]);
    expect(mail.replyTo?.value).toEqual([{ address: t.ctx.env.OFFICE_EMAIL, name: '' }]);
  });

  it("sets the record's timestamps only once the server accepted the message, not while it holds the DATA reply", async () => {
    const contract = await createContract(t.db);
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    const id = await t.db.transaction((tx) =>
      queueMail(tx, actor, {
        to: 'student@example.org',
        subject: 'Bank information request',
        text: 'Please send us your bank details.',
        concerns: { resource: 'contract', id: contract.id },
        onAccepted: [
          { target: 'contract.bankinfo_emailrequest_timestamp', id: contract.id },
          { target: 'student.bankinfo_request', id: contract.student_id },
        ],
      }),
    );
    await holding;
    const contractStamp = async () => (await t.db.select({ s: contracts.bankinfo_emailrequest_timestamp }).from(contracts).where(eq(contracts.id, contract.id)))[0]!.s;
    const studentStamp = async () =>
      (await t.db.select({ s: students.bankinfo_request_timestamp, u: students.bankinfo_request_user }).from(students).where(eq(students.id, contract.student_id)))[0]!;
    expect(await contractStamp()).toBeNull();
    expect((await studentStamp()).s).toBeNull();
    expect((await rowOf(id)).status).toBe('queued');
    release();
    const row = await settled(id);
    expect(row.status).toBe('sent');
    expect((await contractStamp())?.getTime()).toBe(row.sent_timestamp!.getTime());
    expect(await studentStamp()).toEqual({ s: row.sent_timestamp, u: actor.user.id });
    // Queued on the outbox row; sent on the contract, whose History the sender reads: both linked to contract and student.
    const events = await eventsOf(id);
    expect(events.map((e) => [e.eventtype_id, e.resource, e.record_id, e.contract_id, e.student_id])).toEqual([
      [EVENT_TYPE_IDS.emailQueued, 'outbox', id, contract.id, contract.student_id],
      [EVENT_TYPE_IDS.emailSent, 'contract', contract.id, contract.id, contract.student_id],
    ]);
  });

  it('the same mail about a record is queued once while it waits: the second is told so (409), and it may go again once sent', async () => {
    const contract = await createContract(t.db);
    const mail = { to: 'twice@example.org', subject: 'Your bank details', text: 'x', concerns: { resource: 'contract', id: contract.id } };
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    let release!: () => void;
    smtp.next.push({ kind: 'hold', held: () => held(), release: new Promise<void>((r) => (release = r)) });
    const first = await queue(mail);
    await holding;
    // Being handed over (queued, sending_since set): still waiting.
    const again = await queue(mail).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409, message: 'The e-mail "Your bank details" to twice@example.org is already waiting in the outbox: it can be sent again once it went or failed' });
    // Another mail of the record, or the same text to someone else, is another mail.
    const other = await queue({ ...mail, subject: 'Your participation fee' });
    release();
    expect((await settled(first)).status).toBe('sent');
    expect((await settled(other)).status).toBe('sent');
    expect((await settled(await queue(mail))).status).toBe('sent');
    // Three at once: exactly one is queued (held by the server, so it is still waiting when the others look).
    let releaseRace!: () => void;
    smtp.next.push({ kind: 'hold', held: () => undefined, release: new Promise<void>((r) => (releaseRace = r)) });
    const racing = await Promise.allSettled([0, 1, 2].map(() => queue({ ...mail, subject: 'Racing' })));
    expect(racing.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected']);
    releaseRace();
    await waitFor('the racing mail', () => t.db.select().from(outbox).where(and(eq(outbox.record_id, contract.id), eq(outbox.subject, 'Racing'))), (rows) => rows.length === 1 && rows[0]!.status === 'sent');
  });

  it('a 550 refusal fails at once: the row is failed with the server reply and the timestamp stays empty', async () => {
    const contract = await createContract(t.db);
    smtp.next.push({ kind: 'refuse', code: 550, message: 'Mailbox unavailable' });
    const datas = smtp.dataCount();
    const id = await queue({
      to: 'nobody@example.org',
      subject: 'PF status',
      text: 'Your participation fee status.',
      concerns: { resource: 'contract', id: contract.id },
      onAccepted: [{ target: 'contract.pf_status_email_timestamp', id: contract.id }],
    });
    const row = await settled(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.last_reply).toContain('550 Mailbox unavailable');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.dataCount()).toBe(datas + 1);
    expect((await t.db.select({ s: contracts.pf_status_email_timestamp }).from(contracts).where(eq(contracts.id, contract.id)))[0]!.s).toBeNull();
    const events = await eventsOf(id);
    expect(events.map((e) => e.eventtype_id)).toEqual([EVENT_TYPE_IDS.emailQueued, EVENT_TYPE_IDS.emailFailed]);
    expect(events[1]!.le_message).toContain('550 Mailbox unavailable');
  });

  it('a 451 is retried after a pause and then delivered', async () => {
    smtp.next.push({ kind: 'refuse', code: 451, message: 'Try again later' });
    const count = smtp.received.length;
    const id = await queue({ to: 'later@example.org', subject: 'Retried', text: 'Second time lucky.' });
    const row = await settled(id);
    expect(row.status, row.last_reply ?? '').toBe('sent');
    expect(row.attempts).toBe(2);
    expect(smtp.received.length).toBe(count + 1);
    expect(smtp.received.at(-1)!.subject).toBe('Retried');
  });

  it('temporary failures are given up on after MAIL_MAX_ATTEMPTS', async () => {
    smtp.next.push(...Array.from({ length: 3 }, () => ({ kind: 'refuse' as const, code: 421, message: 'Busy' })));
    const id = await queue({ to: 'busy@example.org', subject: 'Never', text: 'x' });
    const row = await settled(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(3);
    expect(row.last_reply).toMatch(/^Gave up after 3 attempts: .*Busy/);
  });

  it('delivers a run of mails over a connection per mail slot, kept between them and closed once idle (decision 066)', async () => {
    const before = smtp.connections().opened;
    const count = smtp.received.length;
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await queue({ to: `run${i}@example.org`, subject: `Run ${i}`, text: 'x' }));
    for (const id of ids) expect((await settled(id)).status).toBe('sent');
    await smtp.waitForMessages(count + 6);
    expect(smtp.connections().opened - before).toBeLessThanOrEqual(t.ctx.env.WORKER_CONCURRENCY);
    await waitFor('the idle connections closed', async () => smtp.connections().open, (open) => open === 0, 10_000);
  });

  it('a kept connection the server turns away before the message (421) is left for a new one at once: delivered in one attempt (decision 066)', async () => {
    const count = smtp.received.length;
    const first = await settled(await queue({ to: 'first@example.org', subject: 'First', text: 'x' }));
    expect(first.status).toBe('sent');
    smtp.oneMessagePerConnection = true;
    try {
      const before = smtp.connections().opened;
      const second = await settled(await queue({ to: 'second@example.org', subject: 'Second', text: 'x' }));
      expect([second.status, second.attempts]).toEqual(['sent', 1]);
      // The kept connection was tried and turned away; the message went over a new one.
      expect(smtp.connections().opened - before).toBe(1);
      await smtp.waitForMessages(count + 2);
    } finally {
      smtp.oneMessagePerConnection = false;
    }
  });

  it('a connection dropped after DATA gives unknown, and the mail is not delivered a second time by itself', async () => {
    smtp.next.push({ kind: 'drop' });
    const datas = smtp.dataCount();
    const count = smtp.received.length;
    const id = await queue({ to: 'maybe@example.org', subject: 'Maybe', text: 'Did it arrive?' });
    const row = await settled(id);
    expect(row.status).toBe('unknown');
    expect(row.attempts).toBe(1);
    expect(row.last_reply).toMatch(/Connection lost after the message was sent/);
    // Longer than any retry pause: nothing is sent again.
    await new Promise((r) => setTimeout(r, 2500));
    expect(smtp.dataCount()).toBe(datas + 1);
    expect(smtp.received.length).toBe(count);
    expect((await rowOf(id)).status).toBe('unknown');
  });
});

describe('delivery failures without a reply', () => {
  it('a refused connection is temporary: tried again, then failed naming the error', async () => {
    const closed = await import('node:net').then(
      ({ createServer }) =>
        new Promise<number>((resolve) => {
          const probe = createServer();
          probe.listen(0, '127.0.0.1', () => {
            const { port } = probe.address() as { port: number };
            probe.close(() => resolve(port));
          });
        }),
    );
    const current = await api('get', '/config/email', developer.token);
    const moved = await api('put', '/config/email/', developer.token).set('If-Match', current.body.edit_timestamp).send({ ...settingsBody, smtp_port: closed, smtp_password: null });
    expect(moved.status).toBe(200);
    try {
      const id = await queue({ to: 'nowhere@example.org', subject: 'No server', text: 'x' });
      const row = await settled(id);
      expect(row.status).toBe('failed');
      expect(row.attempts).toBe(3);
      expect(row.last_reply).toMatch(/^Gave up after 3 attempts: .*ECONNREFUSED/);
    } finally {
      await api('put', '/config/email/', developer.token).set('If-Match', moved.body.edit_timestamp).send({ ...settingsBody, smtp_password: null }).expect(200);
    }
  });

  it('tells a timeout or lost connection before the message was handed over (retry) from one after it (unknown)', () => {
    expect(classify({ code: 'ETIMEDOUT', message: 'Greeting never received' }, false).kind).toBe('temporary');
    expect(classify({ code: 'ECONNECTION', message: 'Connection closed unexpectedly' }, false).kind).toBe('temporary');
    expect(classify({ code: 'ETIMEDOUT', message: 'Timeout' }, true).kind).toBe('unknown');
    expect(classify({ code: 'ECONNECTION', message: 'Connection closed unexpectedly' }, true).kind).toBe('unknown');
    // A reply is a reply, whenever it comes: 4xx is temporary, 5xx final.
    expect(classify({ code: 'EMESSAGE', responseCode: 452, response: '452 Insufficient storage' }, true).kind).toBe('temporary');
    expect(classify({ code: 'EMESSAGE', responseCode: 554, response: '554 Rejected' }, true)).toEqual({ kind: 'refused', reply: '554 Rejected' });
    expect(classify({ code: 'EAUTH', message: 'Invalid login' }, false).kind).toBe('refused');
  });
});

describe('a delivery that takes too long in all', () => {
  it('is broken off before the stall sweep could call it unknown, and tried again (nothing was handed over)', async () => {
    // A server that answers EHLO a line at a time, never pausing long enough for one wait to time out.
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.write('220 slow.example.org ESMTP\r\n');
      socket.once('data', () => {
        const drip = setInterval(() => socket.write('250-still thinking\r\n'), 50);
        socket.on('close', () => clearInterval(drip));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const env = { ...t.ctx.env, MAIL_TIMEOUT_MS: 300 };
      const settings = { ...(await readSmtpSettings(t.db)), smtp_port: (server.address() as AddressInfo).port, smtp_username: '', smtp_password: null };
      const row = await settled(await queue({ to: 'slow@example.org', subject: 'Slow', text: 'x' }));
      const started = Date.now();
      const attempt = await sendOne({ ...t.ctx, env }, settings, row);
      const took = Date.now() - started;
      expect(attempt).toEqual({ kind: 'temporary', reply: 'Given up after 1 s: the SMTP server did not finish the delivery in time' });
      // 3 × MAIL_TIMEOUT_MS, well before the sweep's 4 ×.
      expect(took).toBeGreaterThanOrEqual(850);
      expect(took).toBeLessThan(1200);
      await waitFor('the connection closed', async () => sockets.every((s) => s.destroyed || s.readableEnded), (done) => done, 7000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a result that comes after the sweep marked the row unknown, or after a Resend, changes nothing', async () => {
    const [claimedRow] = await t.db
      .insert(outbox)
      .values({ recipient: 'late@example.org', subject: 'Late', text_body: 'x', attempts: 1, sending_since: new Date(Date.now() - 3_600_000) })
      .returning();
    await markStalledMails(t.ctx, 60_000);
    const unknown = await rowOf(claimedRow!.id);
    expect(unknown.status).toBe('unknown');
    expect(await recordAttempt(t.ctx, claimedRow!, { kind: 'temporary', reply: '451 try later' })).toBe(false);
    expect(await recordAttempt(t.ctx, claimedRow!, { kind: 'accepted', reply: '250 ok' })).toBe(false);
    expect(await rowOf(claimedRow!.id)).toEqual(unknown);
    // Sent again by hand: the old attempt's result does not touch the new one.
    expect((await api('post', `/outbox/${claimedRow!.id}/resend`, admin.token).send({})).status).toBe(200);
    expect(await recordAttempt(t.ctx, claimedRow!, { kind: 'refused', reply: '550 no' })).toBe(false);
    const resent = await settled(claimedRow!.id);
    expect(resent.status).toBe('sent');
    expect(resent.last_reply).not.toContain('550');
  });
});

describe('a delivery interrupted by a dying worker', () => {
  it('is never taken up again by a job, and the sweep marks it unknown', async () => {
    const id = await t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(outbox)
        // Begun 10 s ago: past the 5 s this test's sweep is given, not yet past the 20 s of the workers' own
        // periodic sweep (4 × MAIL_TIMEOUT_MS), which marked it first now and then (a flaky "unknown").
        .values({ recipient: 'half@example.org', subject: 'Half sent', text_body: 'x', attempts: 1, sending_since: new Date(Date.now() - 10_000) })
        .returning({ id: outbox.id });
      // As a retried job would: the row is mid-delivery, so the job leaves it alone.
      await addMailJob(tx, row!.id);
      return row!.id;
    });
    const datas = smtp.dataCount();
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.dataCount()).toBe(datas);
    expect((await rowOf(id)).status).toBe('queued');
    expect(await markStalledMails(t.ctx, 5_000)).toEqual([id]);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'unknown', sending_since: null });
    expect(row.last_reply).toMatch(/interrupted/);
    expect((await eventsOf(id)).map((e) => e.eventtype_id)).toEqual([EVENT_TYPE_IDS.emailFailed]);
  });
});

describe('the Outbox overview', () => {
  it('lists mails for an Administrator with the usual list query and filters by status, recipient and record; 403 for a User', async () => {
    const contract = await createContract(t.db);
    const id = await queue({ to: 'filter.me@example.org', subject: 'Filtered', text: 'x', concerns: { resource: 'contract', id: contract.id } });
    await settled(id);
    expect((await api('get', '/outbox/', user.token)).status).toBe(403);
    const all = await api('get', '/outbox/?sort=created_timestamp|desc&per_page=5', admin.token).expect(200);
    expect(all.body.data[0]).toMatchObject({ id, recipient: 'filter.me@example.org', status: 'sent', resource: 'contract', record_id: contract.id });
    const byRecord = await api('get', `/outbox/?resource=contract&record_id=${contract.id}`, admin.token).expect(200);
    expect(byRecord.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    const byRecipient = await api('get', '/outbox/?recipient=filter.me', admin.token).expect(200);
    expect(byRecipient.body.data.map((r: { id: number }) => r.id)).toEqual([id]);
    const failed = await api('get', '/outbox/?status=failed', admin.token).expect(200);
    expect(failed.body.data.length).toBeGreaterThan(0);
    expect(failed.body.data.every((r: { status: string }) => r.status === 'failed')).toBe(true);
    expect((await api('get', '/outbox/?status=lost', admin.token)).status).toBe(400);
    const detail = await api('get', `/outbox/${id}`, admin.token).expect(200);
    expect(detail.body).toMatchObject({ id, subject: 'Filtered', text_body: 'x' });
  });

  it('resends a failed mail by hand and it is delivered; a sent mail cannot be resent; the confirm warns of a double for unknown', async () => {
    smtp.next.push({ kind: 'refuse', code: 550, message: 'No such user' });
    const id = await queue({ to: 'again@example.org', subject: 'Again', text: 'Once more.' });
    expect((await settled(id)).status).toBe('failed');
    expect((await api('post', `/outbox/${id}/resend`, user.token).send({})).status).toBe(403);
    const count = smtp.received.length;
    const res = await api('post', `/outbox/${id}/resend`, admin.token).send({});
    expect(res.status, res.text).toBe(200);
    const row = await settled(id);
    expect(row.status).toBe('sent');
    expect(smtp.received.length).toBe(count + 1);
    expect(smtp.received.at(-1)!.subject).toBe('Again');
    const again = await api('post', `/outbox/${id}/resend`, admin.token).send({});
    expect(again.status).toBe(409);
    expect(outboxActions.resend.confirm).toMatch(/unknown.*twice/);
    const events = await eventsOf(id);
    expect(events.map((e) => e.eventtype_id)).toEqual([
      EVENT_TYPE_IDS.emailQueued,
      EVENT_TYPE_IDS.emailFailed,
      EVENT_TYPE_IDS.emailQueued,
      EVENT_TYPE_IDS.emailSent,
    ]);
  });
});

describe('the record a mail concerns (decision 070)', () => {
  it('is named as staff know it: the invoice\'s and the payment\'s number, the contract\'s application number and student; none once deleted', async () => {
    const student = await createStudent(t.db, { first_name: 'Łukasz', last_name: 'Wiśniewski' });
    const contract = await createContract(t.db, { student_id: student.id });
    const [invoice] = await t.db
      .insert(invoices)
      .values({ contract_id: contract.id, number: `R-${contract.id}`, year: 1, semester: 0, amount: '100.00', description: 'Fee', planned_date: '2026-03-01', invoice_date: '2026-03-01', document_type_id: 5 })
      .returning();
    const [payment] = await t.db.insert(invoicePayments).values({ number: `P-R-${contract.id}`, invoice_id: invoice!.id, payment_date: '2026-03-02', amount_paid: '100.00' }).returning();
    const about = async (resource: string, id: number) => (await queue({ to: 'named@example.org', subject: `About ${resource} ${id}`, text: 'x', concerns: { resource, id } }));
    const contractReference = `${contract.application_number} (Łukasz Wiśniewski)`;
    const cases: [number, string | null][] = [
      [await about('contract', contract.id), contractReference],
      [await about('invoice', invoice!.id), `R-${contract.id}`],
      [await about('invoice_payment', payment!.id), `P-R-${contract.id}`],
    ];
    for (const [id, reference] of cases) {
      const detail = await api('get', `/outbox/${id}`, admin.token).expect(200);
      expect(detail.body).toMatchObject({ record_reference: reference, contract_id: contract.id, contract_reference: contractReference });
    }
    const test = await settled((await api('post', '/config/email/send_test', developer.token).send({})).body.outbox_id as number);
    expect((await api('get', `/outbox/${test.id}`, admin.token)).body).toMatchObject({ resource: 'emailSettings', record_reference: null, contract_reference: null });
    // The detail's only: a list sorted without an index would look them up for every mail it sorts.
    const listed = await api('get', `/outbox/?contract_id=${contract.id}`, admin.token).expect(200);
    expect(listed.body.data).toHaveLength(3);
    for (const row of listed.body.data) expect(row).not.toHaveProperty('record_reference');
    for (const [id] of cases) await settled(id);
    await t.db.delete(invoicePayments).where(eq(invoicePayments.id, payment!.id));
    expect((await api('get', `/outbox/${cases[2]![0]}`, admin.token)).body).toMatchObject({ record_reference: null, contract_reference: contractReference });
  });
});

describe('a queued mail waiting to retry (decision 070)', () => {
  /** A mail whose last attempt met a refused connection, its next try an hour away. */
  async function waiting(subject: string, values: Partial<typeof outbox.$inferInsert> = {}) {
    return t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(outbox)
        .values({ recipient: 'waiting@example.org', subject, text_body: 'x', attempts: 2, last_reply: 'connect ECONNREFUSED 127.0.0.1:25', ...values })
        .returning({ id: outbox.id });
      await addMailJob(tx, row!.id, new Date(Date.now() + 3_600_000));
      return row!.id;
    });
  }
  const laterTries = async () =>
    Number((await t.db.execute<{ n: string }>(sql`select count(*) as n from graphile_worker.jobs where task_identifier = 'deliver_mail' and run_at > now() + interval '10 minutes'`)).rows[0]!.n);

  it('is counted with the failed ones, and Resend sends it now: once though asked twice at once, its waiting try moved rather than doubled', async () => {
    const id = await waiting('Waiting for its next try');
    const [failed] = await t.db.insert(outbox).values({ recipient: 'gone@example.org', subject: 'Failed', text_body: 'x', status: 'failed', attempts: 1 }).returning({ id: outbox.id });
    const ids = async (query: string) => (await api('get', `/outbox/?per_page=200&${query}`, admin.token).expect(200)).body.data.map((r: { id: number }) => r.id) as number[];
    expect(await ids('delivery=retrying')).toContain(id);
    expect(await ids('delivery=retrying')).not.toContain(failed!.id);
    const needingALook = await api('get', '/outbox/?per_page=200&delivery=failed_or_retrying', admin.token).expect(200);
    expect(needingALook.body.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([id, failed!.id]));
    expect(needingALook.body.data.every((r: { status: string; attempts: number }) => r.status === 'failed' || (r.status === 'queued' && r.attempts > 0))).toBe(true);
    const bad = await api('get', '/outbox/?delivery=late', admin.token);
    expect([bad.status, Object.keys(bad.body.errors ?? {})]).toEqual([400, ['delivery']]);
    expect(await laterTries()).toBe(1);

    const count = smtp.received.length;
    const both = await Promise.all([0, 1].map(() => api('post', `/outbox/${id}/resend`, admin.token).send({})));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const row = await settled(id);
    expect([row.status, row.attempts]).toEqual(['sent', 1]);
    // Its try of an hour later was moved to now: nothing is left to try it again.
    expect(await laterTries()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.slice(count).filter((m) => m.subject === 'Waiting for its next try')).toHaveLength(1);
    const events = await eventsOf(id);
    expect(events.map((e) => e.eventtype_id)).toEqual([EVENT_TYPE_IDS.emailQueued, EVENT_TYPE_IDS.emailSent]);
    expect(events[0]!.le_message).toBe('Resend: E-mail "Waiting for its next try" — queued again for waiting@example.org (was waiting to retry after 2 attempts)');
    expect(await ids('delivery=retrying')).not.toContain(id);
  });

  it('is not sent again while an attempt is under way, nor before its first try', async () => {
    const underWay = await waiting('Under way', { attempts: 1, sending_since: new Date() });
    const refused = await api('post', `/outbox/${underWay}/resend`, admin.token).send({});
    expect([refused.status, refused.body.message]).toEqual([409, 'This e-mail is being handed to the SMTP server now: its outcome shows here in a moment']);
    expect(await api('get', '/outbox/?per_page=200&delivery=retrying', admin.token).then((r) => r.body.data.map((m: { id: number }) => m.id))).not.toContain(underWay);
    const untried = await waiting('Not tried yet', { attempts: 0, last_reply: null });
    const early = await api('post', `/outbox/${untried}/resend`, admin.token).send({});
    expect([early.status, early.body.message]).toEqual([409, 'This e-mail has not been tried yet: it goes as soon as it can']);
    // Out of the way of the tests after this one.
    await t.db.update(outbox).set({ status: 'unknown', sending_since: null }).where(inArray(outbox.id, [underWay, untried]));
  });
});

describe('a failed mail sent again (decision 054)', () => {
  it("goes to the student's address as it is now: the one staff corrected after the failure", async () => {
    const contract = await createContract(t.db);
    await t.db.update(students).set({ email_address: 'wrong@example.org' }).where(eq(students.id, contract.student_id));
    smtp.next.push({ kind: 'refuse', code: 550, message: 'No such user' });
    const id = await queue({ to: 'wrong@example.org', subject: 'Your bank details, again', text: 'x', concerns: { resource: 'contract', id: contract.id } });
    expect((await settled(id)).status).toBe('failed');
    await t.db.update(students).set({ email_address: 'right@example.org' }).where(eq(students.id, contract.student_id));
    const res = await api('post', `/outbox/${id}/resend`, admin.token).send({});
    expect(res.status, res.text).toBe(200);
    expect((await settled(id)).status).toBe('sent');
    expect(JSON.stringify(smtp.received.at(-1)!.to)).toContain('right@example.org');
    const [row] = await t.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row!.recipient).toBe('right@example.org');
    const [queued] = (await eventsOf(id)).filter((e) => e.eventtype_id === EVENT_TYPE_IDS.emailQueued).slice(-1);
    expect(queued!.le_message).toMatch(/queued again for right@example\.org, the student's address now \(it went to wrong@example\.org before\)/);
  });
});

describe('the SMTP password', () => {
  it('appears in no response, no log line and no event', async () => {
    await api('get', '/outbox/?per_page=200', admin.token).expect(200);
    await api('get', '/logging/?per_page=200', admin.token).expect(200);
    await api('get', '/config/email', developer.token).expect(200);
    expect(answers.length).toBeGreaterThan(20);
    for (const text of answers) expect(text).not.toContain(SECRET);
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.some((l) => l.includes('mail delivery attempt'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(SECRET);
    const events = await t.db.execute<{ row: string }>(sql`select t::text as row from log_events t`);
    expect(events.rows.length).toBeGreaterThan(10);
    for (const e of events.rows) expect(e.row).not.toContain(SECRET);
    const settingsEvents = await t.db.select().from(logEvents).where(eq(logEvents.resource, 'emailSettings'));
    expect(settingsEvents.some((e) => e.le_message.includes('smtp_password changed'))).toBe(true);
    const mails = await t.db.execute<{ row: string }>(sql`select t::text as row from outbox t`);
    for (const m of mails.rows) expect(m.row).not.toContain(SECRET);
  });
});
