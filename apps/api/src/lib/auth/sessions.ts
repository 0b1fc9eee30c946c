import { randomUUID } from 'node:crypto';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { SessionUser } from '@app/contracts';
import { sessions, userroles, users, type Database, type DbOrTx } from '@app/db';

/** The columns of a user as the API shows them (never the password). */
export const sessionUserColumns = {
  id: users.id,
  usr_login_name: users.usr_login_name,
  usr_name: users.usr_name,
  usr_first_name: users.usr_first_name,
  usr_last_name: users.usr_last_name,
  usr_role_id: users.usr_role_id,
  userrole_name: userroles.name,
  usr_active: users.usr_active,
};

export async function createSession(db: DbOrTx, userId: number, hours: number): Promise<{ id: string; expiresAt: Date }> {
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + hours * 3600_000);
  await db.insert(sessions).values({ id, user_id: userId, expires_at: expiresAt });
  return { id, expiresAt };
}

/**
 * The lookup every authenticated request makes, built once per database: Drizzle writes its text once, and each
 * pooled connection parses and plans it once (a named statement) instead of on every request.
 */
function sessionUserLookup(db: Database) {
  return db
    .select(sessionUserColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .innerJoin(userroles, eq(userroles.id, users.usr_role_id))
    .where(and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.user_id, sql.placeholder('userId')), gt(sessions.expires_at, sql`now()`)))
    .prepare('session_user');
}
const sessionUserLookups = new WeakMap<Database, ReturnType<typeof sessionUserLookup>>();

/** The user of a live session (expired or ended sessions find nothing). */
export async function findSessionUser(db: Database, sessionId: string, userId: number): Promise<SessionUser | undefined> {
  let lookup = sessionUserLookups.get(db);
  if (!lookup) sessionUserLookups.set(db, (lookup = sessionUserLookup(db)));
  const [row] = await lookup.execute({ sessionId, userId });
  return row;
}

/** An active user as the session would show them (for work done on their behalf, such as a batch run). */
export async function findActiveUser(db: DbOrTx, userId: number): Promise<SessionUser | undefined> {
  const [row] = await db
    .select(sessionUserColumns)
    .from(users)
    .innerJoin(userroles, eq(userroles.id, users.usr_role_id))
    .where(and(eq(users.id, userId), eq(users.usr_active, true)));
  return row;
}

/** Ends every session of a user (logout), or all but the one given (their own password change). */
export async function endSessions(db: DbOrTx, userId: number, keep?: string): Promise<void> {
  await db.delete(sessions).where(keep ? and(eq(sessions.user_id, userId), ne(sessions.id, keep)) : eq(sessions.user_id, userId));
}

/** Housekeeping: expired rows serve no purpose. */
export async function deleteExpiredSessions(db: DbOrTx): Promise<void> {
  await db.delete(sessions).where(sql`${sessions.expires_at} < now()`);
}
