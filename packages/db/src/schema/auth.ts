import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';

/**
 * `edit_timestamp` and `edit_user` of every mutable row (DESIGN §5). Beside `users`, which `edit_user` references:
 * in columns.ts it made columns.ts and auth.ts import each other.
 */
export const editAudit = () => ({
  edit_timestamp: timestamptz('edit_timestamp').notNull().defaultNow(),
  edit_user: integer('edit_user').references((): AnyPgColumn => users.id),
});

export const userroles = pgTable('userroles', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 50 }).notNull().unique(),
});

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    usr_login_name: varchar('usr_login_name', { length: 100 }).notNull(),
    usr_first_name: varchar('usr_first_name', { length: 100 }).notNull(),
    usr_last_name: varchar('usr_last_name', { length: 100 }).notNull(),
    usr_name: varchar('usr_name', { length: 201 })
      .notNull()
      .generatedAlwaysAs(sql`usr_first_name || ' ' || usr_last_name`),
    usr_role_id: integer('usr_role_id')
      .notNull()
      .references(() => userroles.id),
    usr_active: boolean('usr_active').notNull().default(true),
    usr_filter_active: boolean('usr_filter_active').notNull().default(false),
    /** argon2id hash (or a legacy bcrypt hash, re-hashed at the next login). Never answered. */
    usr_login_password: text('usr_login_password').notNull(),
    ...editAudit(),
  },
  (t) => [uniqueIndex('users_login_name_lower_idx').on(sql`lower(${t.usr_login_name})`)],
);

/** One row per issued token; logout and password changes delete rows, which ends those sessions. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamptz('created_at').notNull().defaultNow(),
    expires_at: timestamptz('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id)],
);
