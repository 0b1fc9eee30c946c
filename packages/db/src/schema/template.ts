import { integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

/**
 * Uploaded replacements of the built-in templates (DESIGN §7). The defaults live in the repository
 * (apps/api/templates/); a row here, one per `internalname`, replaces its default until it is reset (the row
 * is deleted). Only a template that parsed and rendered with its sample data is ever written.
 */
export const templates = pgTable('templates', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  internalname: varchar('internalname', { length: 100 }).notNull().unique(),
  /** The template's text exactly as uploaded (UTF-8), answered byte for byte by get_template. */
  content: text('content').notNull(),
  /** The name of the uploaded file. */
  filename: varchar('filename', { length: 200 }).notNull(),
  uploaded_user: integer('uploaded_user').references(() => users.id),
  uploaded_timestamp: timestamptz('uploaded_timestamp').notNull().defaultNow(),
});
