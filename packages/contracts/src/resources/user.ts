import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { requiredText } from '../common/fields.js';
import { MIN_PASSWORD_LENGTH, SessionUserSchema } from '../auth/session.js';
import { ROLE_IDS } from '../auth/roles.js';

/** The refusal of an Administrator's change to a Developer account. */
export const DEVELOPERS_ONLY = 'Only a Developer may create or change a Developer account';

/** A user as the users screens show it: the session user plus the overview's extra fields. */
export const UserSchema = SessionUserSchema.extend({
  usr_filter_active: z.boolean(),
  edit_timestamp: z.string().nullable(),
});

export const PasswordSchema = z
  .string({ error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200, 'Password must be at most 200 characters');

export const UserCreateSchema = z.object({
  usr_login_name: requiredText('Login', 100).regex(/^[A-Za-z0-9._@-]+$/, 'Login may hold the letters a–z and A–Z (no accents), digits and . _ @ - only'),
  usr_first_name: requiredText('First name', 100),
  usr_last_name: requiredText('Last name', 100),
  usr_role_id: z.number({ error: 'Role is required' }).int().min(1, 'Role is required').max(4, 'Role is not known'),
  usr_active: z.boolean({ error: 'Active is required' }),
  usr_filter_active: z.boolean().optional(),
  /** Write only: never answered. A user without one cannot log in until it is set. */
  usr_login_password: PasswordSchema.optional(),
});

export const UserUpdateSchema = UserCreateSchema.partial().extend({ id: z.number().int().positive() });

export type User = z.infer<typeof UserSchema>;

export const userResource = defineResource({
  key: 'user',
  title: 'User',
  titlePlural: 'Users',
  apiPath: 'users',
  routes: { overview: '/users', detail: '/user' },
  schema: UserSchema,
  createSchema: UserCreateSchema,
  updateSchema: UserUpdateSchema,
  // The users screen has no advanced search (spec §2, §6).
  filterSchema: z.object({}),
  sortable: ['usr_login_name', 'usr_name', 'userrole_name', 'usr_active', 'edit_timestamp'],
  defaultSort: [{ field: 'usr_login_name', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  // Users can never be deleted (spec §6): deactivate them instead.
  deletable: false,
  rules: {
    // Only a Developer manages Developer accounts (issue 10): an Administrator is refused, and not offered Edit.
    lockedFor: (row, role) => (row.usr_role_id === ROLE_IDS.Developer && role !== 'Developer' ? DEVELOPERS_ONLY : null),
  },
  secretFields: ['usr_login_password'],
  referenceField: 'usr_login_name',
  columns: [
    { field: 'usr_login_name', title: 'Login' },
    { field: 'usr_name', title: 'Name' },
    { field: 'userrole_name', title: 'Role' },
    { field: 'usr_active', title: 'Active', format: 'bool', width: 80 },
  ],
});
