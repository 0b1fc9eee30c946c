import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import pg from 'pg';
import { createDatabaseSql, migrationsFolder, runMigrations } from '@app/db';

/** A copy of the migrations folder holding only those up to `lastTag`, to build a database as it was then. */
async function migrationsUpTo(lastTag: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

/**
 * A database of its own migrated up to `lastTag` (the migration before the one a test checks), dropped after the
 * file's tests; `migrateToLatest` applies the rest.
 */
export async function databaseAtMigration(lastTag: string): Promise<{ url: string; migrateToLatest: () => Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const name = `app_migration_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(createDatabaseSql(name));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const folder = await migrationsUpTo(lastTag);
  await runMigrations(url.toString(), folder);
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(folder, { recursive: true, force: true });
  });
  return { url: url.toString(), migrateToLatest: () => runMigrations(url.toString()) };
}
