import { eq, ilike, or } from 'drizzle-orm';
import { AppError, roleHasLevel, userResource } from '@app/contracts';
import { userroles, users } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, type Actor, type Row } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';
import { hashPassword } from '../../lib/auth/password.js';
import { endOtherSessions, sessionUserColumns } from '../../lib/auth/sessions.js';

/** Stored for an account created without a password: no password verifies against it. */
const NO_PASSWORD = '!';

async function withHashedPassword(values: Row): Promise<Row> {
  const password = values.usr_login_password;
  return typeof password === 'string' ? { ...values, usr_login_password: await hashPassword(password) } : values;
}

/**
 * Administrators and developers change any user; everyone else may only set their own password.
 * Nobody deactivates their own account or changes their own role (that would lock them out).
 */
function checkUpdate(changes: Row, current: Row, { user }: Actor): void {
  const self = current.id === user.id;
  if (!roleHasLevel(user.userrole_name, 'administrator')) {
    const onlyPassword = Object.keys(changes).every((field) => field === 'usr_login_password');
    if (!self || !onlyPassword) throw new AppError('FORBIDDEN', 'You may only set your own password');
  }
  if (self && changes.usr_active === false) throw new AppError('CONFLICT', 'You cannot deactivate your own account');
  if (self && changes.usr_role_id !== undefined && changes.usr_role_id !== current.usr_role_id) {
    throw new AppError('CONFLICT', 'You cannot change your own role');
  }
}

export function userModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx.db, {
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
      beforeCreate: async (_tx, values) =>
        values.usr_login_password === undefined ? { ...values, usr_login_password: NO_PASSWORD } : withHashedPassword(values),
      beforeUpdate: async (_tx, changes, current, actor) => {
        checkUpdate(changes, current, actor);
        return withHashedPassword(changes);
      },
      // A new password, or a deactivation, ends the user's other sessions at once.
      afterChange: async (tx, change, actor) => {
        if (change.op === 'update' && (change.changed.usr_login_password || change.changed.usr_active)) {
          await endOtherSessions(tx, change.id, change.id === actor.user.id ? actor.sessionId : undefined);
        }
      },
      updateEvent: (changed, reference) =>
        Object.keys(changed).join() === 'usr_login_password' ? { type: 'passwordChange', message: `Password of User ${reference} changed` } : undefined,
    },
  });
  return defineModule(ctx, service);
}

export const userChoices = (ctx: AppContext) => tableChoices(ctx.db, { table: users, id: users.id, label: users.usr_name });
