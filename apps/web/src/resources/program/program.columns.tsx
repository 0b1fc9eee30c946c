import { programResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const programColumns = defineColumns(programResource, [
  { field: 'name', title: 'Name' },
  { field: 'shortname', title: 'Short Name' },
]);
