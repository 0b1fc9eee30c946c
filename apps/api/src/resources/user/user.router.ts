import { and, eq, ilike, ne, or } from 'drizzle-orm';
import { AppError, DEVELOPERS_ONLY, ROLE_IDS, roleHasLevel, userResource } from '@app/contracts';
import { userroles, users, type Tx } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, type Actor, type Row } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';
import { hashPassword } from '../../lib/auth/password.js';
import { endSessions, sessionUserColumns } from '../../lib/auth/sessions.js';

/** Stored for an account created without a password: no password verifies against it. */
const NO_PASSWORD = '!';

async function withHashedPassword(values: Row): Promise<Row> {
  const password = values.usr_login_password;
  return typeof password === 'string' ? { ...values, usr_login_password: await hashPassword(password) } : values;
}

/** Only a Developer touches a Developer account or makes one: an Administrator cannot raise anyone, themselves included, above their own rank. */
function checkDeveloperRank(role: unknown, { user }: Actor): void {
  if (role === ROLE_IDS.Developer && user.userrole_name !== 'Developer') {
    throw new AppError('FORBIDDEN', DEVELOPERS_ONLY);
  }
}

/**
 * Administrators and developers change any user (a Developer only by a Developer); everyone else may only set
 * their own password. Nobody deactivates their own account or changes their own role (that would lock them out).
 */
function checkUpdate(changes: Row, current: Row, actor: Actor): void {
  const { user } = actor;
  const self = current.id === user.id;
  if (!roleHasLevel(user.userrole_name, 'administrator')) {
    const onlyPassword = Object.keys(changes).every((field) => field === 'usr_login_password');
    if (!self || !onlyPassword) throw new AppError('FORBIDDEN', 'You may only set your own password');
  }
  // A Developer's own account is locked for others by the resource's rule (crud-service); raising one is here.
  checkDeveloperRank(changes.usr_role_id, actor);
  if (self && changes.usr_active === false) throw new AppError('CONFLICT', 'You cannot deactivate your own account');
  if (self && changes.usr_role_id !== undefined && changes.usr_role_id !== current.usr_role_id) {
    throw new AppError('CONFLICT', 'You cannot change your own role');
  }
}

/**
 * The office always keeps one active Developer (the only role that manages Developers). Requests meet the self
 * rules first; this guards work done on someone's behalf after they lost the role (a queued batch run). Two
 * Developers removing each other at once cannot both win: each update takes a key-share lock on its actor
 * (edit_user), which the other holds, so PostgreSQL refuses one of them (409, try again).
 */
async function keepOneDeveloper(tx: Tx, changes: Row, current: Row): Promise<void> {
  const removes = changes.usr_active === false || (changes.usr_role_id !== undefined && changes.usr_role_id !== ROLE_IDS.Developer);
  if (current.usr_role_id !== ROLE_IDS.Developer || !current.usr_active || !removes) return;
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.usr_role_id, ROLE_IDS.Developer), eq(users.usr_active, true), ne(users.id, Number(current.id))));
  if (others.length === 0) throw new AppError('CONFLICT', 'This is the last active Developer: make another user a Developer first');
}

export function userModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx, {
    resource: userResource,
    table: users,
    columns: { ...sessionUserColumns, usr_filter_active: users.usr_filter_active, edit_timestamp: users.edit_timestamp },
    joins: (q) => q.innerJoin(userroles, eq(userroles.id, users.usr_role_id)),
    search: (term) =>
      or(
        ilike(users.usr_login_name, likePattern(term)),
        ilike(users.usr_name, likePattern(term)),
        ilike(userroles.name, likePattern(term)),
      ),
    unique: { users_login_name_lower_idx: { field: 'usr_login_name', label: 'Login' } },
    hooks: {
      beforeCreate: async (_tx, values, actor) => {
        checkDeveloperRank(values.usr_role_id, actor);
        return values.usr_login_password === undefined ? { ...values, usr_login_password: NO_PASSWORD } : withHashedPassword(values);
      },
      beforeUpdate: async (tx, changes, current, actor) => {
        checkUpdate(changes, current, actor);
        await keepOneDeveloper(tx, changes, current);
        return withHashedPassword(changes);
      },
      // A new password, or a deactivation, ends the user's other sessions at once.
      afterChange: async (tx, change, actor) => {
        if (change.op === 'update' && (change.changed.usr_login_password || change.changed.usr_active)) {
          await endSessions(tx, change.id, change.id === actor.user.id ? actor.sessionId : undefined);
        }
      },
      updateEvent: (changed, reference) =>
        Object.keys(changed).join() === 'usr_login_password' ? { type: 'passwordChange', message: `Password of User ${reference} changed` } : undefined,
    },
  });
  return defineModule(ctx, service);
}

export const userChoices = (ctx: AppContext) => tableChoices(ctx.db, { table: users, id: users.id, label: users.usr_name });
