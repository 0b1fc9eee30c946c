import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema/index.js';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A database handle or a transaction: services accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

// DATE columns stay ISO text (`2024-03-05`): no time zone may shift a calendar date.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// NUMERIC stays text too; money is never a float on our side (DESIGN §5).
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);
// COUNT(*) is int8: small enough for a JS number in every count we make.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Pool size. */
  max?: number;
  /**
   * The server cancels a statement running longer (`statement_timeout`); the client gives up a little later
   * on its own, for a server that cannot even answer (stopped, or gone without closing the connection).
   */
  statementTimeoutMs?: number;
  /** How long getting a connection may take: opening a new one or waiting for a free one in the pool. */
  connectTimeoutMs?: number;
}

/** The client waits this much longer than the server's statement_timeout, so the server's own cancel comes first. */
export const CLIENT_TIMEOUT_MARGIN_MS = 1000;

/**
 * Every statement of the application is a short one (a page, a count, a row), or reads through a cursor (exports),
 * which PostgreSQL never runs in parallel. Parallel workers and JIT compilation are for long analytic queries:
 * here a worker's start (2–7 ms) cost more than the small scans it shared, and JIT compiled for tens of
 * milliseconds whenever an estimate passed its threshold (decision 028). A DATABASE_URL that gives its own
 * `?options=` replaces these (pg lets the URL's parameters win).
 */
export const SESSION_SETTINGS = '-c max_parallel_workers_per_gather=0 -c jit=off';

export function connect(url: string, options: ConnectOptions = {}): DbHandle {
  const { statementTimeoutMs, connectTimeoutMs } = options;
  const pool = new pg.Pool({
    connectionString: url,
    options: SESSION_SETTINGS,
    max: options.max ?? 10,
    ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS } : {}),
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
