import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';

/** The repository root, whether running from src/ (tsx) or dist/ (node). */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** Whether the runtime knows the time zone (a misspelt one would fail the first date it decides, not the start). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name !== '';
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// URL' })
    .optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  SESSION_HOURS: z.coerce.number().positive().default(10),
  ADMIN_USERNAME: z.string().trim().min(1).default('admin'),
  ADMIN_PASSWORD: z.string().min(12, 'ADMIN_PASSWORD must be at least 12 characters').optional(),
  /** The office's IANA time zone: its today decides invoice and payment dates, its clock every time shown. */
  APP_TIMEZONE: z
    .string()
    .trim()
    .refine(isTimeZone, { error: (issue) => `APP_TIMEZONE must be an IANA time zone such as Europe/Berlin, not "${String(issue.input)}"` })
    .default('Europe/Berlin'),
  /** Days from an invoice's date to its expiration date (DESIGN §11: 30 unless configured). */
  PAYMENT_TERM_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Wrong logins free of delay, for one account from one address, and for one address across accounts. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(30),
  /** The first delay after those; it doubles with each further failure, up to LOGIN_MAX_DELAY_MINUTES. */
  LOGIN_DELAY_SECONDS: z.coerce.number().positive().default(1),
  LOGIN_MAX_DELAY_MINUTES: z.coerce.number().positive().default(15),
  /** Failures are forgotten this long after the last one. */
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  /**
   * Which proxies to believe about the client address (X-Forwarded-For), as Express's "trust proxy": `true`, a
   * number of hops, or addresses/subnets (`loopback`, `10.0.0.0/8`). Unset: the TCP peer is the client.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  COOKIE_SECURE: z.stringbool().optional(),
  /** Job workers in this process (0 turns them off; `pnpm worker` runs them apart). */
  WORKERS: z.coerce.number().int().min(0).default(1),
  /** Jobs of each kind one process works on at once: batch runs, and apart from them mail deliveries. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** A batch run whose worker has not said it is alive for this long is taken up by another. */
  BATCH_STALE_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** A pause between two rows of a batch run. */
  BATCH_ROW_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /**
   * How long a batch job works on a run before it queues itself again behind the runs started meanwhile, so a big
   * run does not keep another user's one-row run waiting until it ends (decision 062). Previews are not cut.
   */
  BATCH_SLICE_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  /**
   * The SMTP server that seeds the Email settings on first start (smtp://user:pass@host:587, smtps:// for TLS,
   * `?from=office@example.org`); afterwards the settings screen is the truth.
   */
  SMTP_URL: z.url({ error: 'SMTP_URL must be a smtp:// or smtps:// URL' }).optional(),
  /** Delivery attempts of one mail before a temporary failure is given up on (then `failed`). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(6),
  /** The pause before the second attempt; it doubles with each further one. */
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** Connecting, the greeting and each wait for the SMTP server are given up on after this long. */
  MAIL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** How long one request to DreamApply may take before the import gives up (issue 16). */
  DREAM_APPLY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** PostgreSQL cancels a statement running longer; a stalled server is given up on a second later (503). */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Getting a database connection (a new one, or a free one from the pool) may take this long (then 503). */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** On SIGTERM, requests under way get this long to finish; each later step of the shutdown is bounded too. */
  /** Set by pnpm: the directory a command was typed in, where the file names given to db:backup / db:restore are. */
  INIT_CWD: z.string().optional(),
  /**
   * The office as its letters show it (letterhead, footer, payment instructions; decision 015). The address is
   * given as lines separated by `|`.
   */
  OFFICE_NAME: z.string().trim().min(1).max(200).default('Scholarship Office'),
  OFFICE_ADDRESS: z.string().trim().max(500).default('Universitätsstraße 1|80539 München|Germany'),
  OFFICE_EMAIL: z.string().trim().max(200).default('scholarships@example.org'),
  // Checked at start-up (ibantools): every invoice asks students to pay into this account, and every SEPA file
  // debits it; a typo must stop the server, not reach a letter or the bank.
  OFFICE_IBAN: z
    .string()
    .trim()
    .max(50)
    .refine((v) => isValidIBAN(electronicFormatIBAN(v) ?? ''), 'OFFICE_IBAN is not a valid IBAN (its country, length or check digits are wrong)')
    .default('DE26 7005 0000 0000 0246 75'),
  OFFICE_BIC: z
    .string()
    .trim()
    .max(20)
    .refine((v) => isValidBIC(v.replace(/\s+/g, '').toUpperCase()), 'OFFICE_BIC is not a valid BIC')
    .default('BYLADEMMXXX'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
});

export type Env = z.infer<typeof EnvSchema>;

/** Reads and validates the environment once; a bad value stops start-up with a message naming the variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable (`ADMIN_PASSWORD=`) means "not set", as in most deployment tools.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.NODE_ENV === 'production' && !parsed.data.JWT_SECRET) {
    throw new Error('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  }
  return parsed.data;
}

/** The environment of a process entry point: a bad value prints the message and stops the process. */
export function loadEnvOrExit(): Env {
  try {
    return loadEnv();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
