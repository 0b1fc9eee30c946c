import { logEventResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';

/** The log's advanced filters (spec §2: Student, User, Event Type, Event Time date range; Contract, decision 047). */
export const logEventFilters = defineFilters(logEventResource, [
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' },
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'usr_id', label: 'User', kind: 'select', choices: 'users' },
  { name: 'eventtype_id', label: 'Event Type', kind: 'select', choices: 'logging_types' },
  { name: 'le_time', label: 'Event Time', kind: 'dateRange' },
]);
