// `pnpm db:backup [file]` and `pnpm db:restore <file> [--replace]` (issue 10, docs/decisions/012): a backup of
// the configured database — DATABASE_URL, or the embedded one, started for the purpose (stop `pnpm start` first:
// one server per data directory) — or a restore into it.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from './lib/logger.js';
import pg from 'pg';
import { backupDatabase, createDatabaseSql, ensureDatabase, foreignTables, holdsData, restoreDatabase, runMigrations } from '@app/db';
import { loadEnvOrExit } from './env.js';
import { openDatabase } from './lib/database.js';
import { installQueue } from './lib/jobs/queue.js';

const USAGE = 'Usage: pnpm db:backup [file]   |   pnpm db:restore <file> [--replace]';

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { replace: { type: 'boolean', default: false } } });
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}
const [command, given] = parsed.positionals;
if ((command !== 'backup' && command !== 'restore') || (command === 'restore' && !given)) {
  console.error(USAGE);
  process.exit(2);
}

const env = loadEnvOrExit();
const cwd = env.INIT_CWD ?? process.cwd();
const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
const file = path.resolve(cwd, given ?? path.join(env.DATA_DIR, 'backups', `scholarship-${stamp}.backup`));

/** Drops and creates the database again, empty, then migrated. */
async function recreate(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    await admin.query(createDatabaseSql(name));
  } finally {
    await admin.end();
  }
  await runMigrations(url);
}

// A backup reads the database as it is: it neither creates nor migrates it (a backup before an upgrade, taken
// with the new version's checkout, migrated the live database first and could then not be restored by the old
// version). A restore checks whose the database is before it migrates anything.
const database = await openDatabase(env, createLogger({ LOG_LEVEL: 'warn' }), { prepare: false });
let failed = false;
try {
  const started = performance.now();
  if (command === 'backup') {
    await mkdir(path.dirname(file), { recursive: true });
    const { tables } = await backupDatabase(database.url, file);
    const rows = Object.values(tables).reduce((a, b) => a + b, 0);
    console.log(`Backed up ${rows} rows of ${Object.keys(tables).length} tables to ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } else {
    await ensureDatabase(database.url);
    const foreign = await foreignTables(database.url);
    if (foreign.length > 0) {
      const named = foreign.slice(0, 5).join(', ') + (foreign.length > 5 ? ', …' : '');
      throw new Error(`The database is not one of this app's: it holds ${foreign.length} other table(s) (${named}). Nothing was changed. Restore into an empty database, or one this app made.`);
    }
    await runMigrations(database.url);
    if (await holdsData(database.url)) {
      if (!parsed.values.replace) {
        throw new Error('The database holds data already. Add --replace to replace all of it with the backup (or restore into another, empty database).');
      }
      await recreate(database.url);
    }
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    await installQueue(pool).finally(() => pool.end());
    const { tables } = await restoreDatabase(database.url, file);
    const rows = Object.values(tables).reduce((a, b) => a + b, 0);
    console.log(`Restored ${rows} rows of ${Object.keys(tables).length} tables from ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  }
} catch (err) {
  failed = true;
  console.error(`db:${command}: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await database.stop(10_000);
}
process.exit(failed ? 1 : 0);
