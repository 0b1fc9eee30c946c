import { eq, sql } from 'drizzle-orm';
import { AppError, SMTP_SECURITY, type EmailConfig, type SmtpSecurity } from '@app/contracts';
import { emailSettings, type DbOrTx, type Tx } from '@app/db';
import type { Actor } from '../crud/crud-service.js';
import { describeChanges, diffFields, recordEvent } from '../events/record.js';
import { parseVersion } from '../crud/crud-service.js';
import type { Env } from '../../env.js';
import { senderOf } from './headers.js';

/** The stored settings, password included: for the delivery job only, never for an answer or a log line. */
export interface SmtpSettings {
  smtp_servername: string;
  smtp_port: number;
  smtp_security: SmtpSecurity;
  smtp_username: string;
  smtp_password: string | null;
  from_email_address: string;
  test_email_address: string | null;
  edit_timestamp: Date;
}

const DEFAULTS: SmtpSettings = {
  smtp_servername: '',
  smtp_port: 587,
  smtp_security: 'starttls',
  smtp_username: '',
  smtp_password: null,
  from_email_address: '',
  test_email_address: null,
  edit_timestamp: new Date(0),
};

export async function readSmtpSettings(db: DbOrTx): Promise<SmtpSettings> {
  const [row] = await db.select().from(emailSettings).where(eq(emailSettings.id, 1));
  if (!row) return DEFAULTS;
  const security = (SMTP_SECURITY as readonly string[]).includes(row.smtp_security) ? (row.smtp_security as SmtpSecurity) : 'starttls';
  return { ...row, smtp_security: security };
}

/** Whether the settings name a server to deliver to. */
export const isConfigured = (s: SmtpSettings): boolean => s.smtp_servername !== '' && s.from_email_address !== '';

export const NO_MAIL_SETTINGS = 'No e-mail can be sent yet: the Email settings name no SMTP server or from address (a Developer saves them on the Configuration screen, tab Email)';

/**
 * The settings, for a mail about to be queued: refused (409) while they name no SMTP server or from address, as
 * "Send test mail" is (decision 039). A mail queued then could only fail after its retries, while the action
 * answered "queued". Every mail action asks this, through `queueMail`.
 */
export async function requireMailSettings(db: DbOrTx): Promise<SmtpSettings> {
  const settings = await readSmtpSettings(db);
  if (!isConfigured(settings)) throw new AppError('CONFLICT', NO_MAIL_SETTINGS);
  return settings;
}

/** The environment's part of every mail: where replies go (OFFICE_EMAIL, through `senderOf`). */
type MailEnv = Pick<Env, 'OFFICE_EMAIL' | 'OFFICE_NAME'>;

function forDisplay(s: SmtpSettings, env: MailEnv): EmailConfig {
  return {
    smtp_servername: s.smtp_servername,
    smtp_port: s.smtp_port,
    smtp_security: s.smtp_security,
    smtp_username: s.smtp_username,
    smtp_password_set: s.smtp_password !== null && s.smtp_password !== '',
    from_email_address: s.from_email_address,
    test_email_address: s.test_email_address,
    edit_timestamp: s.edit_timestamp.toISOString(),
    // Shown, not edited: the server's environment sets it, and the templates print the same address.
    reply_to_address: senderOf(env, s.from_email_address).replyTo ?? null,
  };
}

/**
 * The spec's `email_config` (§3) as `GET /config` and `GET /config/email` answer it: `smtp_password_set`
 * instead of the password, which no route ever answers; the Reply-To address the environment gives every mail.
 */
export async function emailConfigForDisplay(db: DbOrTx, env: MailEnv): Promise<EmailConfig> {
  return forDisplay(await readSmtpSettings(db), env);
}

export interface EmailConfigChange {
  smtp_servername: string;
  smtp_port: number;
  smtp_security: SmtpSecurity;
  smtp_username?: string | null;
  smtp_password?: string | null;
  from_email_address: string;
  test_email_address?: string | null;
}

/**
 * Stores the settings (validated by the contract's schema). An empty or absent password keeps the stored one.
 * `version` is the edit_timestamp the client saw: settings changed since are refused (409), not overwritten.
 * The event lists the changed fields; the password only as "changed".
 */
export async function updateEmailConfig(tx: Tx, env: MailEnv, actor: Actor, change: EmailConfigChange, version: string | undefined): Promise<EmailConfig> {
  // The row is made the first time settings are saved, with the version the defaults are answered with (GET
  // before any save answers DEFAULTS, edit_timestamp 1970): a first save from the screen matches it.
  await tx.insert(emailSettings).values({ id: 1, edit_timestamp: DEFAULTS.edit_timestamp }).onConflictDoNothing();
  const [locked] = await tx.select().from(emailSettings).where(eq(emailSettings.id, 1)).for('update');
  const current = locked!;
  if (version !== undefined && parseVersion(version).getTime() !== current.edit_timestamp.getTime()) {
    throw new AppError('CONFLICT', 'The Email settings were changed by someone else after you opened them. Reload them to see the changes.');
  }
  const values: Partial<typeof emailSettings.$inferInsert> = {
    smtp_servername: change.smtp_servername,
    smtp_port: change.smtp_port,
    smtp_security: change.smtp_security,
    smtp_username: change.smtp_username ?? '',
    from_email_address: change.from_email_address,
    test_email_address: change.test_email_address ?? null,
  };
  if (change.smtp_password) values.smtp_password = change.smtp_password;
  const changes = diffFields(current, values, { secret: ['smtp_password'] });
  if (Object.keys(changes).length > 0) {
    await tx
      .update(emailSettings)
      .set({ ...values, edit_user: actor.user.id, edit_timestamp: sql`greatest(now(), ${emailSettings.edit_timestamp} + interval '1 millisecond')` })
      .where(eq(emailSettings.id, 1));
    await recordEvent(tx, { type: 'update', userId: actor.user.id, resource: 'emailSettings', recordId: 1, message: `Email settings changed: ${describeChanges(changes)}`, changes });
  }
  return forDisplay(await readSmtpSettings(tx), env);
}

/**
 * Reads `SMTP_URL` (smtp://user:pass@host:port, smtps:// for TLS; `?from=` and `?security=none` optional) into
 * settings. Throws a message that never repeats the URL (it holds the password).
 */
export function settingsFromUrl(url: string): Omit<SmtpSettings, 'edit_timestamp' | 'test_email_address'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('SMTP_URL is not a URL');
  }
  const tls = parsed.protocol === 'smtps:';
  if (!tls && parsed.protocol !== 'smtp:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const security = parsed.searchParams.get('security');
  const user = decodeURIComponent(parsed.username);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return {
    smtp_servername: host,
    smtp_port: parsed.port ? Number(parsed.port) : tls ? 465 : 587,
    smtp_security: tls ? 'tls' : security === 'none' || security === 'starttls' ? security : 'starttls',
    smtp_username: user,
    smtp_password: parsed.password ? decodeURIComponent(parsed.password) : null,
    from_email_address: parsed.searchParams.get('from') ?? (user.includes('@') ? user : `noreply@${host}`),
  };
}

/**
 * Settings from the environment seed the Email settings on first start only: once a row exists (seeded or saved
 * on the screen) it is kept. Answers whether it seeded.
 */
export async function seedEmailSettings(db: DbOrTx, smtpUrl: string | undefined): Promise<boolean> {
  if (!smtpUrl) return false;
  const seeded = await db
    .insert(emailSettings)
    .values({ id: 1, ...settingsFromUrl(smtpUrl) })
    .onConflictDoNothing()
    .returning({ id: emailSettings.id });
  return seeded.length > 0;
}
