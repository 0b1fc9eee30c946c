import { z } from 'zod';
import { email, requiredText, text } from '../common/fields.js';

/** How the connection to the SMTP server is secured: none, STARTTLS (required), or TLS from the first byte. */
export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];
export const SMTP_SECURITY_LABELS: Record<SmtpSecurity, string> = { none: 'None', starttls: 'STARTTLS', tls: 'TLS' };

/**
 * The Email settings as every route answers them (spec §3 `email_config`): never the password, only whether one
 * is stored (`smtp_password_set`).
 */
export const EmailConfigSchema = z.object({
  smtp_servername: z.string(),
  smtp_port: z.number().int(),
  smtp_security: z.enum(SMTP_SECURITY),
  smtp_username: z.string(),
  smtp_password_set: z.boolean(),
  from_email_address: z.string(),
  test_email_address: z.string().nullable(),
  edit_timestamp: z.string(),
  /**
   * Where replies to every mail go (the Reply-To header): the server's environment sets it (OFFICE_EMAIL), not
   * these settings. Null when there is none (OFFICE_EMAIL empty, or the From address itself).
   */
  reply_to_address: z.string().nullable(),
});
export type EmailConfig = z.infer<typeof EmailConfigSchema>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** Four numbers 0–255 separated by dots (no leading zeros beyond a single 0). */
function isIpv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

/** An IPv6 address as written in a host field (`::1`, `2001:db8::25`, `::ffff:192.0.2.1`), without brackets. */
function isIpv6(value: string): boolean {
  if (!value.includes(':') || !/^[0-9a-fA-F:.]+$/.test(value)) return false;
  let groups = value;
  let extra = 0;
  // An IPv4 tail counts as two groups.
  const lastColon = groups.lastIndexOf(':');
  const tail = groups.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIpv4(tail)) return false;
    groups = `${groups.slice(0, lastColon + 1)}0`;
    extra = 1;
  }
  const halves = groups.split('::');
  if (halves.length > 2) return false;
  const hex = (half: string) => (half === '' ? [] : half.split(':'));
  const all = halves.flatMap(hex);
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = all.length + extra;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/**
 * A host name (`mail.example.org`, `localhost`) or an IP address: what the mail transport connects to. No scheme,
 * port, path, space or line break: "smtp://mail.example.org:587" or "mail.example.org:587" would be looked up as a
 * name and fail at every delivery, long after the form was saved.
 */
export function isSmtpHost(value: string): boolean {
  if (isIpv4(value) || isIpv6(value)) return true;
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  // All digits and dots is an IPv4 address or nothing ("999.1.1.1", "10.1").
  if (labels.every((l) => /^\d+$/.test(l))) return false;
  return labels.every((l) => /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(l));
}

export const SMTP_HOST_MESSAGE = 'SMTP server must be a host name (mail.example.org) or an IP address, without "smtp://", port or spaces';
export const SMTP_PORT_MESSAGE = 'SMTP port must be a whole number 1–65535';

/**
 * The port as JSON has it, a whole number 1–65535: "25" (text) and 25.5 are refused with the same words as 0 or
 * 70000, and only a missing port is "required". Checked by hand rather than by z.number(): the API words every
 * type error without the input as "… is required" (its issues carry no input).
 */
const smtpPort = z
  .unknown()
  .transform((value, ctx): number => {
    if (value === undefined || value === null) {
      ctx.addIssue({ code: 'custom', message: 'SMTP port is required' });
      return z.NEVER;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
      ctx.addIssue({ code: 'custom', message: SMTP_PORT_MESSAGE });
      return z.NEVER;
    }
    return value;
  })
  .meta({ type: 'integer', minimum: 1, maximum: 65535 });

/**
 * `PUT /config/email/` (spec §5): server, port and a valid from address required; the test address valid when
 * given. The password is write-only: left out or empty, the stored one is kept.
 */
export const EmailConfigUpdateSchema = z
  .object({
    smtp_servername: requiredText('SMTP server', 255).refine((v) => v === '' || isSmtpHost(v), SMTP_HOST_MESSAGE),
    smtp_port: smtpPort,
    smtp_security: z.enum(SMTP_SECURITY, { error: 'Security must be none, starttls or tls' }).default('starttls'),
    smtp_username: text('SMTP user name').trim().max(255, 'SMTP user name must be at most 255 characters').nullish(),
    smtp_password: text('SMTP password').max(500, 'SMTP password must be at most 500 characters').nullish(),
    from_email_address: email('From address'),
    test_email_address: z.preprocess(emptyToNull, email('Test address').nullish()),
  })
  .strict();
export type EmailConfigUpdate = z.input<typeof EmailConfigUpdateSchema>;

/** What `POST /config/email/send_test` answers: the outbox row that will carry the test mail. */
export const SendTestMailResultSchema = z.object({ message: z.string(), outbox_id: z.number().int() });
