/** The PostgreSQL error behind a driver or Drizzle error, if any. */
export interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
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
