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
});
export type EmailConfig = z.infer<typeof EmailConfigSchema>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * `PUT /config/email/` (spec §5): server, port and a valid from address required; the test address valid when
 * given. The password is write-only: left out or empty, the stored one is kept.
 */
export const EmailConfigUpdateSchema = z
  .object({
    smtp_servername: requiredText('SMTP server', 255),
    smtp_port: z
      .number({ error: 'SMTP port is required' })
      .int('SMTP port must be a whole number')
      .min(1, 'SMTP port must be 1 to 65535')
      .max(65535, 'SMTP port must be 1 to 65535'),
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
