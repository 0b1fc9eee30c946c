import { connect, ownShutdownSignals } from '@app/db';
import { loadEnvOrExit } from './env.js';
import { createLogger } from './lib/logger.js';
import { jwtSecretFor } from './lib/database.js';
import { installQueue } from './lib/jobs/queue.js';
import { startWorkers } from './lib/jobs/worker.js';
import { shutdownDeadlineMs, SHUTDOWN_STEP_MS, within } from './lib/shutdown.js';
import { modulesByKey, resourceModules } from './resources/index.js';

/**
 * `pnpm worker`: the job workers alone, apart from the API (DESIGN §10), against DATABASE_URL. Run any number
 * of them beside API processes started with WORKERS=0; they share the queue without doing a job twice.
 */
async function main(): Promise<void> {
  const env = loadEnvOrExit();
  if (!env.DATABASE_URL) {
    console.error('pnpm worker needs DATABASE_URL: the embedded PostgreSQL belongs to the API process that started it.');
    process.exit(1);
  }
  const logger = createLogger(env);
  const handle = connect(env.DATABASE_URL, { statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS, connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS });
  await installQueue(handle.pool);
  const ctx = { db: handle.db, env, jwtSecret: await jwtSecretFor(env), logger };
  const workers = await startWorkers(ctx, modulesByKey(resourceModules(ctx)));
  console.log('Job workers are running (Ctrl-C stops them).');
  // Bounded like the server's shutdown: a stalled or dead database cannot keep the process.
  const stop = async (signal: string) => {
    logger.info({ signal }, 'stopping the job workers');
    setTimeout(() => process.exit(1), shutdownDeadlineMs(env.SHUTDOWN_GRACE_MS)).unref();
    const workersDone = await within(
      env.SHUTDOWN_GRACE_MS,
      workers.stop().catch((err: unknown) => logger.error({ err }, 'the job workers did not stop cleanly')),
    );
    if (!workersDone) logger.warn('the job workers did not stop within SHUTDOWN_GRACE_MS');
    const poolClosed = await within(SHUTDOWN_STEP_MS, handle.close());
    process.exit(workersDone && poolClosed ? 0 : 1);
  };
  ownShutdownSignals();
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

void main();
