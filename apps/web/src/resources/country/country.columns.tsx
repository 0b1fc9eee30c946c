import { countryResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const countryColumns = defineColumns(countryResource, [
  { field: 'cntry_code', title: 'Code', width: 120 },
  { field: 'cntry_name', title: 'Name' },
]);
