import { studentResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const studentColumns = defineColumns(studentResource, [
  { field: 'first_name', title: 'First Name' },
  { field: 'last_name', title: 'Last Name' },
  { field: 'citizenship1', title: 'Citizenship 1' },
  { field: 'address', title: 'Street Address' },
  { field: 'zip', title: 'Postal Code', width: 100 },
  { field: 'city', title: 'City' },
  { field: 'cntry', title: 'Country' },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
]);
