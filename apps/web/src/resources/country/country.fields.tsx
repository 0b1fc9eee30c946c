import { countryResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

export const countryFields = defineFields(countryResource, [
  { name: 'cntry_code', label: 'Code', kind: 'text', placeholder: 'e.g. DE' },
  { name: 'cntry_name', label: 'Name', kind: 'text' },
]);
