import { APPLICATION_ROUNDS, invoiceResource } from '@app/contracts';
import { defineFilters, type SelectOption } from '../../machinery/fields/types';
import { documentTypeChoices } from './invoice.fields';

const ROUND_OPTIONS: readonly SelectOption[] = APPLICATION_ROUNDS.map((r) => ({ value: r, label: String(r) }));

/** The invoice overviews' advanced filter (spec §2 "Advanced filters", Invoices). */
export const invoiceFilters = defineFilters(invoiceResource, [
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' },
  { name: 'intake', label: 'Intake', kind: 'select', choices: 'contracts_intake' },
  { name: 'application_round', label: 'Round', kind: 'select', options: ROUND_OPTIONS },
  { name: 'contract_status_id', label: 'Status', kind: 'select', choices: 'contract_status' },
  { name: 'instalments', label: 'Instalments', kind: 'boolean', allowEmpty: true },
  { name: 'program_id', label: 'Program', kind: 'select', choices: 'programs' },
  // The Credit Notes view offers the credit notes' types; the invoice views the invoices'.
  { name: 'document_type_id', label: 'Document Type', kind: 'select', choicesFor: (view) => documentTypeChoices(view.creditnote === 'true') },
  { name: 'email_sent', label: 'Email Sent', kind: 'boolean', allowEmpty: true },
  { name: 'open', label: 'Open', kind: 'boolean', allowEmpty: true },
  { name: 'pro_forma', label: 'Pro Forma', kind: 'boolean', allowEmpty: true },
  { name: 'planned_before', label: 'Planned before', kind: 'date' },
  { name: 'expired_after', label: 'Expired after', kind: 'date' },
]);
