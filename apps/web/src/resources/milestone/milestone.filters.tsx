import { milestoneResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';
import { PROGRAM_YEARS } from './milestone.fields';

export const milestoneFilters = defineFilters(milestoneResource, [
  { name: 'intake', label: 'Intake', kind: 'number' },
  // The type's text is both id and name of this list, and is what the API filters on.
  { name: 'scholarship_type', label: 'Scholarship type', kind: 'select', choices: 'scholarships_type' },
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
  { name: 'year', label: 'Year', kind: 'select', options: PROGRAM_YEARS },
]);
