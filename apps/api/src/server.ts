import type { Server } from 'node:http';
import { pino } from 'pino';
import { connect, type DbHandle } from '@app/db';
import { createApp } from './app.js';
import { loadEnvOrExit } from './env.js';
import { jwtSecretFor, openDatabase, type OpenedDatabase } from './lib/database.js';
import { deleteExpiredSessions } from './lib/auth/sessions.js';
import { installQueue } from './lib/jobs/queue.js';
import { startWorkers, type Workers } from './lib/jobs/worker.js';
import { modulesByKey, resourceModules } from './resources/index.js';
import { seedBase } from './seed.js';

async function main(): Promise<void> {
  const env = loadEnvOrExit();
  const logger = pino({ level: env.LOG_LEVEL });
  let database: OpenedDatabase | undefined;
  let handle: DbHandle | undefined;
  let server: Server | undefined;
  let workers: Workers | undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeAllConnections();
    // A row at work finishes (or rolls back with the pool); the rest wait for the next start.
    await workers?.stop().catch((err: unknown) => logger.error({ err }, 'the job workers did not stop cleanly'));
    await handle?.close().catch(() => undefined);
    await database?.stop().catch((err: unknown) => logger.error({ err }, 'PostgreSQL did not stop cleanly'));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    database = await openDatabase(env, logger);
    handle = connect(database.url);
    const seeded = await seedBase(handle.db, { adminUsername: env.ADMIN_USERNAME, adminPassword: env.ADMIN_PASSWORD });
    await deleteExpiredSessions(handle.db);
    if (seeded.admin) {
      const lines = [`Created the Developer account "${seeded.admin.login}".`];
      if (seeded.admin.generatedPassword) {
        lines.push(`Its password is: ${seeded.admin.generatedPassword}`, 'It is shown only this once: note it now.');
      } else {
        lines.push('Its password is the value of ADMIN_PASSWORD.');
      }
      console.log(`\n${lines.join('\n')}\n`);
    }
    await installQueue(handle.pool);
    const ctx = { db: handle.db, env, jwtSecret: await jwtSecretFor(env), logger };
    const modules = resourceModules(ctx);
    const app = createApp(ctx, modules);
    if (env.WORKERS > 0) workers = await startWorkers(ctx, modulesByKey(modules));
    server = app.listen(env.PORT, env.HOST);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    console.log(`Scholarship office is running at http://localhost:${port}/ (${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    console.error(`Start-up failed: ${err instanceof Error ? err.message : String(err)}`);
    await handle?.close().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    process.exit(1);
  }
}

void main();
