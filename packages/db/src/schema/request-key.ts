import { index, jsonb, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

/**
 * A creating request sent with an `Idempotency-Key` (decision 050): written in the transaction of the work it
 * did, with the answer it gave, so the same request sent again (a retry after a lost answer, a second click in
 * another tab) is answered the same without being done twice. Kept a day.
 */
export const requestKeys = pgTable(
  'request_keys',
  {
    usr_id: integer('usr_id')
      .notNull()
      .references(() => users.id),
    key: varchar('key', { length: 100 }).notNull(),
    /** Method and path of the request the key was first sent with: another request with the key is refused. */
    request: varchar('request', { length: 300 }).notNull(),
    answer: jsonb('answer'),
    created_timestamp: timestamptz('created_timestamp').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.usr_id, t.key] }), index('request_keys_created_idx').on(t.created_timestamp)],
);
