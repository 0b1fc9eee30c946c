import { userResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

/** The password is not a field: it is set with the Set Password dialog of the read-only page. */
export const userFields = defineFields(userResource, [
  { name: 'usr_login_name', label: 'Login', kind: 'text' },
  { name: 'usr_role_id', label: 'Role', kind: 'select', choices: 'userroles' },
  { name: 'usr_first_name', label: 'First name', kind: 'text' },
  { name: 'usr_last_name', label: 'Last name', kind: 'text' },
  // A new account is active unless unticked.
  { name: 'usr_active', label: 'Active', kind: 'boolean', defaultValue: true },
  { name: 'usr_filter_active', label: 'Filter active', kind: 'boolean' },
]);
