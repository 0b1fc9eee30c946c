import { universityResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const universityColumns = defineColumns(universityResource, [
  { field: 'name', title: 'Name' },
  { field: 'shortname', title: 'Short Name' },
]);
