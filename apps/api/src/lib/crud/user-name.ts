import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '@app/db';

/**
 * The display name of the user a column holds the id of (an audit pair's user, spec §3): a subquery on the
 * users' primary key, computed only for the rows a page shows, never sorted or filtered on.
 */
export const userName = (column: AnyPgColumn) => sql<string | null>`(select u.usr_name from ${users} u where u.id = ${column})`;
