import { sql } from 'drizzle-orm';
import { check, integer, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

/**
 * Where the DreamApply import reads from (one row, id 1; issue 16): the API's base URL and its key. The key is
 * kept because every request must carry it; no route answers it and no log line or event shows it.
 */
export const dreamApplySettings = pgTable(
  'dream_apply_settings',
  {
    id: smallint('id').primaryKey().default(1),
    base_url: varchar('base_url', { length: 300 }).notNull().default(''),
    api_key: text('api_key'),
    edit_timestamp: timestamptz('edit_timestamp').notNull().defaultNow(),
    edit_user: integer('edit_user').references(() => users.id),
  },
  (t) => [check('dream_apply_settings_singleton', sql`${t.id} = 1`)],
);
