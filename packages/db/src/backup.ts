import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { access } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';

/*
 * Backups (issue 10; docs/decisions/012): every row of every table of the database — our tables, stored files
 * included, the migration journal and the job queue — read in one snapshot and written as gzip'd JSON lines:
 *
 *   ["backup", {format, version, created, server_version, migrations: [hash…]}]
 *   ["table", "schema.name"]   then one ["row", {column: value…}] per row (PostgreSQL's row_to_json)
 *   ["sequences", [["schema.name", last_value]…]]
 *   ["end", {"schema.name": rows…}]
 *
 * Not pg_dump: the embedded server is PostgreSQL 18, whose dumps need pg_dump 18, which neither Debian 12 nor npm
 * ships; this needs nothing but the server itself, for the embedded database and DATABASE_URL alike. The schema
 * is not in the file: it is the committed migrations, and a backup is restored only into a database migrated to
 * exactly the same ones.
 */

const FORMAT = 'scholarship-office-backup';
const VERSION = 1;
/** Rows fetched (and inserted) at a time. */
const BATCH_ROWS = 500;

type Line = ['backup', Header] | ['table', string] | ['row', Record<string, unknown>] | ['sequences', [string, string][]] | ['end', Record<string, number>];

interface Header {
  format: string;
  version: number;
  created: string;
  server_version: string;
  migrations: string[];
}

export interface BackupSummary {
  /** Rows per table (`schema.name`). */
  tables: Record<string, number>;
}

const quoted = (qualified: string) =>
  qualified
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');

/** Every ordinary table outside the system schemas, as `schema.name`, in a stable order. */
async function tablesOf(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
     order by n.nspname, c.relname`,
  );
  return rows.map((r) => r.name);
}

/** The migrations applied to the database (drizzle's journal), oldest first. */
async function migrationsOf(client: pg.ClientBase): Promise<string[]> {
  const { rows: journal } = await client.query<{ ours: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as ours`);
  if (!journal[0]!.ours) throw new Error('The database is not one of this app\'s (it has no migration journal): nothing was backed up. Check DATABASE_URL.');
  const { rows } = await client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at, id');
  return rows.map((r) => r.hash);
}

/** Writes a backup of the database at `url` to `file`, from one consistent snapshot. */
export async function backupDatabase(url: string, file: string): Promise<BackupSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file, { mode: 0o600 }));
  const write = async (line: Line) => {
    if (!gzip.write(`${JSON.stringify(line)}\n`)) await once(gzip, 'drain');
  };
  const tables: Record<string, number> = {};
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows: version } = await client.query<{ server_version: string }>('show server_version');
    await write(['backup', { format: FORMAT, version: VERSION, created: new Date().toISOString(), server_version: version[0]!.server_version, migrations: await migrationsOf(client) }]);
    for (const table of await tablesOf(client)) {
      await write(['table', table]);
      tables[table] = 0;
      await client.query(`declare rows_cursor no scroll cursor for select row_to_json(t)::text as json from ${quoted(table)} t`);
      for (;;) {
        const { rows } = await client.query<{ json: string }>(`fetch ${BATCH_ROWS} from rows_cursor`);
        if (rows.length === 0) break;
        // The row is PostgreSQL's own JSON text: written as it is, never parsed into JavaScript numbers.
        for (const row of rows) if (!gzip.write(`["row",${row.json}]\n`)) await once(gzip, 'drain');
        tables[table] += rows.length;
      }
      await client.query('close rows_cursor');
    }
    const { rows: sequences } = await client.query<{ name: string; last_value: string }>(
      `select schemaname || '.' || sequencename as name, last_value::text from pg_sequences where last_value is not null order by 1`,
    );
    await write(['sequences', sequences.map((s): [string, string] => [s.name, s.last_value])]);
    await write(['end', tables]);
    await client.query('commit');
  } finally {
    gzip.end();
    await written.catch(() => undefined);
    await client.end();
  }
  await written;
  return { tables };
}

/**
 * The tables of a database this app did not make: every table, when there is no migration journal of ours
 * (`drizzle.__drizzle_migrations`); none otherwise. A restore asked of such a database — a mistyped
 * DATABASE_URL, `…/postgres` — would migrate our tables into it; it is refused before anything is written.
 */
