import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { connect, storedFiles } from '@app/db';
import { databaseAtMigration } from './test/migrations.js';
import { createReferences, createStudent, createUser } from './test/factories.js';
import { sha256 } from './test/files.js';
import { readStoredFile } from './lib/files/stored-files.js';

const database = await databaseAtMigration('0004_search_indexes');
const handle = connect(database.url, { max: 2 });
afterAll(() => handle.close());

describe('migration 0005 (stored files)', () => {
  it("moves every document's bytes into stored_files unchanged, with size, hash, type and uploader", async () => {
    const db = handle.db;
    const user = await createUser(db);
    // A contract as the tables were then: the factory's insert names the columns of today (0021's names).
    const refs = await createReferences(db);
    const student = await createStudent(db);
    const {
      rows: [contract],
    } = await db.execute<{ id: number }>(sql`
      insert into contracts (student_id, scholarship_id, program_id, intake, application_round, application_id, y1_university_id, start_date, end_date)
      values (${student.id}, 1, ${refs.program.id}, 2024, 1, 'APP-0005', ${refs.university.id}, '2024-09-01', '2026-08-31') returning id`);
    if (!contract) throw new Error('no contract');
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(100_000)]);
    const text = Buffer.from('Zeugnis für Łukasz\n', 'utf8');
    // Documents as they were stored before 0005: bytes in contract_files itself.
    const inserted = await db.execute<{ id: number; filename: string }>(sql`
      insert into contract_files (contract_id, filename, mime_type, size, content, uploaded_timestamp, uploaded_user) values
        (${contract.id}, 'Vertrag.pdf', 'application/pdf', ${pdf.length}, ${pdf}, '2026-01-02T03:04:05.678Z', ${user.id}),
        (${contract.id}, 'Zeugnis Łukasz.txt', null, ${text.length}, ${text}, null, null),
        (${contract.id}, 'not-uploaded.pdf', null, null, null, null, null)
      returning id, filename`);
    const ids = Object.fromEntries(inserted.rows.map((r) => [r.filename, r.id]));

    await database.migrateToLatest();

    const rows = await db.execute<{ id: number; file_id: number | null }>(sql`select id, file_id from contract_files order by id`);
    const fileOf = Object.fromEntries(rows.rows.map((r) => [r.id, r.file_id]));
    expect(fileOf[ids['not-uploaded.pdf']!]).toBeNull();

    const stored = await readStoredFile(db, fileOf[ids['Vertrag.pdf']!]!);
    expect(stored).toMatchObject({ filename: 'Vertrag.pdf', mimeType: 'application/pdf', size: pdf.length, sha256: sha256(pdf) });
    expect(Buffer.compare(stored!.content, pdf)).toBe(0);
    const txt = await readStoredFile(db, fileOf[ids['Zeugnis Łukasz.txt']!]!);
    expect(txt).toMatchObject({ filename: 'Zeugnis Łukasz.txt', mimeType: 'application/octet-stream', size: text.length, sha256: sha256(text) });
    expect(Buffer.compare(txt!.content, text)).toBe(0);

    const [audit] = await db
      .select({ created_timestamp: storedFiles.created_timestamp, created_user: storedFiles.created_user })
      .from(storedFiles)
      .where(eq(storedFiles.id, fileOf[ids['Vertrag.pdf']!]!));
    expect(audit).toEqual({ created_timestamp: new Date('2026-01-02T03:04:05.678Z'), created_user: user.id });

    // The old columns are gone, and the identity goes on after the moved ids.
    const columns = await db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'contract_files' and column_name in ('content', 'size', 'mime_type')`,
    );
    expect(columns.rows).toEqual([]);
    const next = await db.execute<{ id: number }>(
      sql`insert into stored_files (filename, mime_type, size, sha256, content) values ('n.txt', 'text/plain', 1, ${sha256(Buffer.from('n'))}, ${Buffer.from('n')}) returning id`,
    );
    expect(next.rows[0]!.id).toBeGreaterThan(Math.max(...Object.values(fileOf).filter((v): v is number => v !== null)));
  });
});
