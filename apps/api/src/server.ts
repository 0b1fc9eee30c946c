import type { Server } from 'node:http';
import { connect, ownShutdownSignals, type DbHandle } from '@app/db';
import { createApp } from './app.js';
import { loadEnvOrExit } from './env.js';
import { createLogger } from './lib/logger.js';
import { jwtSecretFor, openDatabase, type OpenedDatabase } from './lib/database.js';
import { deleteExpiredSessions } from './lib/auth/sessions.js';
import { installQueue } from './lib/jobs/queue.js';
import { startWorkers, type Workers } from './lib/jobs/worker.js';
import { modulesByKey, resourceModules } from './resources/index.js';
import { shutdownDeadlineMs, SHUTDOWN_STEP_MS, within } from './lib/shutdown.js';
import { seedBase } from './seed.js';
import { seedEmailSettings } from './lib/mail/settings.js';

async function main(): Promise<void> {
  const env = loadEnvOrExit();
  const logger = createLogger(env);
  let database: OpenedDatabase | undefined;
  let handle: DbHandle | undefined;
  let server: Server | undefined;
  let workers: Workers | undefined;

  let stopping = false;
  /**
   * Stop taking requests; give those under way and the job workers SHUTDOWN_GRACE_MS; then cut the connections
   * left, close the pool and stop the embedded PostgreSQL, each bounded, so that a stalled or dead database cannot
   * keep the process (exit 1 when something had to be cut off).
   */
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, shutdownDeadlineMs(env.SHUTDOWN_GRACE_MS));
    deadline.unref();
    const closed = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : undefined;
    // Keep-alive connections are closed as soon as they are idle; new requests on them are not taken.
    const idle = setInterval(() => server?.closeIdleConnections(), 100);
    const [requestsDone, workersDone] = await Promise.all([
      within(env.SHUTDOWN_GRACE_MS, closed),
      // A row at work finishes (or rolls back with the pool); the rest wait for the next start.
      within(env.SHUTDOWN_GRACE_MS, workers?.stop().catch((err: unknown) => logger.error({ err }, 'the job workers did not stop cleanly'))),
    ]);
    clearInterval(idle);
    if (!requestsDone) logger.warn('requests still under way after SHUTDOWN_GRACE_MS were cut off');
    if (!workersDone) logger.warn('the job workers did not stop within SHUTDOWN_GRACE_MS');
    server?.closeAllConnections();
    const poolClosed = await within(SHUTDOWN_STEP_MS, handle?.close());
    if (!poolClosed) logger.warn('the database connections did not close in time');
    await database?.stop(SHUTDOWN_STEP_MS).catch((err: unknown) => logger.error({ err }, 'PostgreSQL did not stop cleanly'));
    logger.info('stopped');
    process.exit(requestsDone && workersDone && poolClosed ? 0 : 1);
  };
  ownShutdownSignals();
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    database = await openDatabase(env, logger);
    handle = connect(database.url, { statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS, connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS });
    const seeded = await seedBase(handle.db, { adminUsername: env.ADMIN_USERNAME, adminPassword: env.ADMIN_PASSWORD });
    await deleteExpiredSessions(handle.db);
    if (await seedEmailSettings(handle.db, env.SMTP_URL)) logger.info('Email settings seeded from SMTP_URL');
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
    server = app.listen(env.PORT, env.HOST);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    // After the port is ours: a port taken ends the start before any worker holds a connection (a worker started
    // first kept the pool, and with it the process, alive after "Start-up failed").
    if (env.WORKERS > 0) workers = await startWorkers(ctx, modulesByKey(modules));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.PORT;
    console.log(`Scholarship office is running at http://localhost:${port}/ (${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    console.error(`Start-up failed: ${err instanceof Error ? err.message : String(err)}`);
    // Each step bounded: nothing left over may keep a process that serves nothing alive.
    server?.close();
    await within(SHUTDOWN_STEP_MS, workers?.stop().catch(() => undefined));
    await within(SHUTDOWN_STEP_MS, handle?.close().catch(() => undefined));
    await database?.stop(SHUTDOWN_STEP_MS).catch(() => undefined);
    process.exit(1);
  }
}

void main();
