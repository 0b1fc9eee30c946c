import { STUDENT_FEE_AMOUNTS, studentFeeResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

export const studentFeeFields = defineFields(studentFeeResource, [
  { name: 'intake', label: 'Intake', kind: 'number', placeholder: 'e.g. 2024' },
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
  // New amounts show the create schema's default, 0 (spec §5).
  ...STUDENT_FEE_AMOUNTS.map(([name, label]) => ({ name, label, kind: 'money' as const })),
]);
