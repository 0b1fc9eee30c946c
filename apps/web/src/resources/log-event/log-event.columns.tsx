import { logEventResource } from '@app/contracts';
import { defineColumns } from '../../machinery/overview/types';

export const logEventColumns = defineColumns(logEventResource, [
  { field: 'le_time', title: 'Time', format: 'datetime', width: 140 },
  { field: 'eventtype', title: 'Event Type', width: 130 },
  { field: 'le_message', title: 'Message' },
  { field: 'student_name', title: 'Student' },
  { field: 'le_contract', title: 'Contract' },
  { field: 'usr_name', title: 'User' },
]);
