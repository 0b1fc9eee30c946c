import { STUDENT_FEE_AMOUNTS, studentFeeResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const studentFeeColumns = defineColumns(studentFeeResource, [
  { field: 'intake', title: 'Intake', width: 90 },
  { field: 'scholarship_code', title: 'Scholarship' },
  ...STUDENT_FEE_AMOUNTS.map(([field, title]) => ({ field, title, format: 'money' as const })),
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
]);