export async function foreignTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ ours: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as ours`);
    return rows[0]!.ours ? [] : await tablesOf(client);
  } finally {
    await client.end();
  }
}

/** Whether the database is in use: it has user accounts (a freshly migrated one has none). */
export async function holdsData(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ used: boolean }>('select exists (select 1 from users) as used');
    return rows[0]!.used;
  } finally {
    await client.end();
  }
}

/** The lines of a gzip'd file; a damaged or cut file fails the loop rather than ending it quietly. */
async function* linesOf(file: string): AsyncGenerator<string> {
  await access(file);
  const gunzip = createGunzip();
  createReadStream(file)
    .on('error', (err) => gunzip.destroy(err))
    .pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/**
 * Replaces every table's rows in the database at `url` — migrated to the same migrations as the backup, the job
 * queue's schema installed — with the backup's, in one transaction: all of it or nothing. Foreign keys and
 * triggers are not checked while loading (session_replication_role = replica: a superuser, or a role granted SET
 * on it): the rows were consistent when they were read.
 */
export async function restoreDatabase(url: string, file: string): Promise<BackupSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const tables: Record<string, number> = {};
  let ended: Record<string, number> | undefined;
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    let table: { name: string; insert: string } | undefined;
    let batch: string[] = [];
    const flush = async () => {
      if (!table || batch.length === 0) return;
      await client.query(table.insert, [`[${batch.join(',')}]`]);
      tables[table.name]! += batch.length;
      batch = [];
    };
    let first = true;
    for await (const text of linesOf(file)) {
      if (text === '') continue;
      if (first) {
        first = false;
        await checkHeader(client, text);
        // Only the tables the backup holds are emptied (all at once: they reference each other), read from the
        // file beforehand: a table of something else in the same database is left as it is (every table was
        // truncated, whoever's it was).
        await client.query(`truncate ${(await tablesInFile(file)).map(quoted).join(', ')}`);
        continue;
      }
      if (text.startsWith('["row",')) {
        if (!table) throw new Error('The backup file is damaged: a row before its table');
        batch.push(text.slice('["row",'.length, -1));
        if (batch.length >= BATCH_ROWS) await flush();
        continue;
      }
      await flush();
      const line = JSON.parse(text) as Line;
      if (line[0] === 'table') {
        table = { name: line[1], insert: await insertStatement(client, line[1]) };
        tables[line[1]] = 0;
      } else if (line[0] === 'sequences') {
        for (const [name, value] of line[1]) await client.query('select setval($1::regclass, $2::bigint, true)', [quoted(name), value]);
      } else if (line[0] === 'end') {
        ended = line[1];
      }
    }
    if (first) throw new Error('The backup file is empty');
    if (!ended || JSON.stringify(ended) !== JSON.stringify(tables)) throw new Error('The backup file is incomplete (cut short?): nothing was restored');
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
  return { tables };
}

/** The tables a backup file holds (its `table` lines), in one pass over the file. */
async function tablesInFile(file: string): Promise<string[]> {
  const names: string[] = [];
  for await (const text of linesOf(file)) if (text.startsWith('["table",')) names.push((JSON.parse(text) as ['table', string])[1]);
  return names;
}

async function checkHeader(client: pg.ClientBase, text: string): Promise<void> {
  let header: Header | undefined;
  try {
    const line = JSON.parse(text) as Line;
    if (line[0] === 'backup' && line[1].format === FORMAT) header = line[1];
  } catch {
    // Not ours.
  }
  if (!header) throw new Error('This is not a backup made by pnpm db:backup');
  if (header.version !== VERSION) throw new Error(`This backup has format version ${header.version}; this version reads ${VERSION}`);
  const ours = await migrationsOf(client);
  if (JSON.stringify(ours) !== JSON.stringify(header.migrations)) {
    throw new Error(
      `The backup was made with ${header.migrations.length} migrations applied, this database has ${ours.length}: ` +
        'restore it with the version of the app that made it (then start the new one, which migrates it).',
    );
  }
}

/** INSERT of a JSON array of rows into `table`: its stored columns only (generated ones are computed again). */
async function insertStatement(client: pg.ClientBase, table: string): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `select attname as name from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
    [quoted(table)],
  );
  if (rows.length === 0) throw new Error(`The backup names a table this database does not have: ${table}`);
  const columns = rows.map((r) => `"${r.name.replace(/"/g, '""')}"`).join(', ');
  return `insert into ${quoted(table)} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${quoted(table)}, $1::json)`;
}
