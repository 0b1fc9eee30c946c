import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { createDatabaseSql, runMigrations, startEmbeddedPostgres } from '@app/db';
import { installQueue } from '../lib/jobs/queue.js';

export const TEMPLATE_DB = 'app_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

/**
 * One PostgreSQL per test run (embedded, or TEST_DATABASE_URL's server) and one migrated template
 * database; every test file clones its own database from it (DESIGN §9).
 */
export default async function setup(project: TestProject) {
  let serverUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => undefined as void;
  let dir: string | undefined;
  if (!serverUrl) {
    dir = await mkdtemp(path.join(tmpdir(), 'scholarship-test-'));
    await chmod(dir, 0o755);
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
    serverUrl = server.url;
    stop = server.stop;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await admin.query(createDatabaseSql(TEMPLATE_DB));
  await admin.end();
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  await runMigrations(templateUrl.toString());
  const pool = new pg.Pool({ connectionString: templateUrl.toString(), max: 1 });
  await installQueue(pool).finally(() => pool.end());
  project.provide('databaseServerUrl', serverUrl);

  return async () => {
    await stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
