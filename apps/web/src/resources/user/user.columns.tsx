import { userResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const userColumns = defineColumns(userResource, [
  { field: 'usr_login_name', title: 'Login' },
  { field: 'usr_name', title: 'Name' },
  { field: 'userrole_name', title: 'Role' },
  { field: 'usr_active', title: 'Active', format: 'bool', width: 80 },
]);
