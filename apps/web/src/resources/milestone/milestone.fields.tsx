import { milestoneResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

/** The two years of a scholarship programme. */
export const PROGRAM_YEARS = [
  { value: 1, label: '1' },
  { value: 2, label: '2' },
] as const;

export const milestoneFields = defineFields(milestoneResource, [
  { name: 'intake', label: 'Intake', kind: 'number', placeholder: 'e.g. 2024' },
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
  { name: 'year', label: 'Year', kind: 'select', options: PROGRAM_YEARS },
  { name: 'milestone_date', label: 'Date', kind: 'date' },
  { name: 'milestone_amount', label: 'Amount', kind: 'money' },
]);
