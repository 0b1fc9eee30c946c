import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDatabaseSql, restoreDatabase } from '@app/db';
import { inject } from 'vitest';
import { setupTestApp } from './test/app.js';
import { createContract, createStudent, createUser } from './test/factories.js';

const t = await setupTestApp();
const apiDir = fileURLToPath(new URL('..', import.meta.url));
const dir = await mkdtemp(path.join(tmpdir(), 'scholarship-backup-'));
await chmod(dir, 0o755);
const extraDatabases: string[] = [];

afterAll(async () => {
  const admin = new pg.Client({ connectionString: inject('databaseServerUrl') });
  await admin.connect();
  for (const name of extraDatabases) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  await rm(dir, { recursive: true, force: true });
});

/** `pnpm db:backup` / `pnpm db:restore` as a user runs them, against DATABASE_URL. */
function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/backup-cli.ts', ...args],
      { cwd: apiDir, env: { ...process.env, DATABASE_URL: databaseUrl, INIT_CWD: dir, LOG_LEVEL: 'silent' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

async function emptyDatabase(): Promise<string> {
  const name = `app_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('databaseServerUrl') });
  await admin.connect();
  await admin.query(createDatabaseSql(name));
  await admin.end();
  extraDatabases.push(name);
  const url = new URL(inject('databaseServerUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows and an md5 of the ordered rows of every table, and every sequence's position: what must come back. */
async function fingerprint(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%' order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ n: number; md5: string | null }>(`select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as md5 from ${name} t`);
      out[name] = `${rows[0]!.n} ${rows[0]!.md5}`;
    }
    const { rows: sequences } = await client.query<{ name: string; last_value: string | null }>('select schemaname || \'.\' || sequencename as name, last_value::text from pg_sequences');
    for (const s of sequences) out[`sequence ${s.name}`] = String(s.last_value);
    return out;
  } finally {
    await client.end();
  }
}

describe('pnpm db:backup and pnpm db:restore', () => {
  const file = path.join(dir, 'office.backup');
  let restored = '';
  let restoredPrint: Record<string, string> = {};

  it('a backup restored into a fresh database gives the same rows, checksums and sequences', async () => {
    await createUser(t.db, { role: 'Administrator' });
    const student = await createStudent(t.db, { first_name: 'Zoë', last_name: "Ńguyễn-O'Brien \"quoted\" \\ back" });
    await createContract(t.db, { student_id: student.id });
    await createContract(t.db);
    const bytes = Buffer.concat([Buffer.from([0, 1, 2, 255, 254]), randomBytes(4096)]);
    await t.db.execute(
      sql`insert into stored_files (filename, mime_type, size, sha256, content) values ('scan.pdf', 'application/pdf', ${bytes.length}, ${createHash('sha256').update(bytes).digest('hex')}, ${bytes})`,
    );
    const before = await fingerprint(t.databaseUrl);
    expect(Number(before['public.students']!.split(' ')[0])).toBeGreaterThan(0);

    const backup = await cli(t.databaseUrl, 'backup', 'office.backup');
    expect(backup.out).toContain(`to ${file}`);
    expect(backup.code).toBe(0);

    const fresh = await emptyDatabase();
    const restore = await cli(fresh, 'restore', 'office.backup');
    expect(restore.out).toContain('Restored');
    expect(restore.code).toBe(0);
    expect(await fingerprint(fresh)).toEqual(before);
    restored = fresh;
    restoredPrint = before;

    // The bytes of a stored file come back as they were.
    const client = new pg.Client({ connectionString: fresh });
    await client.connect();
    const { rows } = await client.query<{ content: Buffer }>(`select content from stored_files where filename = 'scan.pdf'`);
    await client.end();
    expect(rows[0]!.content.equals(bytes)).toBe(true);
  });

  it('a database in use is replaced only when asked (--replace)', async () => {
    const client = new pg.Client({ connectionString: restored });
    await client.connect();
    await client.query(`update students set first_name = 'Changed' where id = (select min(id) from students)`);
    await client.end();
    const refused = await cli(restored, 'restore', 'office.backup');
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Add --replace');
    expect(await fingerprint(restored)).not.toEqual(restoredPrint);
    const replaced = await cli(restored, 'restore', 'office.backup', '--replace');
    expect(replaced.out).toContain('Restored');
    expect(replaced.code).toBe(0);
    expect(await fingerprint(restored)).toEqual(restoredPrint);
  });

  it('a file cut short restores nothing', async () => {
    const whole = gunzipSync(await readFile(file)).toString();
    const cut = path.join(dir, 'cut.backup');
    await writeFile(cut, gzipSync(whole.slice(0, Math.floor(whole.length * 0.8))));
    const fresh = await emptyDatabase();
    const migrated = await cli(fresh, 'restore', 'cut.backup');
    expect(migrated.code).toBe(1);
    await expect(restoreDatabase(fresh, cut)).rejects.toThrow();
    const client = new pg.Client({ connectionString: fresh });
    await client.connect();
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from students');
    await client.end();
    expect(rows[0]!.n).toBe(0);
  });
  it("a database that is not this app's is neither backed up nor restored into, and nothing is written to it", async () => {
    const other = await emptyDatabase();
    const client = new pg.Client({ connectionString: other });
    await client.connect();
    await client.query('create schema accounting; create table accounting.ledger (id int); insert into accounting.ledger values (1), (2); create table public.notes (t text); insert into public.notes values (\'x\')');
    const before = await fingerprint(other);
    const backup = await cli(other, 'backup', 'other.backup');
    expect(backup.code).toBe(1);
    expect(backup.out).toContain("The database is not one of this app's (it has no migration journal): nothing was backed up");
    for (const args of [['restore', 'office.backup'], ['restore', 'office.backup', '--replace']]) {
      const restore = await cli(other, ...args);
      expect(restore.code).toBe(1);
      expect(restore.out).toContain("The database is not one of this app's: it holds 2 other table(s) (accounting.ledger, public.notes). Nothing was changed.");
    }
    // Not migrated, not emptied: exactly as it was.
    expect(await fingerprint(other)).toEqual(before);
    await client.end();
  });

  it('a restore empties only the tables the backup holds: a table of something else beside ours keeps its rows', async () => {
    const fresh = await emptyDatabase();
    // Made by this app (a restore of a cut file migrates, then restores nothing), then given a table of its own.
    expect((await cli(fresh, 'restore', 'cut.backup')).code).toBe(1);
    const client = new pg.Client({ connectionString: fresh });
    await client.connect();
    await client.query('create schema reports; create table reports.kept (n int); insert into reports.kept values (7)');
    const restore = await cli(fresh, 'restore', 'office.backup');
    expect(restore.out).toContain('Restored');
    const { rows } = await client.query<{ n: number }>('select n from reports.kept');
    expect(rows).toEqual([{ n: 7 }]);
    await client.end();
  });

});
