import { pino } from 'pino';
import { connect } from '@app/db';
import { loadEnvOrExit } from './env.js';
import { jwtSecretFor } from './lib/database.js';
import { installQueue } from './lib/jobs/queue.js';
import { startWorkers } from './lib/jobs/worker.js';
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
  const logger = pino({ level: env.LOG_LEVEL });
  const handle = connect(env.DATABASE_URL);
  await installQueue(handle.pool);
  const ctx = { db: handle.db, env, jwtSecret: await jwtSecretFor(env), logger };
  const workers = await startWorkers(ctx, modulesByKey(resourceModules(ctx)));
  console.log('Job workers are running (Ctrl-C stops them).');
  const stop = async (signal: string) => {
    logger.info({ signal }, 'stopping the job workers');
    await workers.stop().catch((err: unknown) => logger.error({ err }, 'the job workers did not stop cleanly'));
    await handle.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

void main();
