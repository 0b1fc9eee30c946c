import { integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './auth.js';

/** Millisecond precision, so the value a client saw (as ISO text) compares equal in If-Match. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/** `edit_timestamp` and `edit_user` of every mutable row (DESIGN §5). */
export const editAudit = () => ({
  edit_timestamp: timestamptz('edit_timestamp').notNull().defaultNow(),
  edit_user: integer('edit_user').references((): AnyPgColumn => users.id),
});
