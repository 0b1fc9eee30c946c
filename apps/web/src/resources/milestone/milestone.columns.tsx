import { milestoneResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const milestoneColumns = defineColumns(milestoneResource, [
  { field: 'intake', title: 'Intake', width: 90 },
  { field: 'scholarship_code', title: 'Scholarship' },
  { field: 'year', title: 'Year', width: 70 },
  { field: 'milestone_date', title: 'Date', format: 'date' },
  { field: 'milestone_amount', title: 'Amount', format: 'money' },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
]);
