import { AppError } from '@app/contracts';

/** The PostgreSQL error behind a driver or Drizzle error, if any. */
export interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
  column?: string;
  table?: string;
}

export function pgErrorOf(err: unknown): PgError | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const c = current as { code?: unknown; cause?: unknown };
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) return current as PgError;
    current = c.cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
export const NOT_NULL_VIOLATION = '23502';
export const CHECK_VIOLATION = '23514';
export const SERIALIZATION_FAILURE = '40001';
export const DEADLOCK_DETECTED = '40P01';

/** What people call the records of a table, and the field a constraint guards: filled by the services. */
const tableTitles = new Map<string, { title: string; titlePlural: string }>();
const constraintFields = new Map<string, { field: string; label: string }>();

export function registerTable(table: string, names: { title: string; titlePlural: string }): void {
  tableTitles.set(table, names);
}

/** A unique or check constraint and the field (and its label) it is about, for the message that names it. */
export function registerConstraint(constraint: string, field: string, label: string): void {
  constraintFields.set(constraint, { field, label });
}

/** `Key (student_id)=(99) …` → `student_id`; expression keys such as `lower(login)` give their first column. */
function keyColumn(detail: string | undefined): string | undefined {
  const match = /^Key \(([^)]*?)\)=/.exec(detail ?? '');
  if (!match?.[1]) return undefined;
  const column = /([a-z_][a-z0-9_]*)(?:::\w+)?\)*$/i.exec(match[1].split(',')[0]!.trim().replace(/^lower\(/, ''));
  return column?.[1];
}

/** `… table "contract_files".` → its people's name. */
function tableNamed(detail: string | undefined): { title: string; titlePlural: string } | undefined {
  const match = /table "([^"]+)"/.exec(detail ?? '');
  const table = match?.[1];
  return table ? (tableTitles.get(table) ?? { title: table, titlePlural: table }) : undefined;
}

const field = (name: string, message: string) => ({ [name]: [message] });

/**
 * The one mapping of database errors to answers (issue 9): a constraint a request ran into is the request's
 * problem (400 naming the field) or a conflict with other records (409 naming them), never a 500; a database
 * that cannot be reached or does not answer in time is a 503 (issue 10; the handler adds Retry-After). Anything
 * else is left alone (undefined). `subject` names the kind of record the caller was changing, where the error
 * itself cannot (a delete refused because others refer to it).
 */
export function appErrorOfDatabase(err: unknown, subject?: { title: string }): AppError | undefined {
  if (isDatabaseUnavailable(err)) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is not available at the moment: please try again shortly');
  }
  const pg = pgErrorOf(err);
  if (!pg) return undefined;
  const known = pg.constraint ? constraintFields.get(pg.constraint) : undefined;
  const table = pg.table ? tableTitles.get(pg.table) : undefined;
  const record = table?.title ?? subject?.title ?? 'record';
  switch (pg.code) {
    case UNIQUE_VIOLATION: {
      const column = known?.field ?? keyColumn(pg.detail) ?? 'value';
      const label = known?.label ?? column;
      return new AppError('CONFLICT', `A ${record} with this ${label} already exists`, field(column, `${label} is already used`));
    }
    case FOREIGN_KEY_VIOLATION: {
      const other = tableNamed(pg.detail);
      // The error names the referencing table only: the record deleted is the caller's subject.
      if (/is still referenced/.test(pg.detail ?? '')) {
        return new AppError('CONFLICT', `This ${subject?.title ?? 'record'} is still used by ${other ? other.titlePlural : 'other records'}`);
      }
      const column = keyColumn(pg.detail) ?? 'reference';
      return new AppError('BAD_REQUEST', `Invalid input: ${column}`, field(column, `${column} refers to a ${other?.title ?? 'record'} that does not exist`));
    }
    case NOT_NULL_VIOLATION: {
      const column = pg.column ?? 'value';
      return new AppError('BAD_REQUEST', `Invalid input: ${column}`, field(column, `${column} is required`));
    }
    case CHECK_VIOLATION: {
      const column = known?.field ?? pg.constraint ?? 'value';
      return new AppError('BAD_REQUEST', `Invalid input: ${column}`, field(column, `${known?.label ?? column} is not allowed`));
    }
    case '22001':
      return new AppError('BAD_REQUEST', 'A text is longer than its field allows');
    case '22003':
      return new AppError('BAD_REQUEST', 'A number is out of range');
    case '22007':
    case '22008':
      return new AppError('BAD_REQUEST', 'A date is out of range');
    case '22021':
      return new AppError('BAD_REQUEST', 'A text holds a character that cannot be stored');
    case '22P02':
      return new AppError('BAD_REQUEST', 'A value has the wrong form');
    case SERIALIZATION_FAILURE:
    case DEADLOCK_DETECTED:
      return new AppError('CONFLICT', 'Someone changed the same records at the same moment: please try again');
    default:
      return undefined;
  }
}

/** Seconds a client is asked to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of the database connection: the server is not there (any more). */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * node-postgres and pg-pool say "no database" with plain Errors: a connection that timed out, broke off or could
 * not be made, a statement the client gave up on (query_timeout), a pool already closed by the shutdown.
 */
const CONNECTION_ERROR_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * Whether the database is unreachable, stalled or overloaded (rather than refusing what was asked): the PostgreSQL
 * classes 08 (connection), 53 (insufficient resources) and 57 (operator intervention: statement_timeout's cancel,
 * shutdown, starting up), or a driver error that says the same.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const c = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof c.code === 'string') {
      if (/^(08|53|57)[0-9A-Z]{3}$/.test(c.code) || CONNECTION_ERROR_CODES.has(c.code)) return true;
    }
    if (typeof c.message === 'string' && CONNECTION_ERROR_MESSAGES.some((m) => (c.message as string).startsWith(m))) return true;
    current = c.cause;
  }
  return false;
}

/** Whether the failure was a race the database broke off: the work may simply be done again. */
export function isRetryable(err: unknown): boolean {
  const code = pgErrorOf(err)?.code;
  return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
}
