import type pg from 'pg';

/** A statement as the application sent it: its text and its values. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Records every statement sent through `pool.query` into the array it answers, as it was sent (text and values),
 * so a test can plan or run again exactly what a request ran. Empty the array (`length = 0`) before a request.
 */
export function recordStatements(pool: pg.Pool): SentStatement[] {
  const sent: SentStatement[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    sent.push(typeof config === 'object' ? { text: config.text, values: values ?? config.values ?? [] } : { text: config, values: values ?? [] });
    return query(...args);
  };
  return sent;
}
