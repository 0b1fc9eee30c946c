import { programResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

export const programFields = defineFields(programResource, [
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'shortname', label: 'Short Name', kind: 'text' },
]);
