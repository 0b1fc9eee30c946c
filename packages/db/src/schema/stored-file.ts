import { sql } from 'drizzle-orm';
import { char, check, customType, integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Every stored file's bytes (documents now; generated PDFs, templates and import files later) live here and
 * nowhere else, so a database backup is a complete backup (DESIGN §5). A row is written once and never changed;
 * the record that owns it points at it (`contract_files.file_id`) and a trigger deletes it with its owner.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    filename: varchar('filename', { length: 200 }).notNull(),
    /** Detected from the content on upload, never taken from the client. */
    mime_type: varchar('mime_type', { length: 150 }).notNull(),
    size: integer('size').notNull(),
    /** Lower-case hex SHA-256 of `content`: proves a download is byte for byte what was stored. */
    sha256: char('sha256', { length: 64 }).notNull(),
    content: bytea('content').notNull(),
    created_timestamp: timestamptz('created_timestamp').notNull().defaultNow(),
    created_user: integer('created_user').references(() => users.id),
  },
  (t) => [
    check('stored_files_size_check', sql`${t.size} = octet_length(${t.content})`),
    check('stored_files_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
