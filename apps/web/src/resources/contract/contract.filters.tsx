import { contractResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';
import { ROUND_OPTIONS } from './contract.fields';

/**
 * The contract overview's advanced filters, in the spec's order (§2); the invoice fields find contracts with a
 * matching invoice.
 */
export const contractFilters = defineFilters(contractResource, [
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' },
  { name: 'intake', label: 'Intake', kind: 'select', choices: 'contracts_intake' },
  { name: 'application_round', label: 'Round', kind: 'select', options: ROUND_OPTIONS },
  { name: 'contract_status_id', label: 'Status', kind: 'select', choices: 'contract_status' },
  { name: 'instalments', label: 'Instalments', kind: 'boolean', allowEmpty: true },
  { name: 'program_id', label: 'Program', kind: 'select', choices: 'programs' },
  // The invoice's own fields, as the invoice overviews' filter names them (resources/invoice/invoice.filters.tsx):
  // a contract matches when one of its invoices meets all those given (issue 18 point 1, decision 020).
  { name: 'document_type_id', label: 'Document Type', kind: 'select', choices: 'document_types_invoices' },
  { name: 'email_sent', label: 'Email Sent', kind: 'boolean', allowEmpty: true },
  { name: 'open', label: 'Open', kind: 'boolean', allowEmpty: true },
  { name: 'pro_forma', label: 'Pro Forma', kind: 'boolean', allowEmpty: true },
  { name: 'planned_before', label: 'Planned before', kind: 'date' },
  { name: 'expired_after', label: 'Expired after', kind: 'date' },
  // Beyond the spec's list: the contract's scholarship and whether it is the student's active one.
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
  { name: 'active', label: 'Active', kind: 'boolean', allowEmpty: true },
]);
