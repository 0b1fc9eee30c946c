import { studentResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';

/** The students' advanced filters (spec §2). */
export const studentFilters = defineFilters(studentResource, [
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'email_address', label: 'Email Address', kind: 'text' },
  { name: 'address', label: 'Address', kind: 'text' },
  { name: 'bankinfo_requested_before', label: 'Bank info requested before', kind: 'date' },
  { name: 'bankinfo_updated_before', label: 'Bank info updated before', kind: 'date' },
]);
