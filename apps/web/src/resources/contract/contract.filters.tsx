import { contractResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';
import { ROUND_OPTIONS } from './contract.fields';

/** The contract overview's advanced filters. */
export const contractFilters = defineFilters(contractResource, [
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' },
  { name: 'intake', label: 'Intake', kind: 'select', choices: 'contracts_intake' },
  { name: 'application_round', label: 'Round', kind: 'select', options: ROUND_OPTIONS },
  { name: 'contract_status_id', label: 'Status', kind: 'select', choices: 'contract_status' },
  { name: 'program_id', label: 'Program', kind: 'select', choices: 'programs' },
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
  { name: 'instalments', label: 'Instalments', kind: 'boolean', allowEmpty: true },
  { name: 'active', label: 'Active', kind: 'boolean', allowEmpty: true },
]);
