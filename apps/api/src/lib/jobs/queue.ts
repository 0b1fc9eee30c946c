import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import type { Logger as Pino } from 'pino';
import type { DbOrTx } from '@app/db';

/**
 * The job queue lives in the same PostgreSQL (graphile-worker, DESIGN §10; docs/decisions/009). Its schema is
 * installed at start-up like our own migrations.
 */
export async function installQueue(pool: pg.Pool): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger() });
}

/**
 * Adds a job in the caller's transaction: it exists only if the change that asks for it commits, and a worker
 * is woken at once (graphile-worker's NOTIFY) when it does.
 */
export async function addJob(
  tx: DbOrTx,
  task: string,
  payload: Record<string, unknown>,
  options: { maxAttempts?: number; jobKey?: string; runAt?: Date } = {},
): Promise<void> {
  await tx.execute(
    sql`select graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, max_attempts => ${options.maxAttempts ?? 25}, job_key => ${options.jobKey ?? null}, run_at => ${options.runAt?.toISOString() ?? null}::timestamptz)`,
  );
}

/** graphile-worker's log lines, through our pino logger (or nowhere). */
export function workerLogger(logger?: Pino): Logger {
  return new Logger((scope) => (level, message, meta) => {
    if (!logger) return;
    const line = { ...scope, ...meta, queue: 'graphile-worker' };
    if (level === 'error') logger.error(line, message);
    else if (level === 'warning') logger.warn(line, message);
    else if (level === 'info') logger.info(line, message);
    else logger.debug(line, message);
  });
}
