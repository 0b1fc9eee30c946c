import { pino, type DestinationStream, type Logger } from 'pino';
import type { Env } from '../env.js';

const REDACTED = '[redacted]';

/** Keys whose value is never logged, at any depth (passwords, hashes, tokens, cookies, SMTP credentials, bank numbers). */
const SECRET_KEY = /pass|secret|token|authorization|cookie|hash|iban|api_?key|credential/i;

/** Secrets recognised by their shape wherever they appear in a text (a message, a URL, an error). */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\$argon2(?:id|i|d)\$[^\s"',;)\]}]*/g, '[hash]'],
  [/\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}/g, '[hash]'],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]'],
  [/\bBearer\s+\S+/gi, `Bearer ${REDACTED}`],
  // The password of a URL: postgres://user:secret@host, smtp://user:secret@host
  [/(\/\/[^/\s:@]+:)[^@\s/]+@/g, `$1${REDACTED}@`],
  // A query or form parameter named like a secret: ?password=…, &token=…, &iban=…
  [/([?&;][^=&\s#]*(?:pass|secret|token|iban|hash|auth)[^=&\s#]*=)[^&\s#]*/gi, `$1${REDACTED}`],
  // An IBAN, with or without spaces: the country and check digits stay, as in the audit trail.
  [/\b([A-Z]{2}\d{2})(?: ?[A-Z0-9]){11,30}\b/g, '$1…'],
];

export function scrubText(text: string): string {
  return SECRET_TEXT.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** A database error's message and stack carry the query's parameters ("params: …", drizzle): never logged. */
const withoutParameters = (text: string) => text.replace(/^params: .*$/gm, 'params: [not logged]');

const ERROR_FIELDS = ['code', 'constraint', 'table', 'column', 'status', 'statusCode', 'type', 'routine'] as const;

/**
 * An error as logged: its type, message, stack and identifying codes only. `detail`, `parameters`, `where` and
 * the like are dropped: PostgreSQL and drizzle put the row's values there (a failed user INSERT held the hash).
 */
export function errorForLog(err: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? 'Error',
    message: scrubText(withoutParameters(err.message)),
    stack: scrubText(withoutParameters(err.stack ?? '')),
  };
  const fields = err as unknown as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = typeof value === 'string' ? scrubText(value) : value;
  }
  if (err.cause instanceof Error && depth < 3) out.cause = errorForLog(err.cause, depth + 1);
  return out;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** Masks secret keys and secret-shaped strings in what a log call was given. Other objects (pino-http's req) have serializers. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value instanceof Error) return errorForLog(value);
  if (depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, SECRET_KEY.test(key) && v != null ? REDACTED : scrub(v, depth + 1)]));
}

/** Query values that say nothing about a person: the order, the page, a flag, an id, a year. */
const PLAIN_QUERY_KEY = /^(sort|page|per_page)$/;
const ID_QUERY_KEY = /(^|_)id$|^(intake|application_round|year|semester)$/;
const plainValue = (key: string, value: string) => PLAIN_QUERY_KEY.test(key) || value === 'true' || value === 'false' || (ID_QUERY_KEY.test(key) && /^\d{1,10}$/.test(value));

/**
 * A request's URL as logged: its path, and of its query the keys with only the values that say nothing about a
 * person. A quick filter or a filter by name, e-mail or postal code put who staff looked for in the server log
 * (`?search=Sch%C3%A4fer`); those values are written `…`.
 */
export function urlForLog(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return scrubText(url);
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      const key = part.slice(0, eq);
      const value = part.slice(eq + 1);
      return plainValue(key, value) ? `${key}=${value}` : `${key}=…`;
    })
    .join('&');
  return scrubText(`${url.slice(0, at)}?${query}`);
}

/** pino-http's request and response as logged: what identifies a request, never headers or bodies. */
export const httpLogSerializers = {
  req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: urlForLog(req.url) }),
  res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
};

/** The one logger of the server, the worker, the seed and the tests: every line goes through the scrubbing above. */
export function createLogger(env: Pick<Env, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: env.LOG_LEVEL,
      formatters: { log: (object) => scrub(object) as Record<string, unknown> },
      serializers: { err: (err: unknown) => (err instanceof Error ? errorForLog(err) : scrub(err)) },
      hooks: {
        // A message text is scrubbed too; an Error given alone becomes `{err}` with its scrubbed message.
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          const given = first instanceof Error ? [{ err: first }, ...(rest.length > 0 ? rest : [first.message])] : [first, ...rest];
          method.apply(this, given.map((a) => (typeof a === 'string' ? scrubText(withoutParameters(a)) : a)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
