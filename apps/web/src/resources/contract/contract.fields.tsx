import { APPLICATION_ROUNDS, contractEndDate, contractResource } from '@app/contracts';
import type { DeriveValues } from '../../machinery/detail/use-detail';
import { defineFields, type SelectOption } from '../../machinery/fields/types';

/** Round options 0 to 5 (spec §9). */
export const ROUND_OPTIONS: readonly SelectOption[] = APPLICATION_ROUNDS.map((r) => ({ value: r, label: String(r) }));

const CONTRACT = 'Contract';
const STUDY = 'Study';
const DATES = 'Dates';
const SETTINGS = 'Settings';
const AMOUNTS = 'Amounts';

/**
 * Every field of a contract (spec §3). Application number, status and the amounts are read-only: the status
 * changes with the status actions of the read-only screen, the amounts follow from invoices and payments.
 */
export const contractFields = defineFields(contractResource, [
  { name: 'application_number', label: 'Application Number', kind: 'text', readOnly: true, group: CONTRACT },
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students', group: CONTRACT },
  { name: 'contract_status_name', label: 'Status', kind: 'text', readOnly: true, group: CONTRACT },
  { name: 'contract_status_date', label: 'Status date', kind: 'date', group: CONTRACT },
  { name: 'application_id', label: 'Application ID', kind: 'text', group: CONTRACT },
  { name: 'number', label: 'Number', kind: 'text', group: CONTRACT },
  { name: 'da_application_id', label: 'DA application ID', kind: 'text', group: CONTRACT },
  { name: 'da_offer_type_displayname', label: 'DA offer type', kind: 'text', group: CONTRACT },

  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships', group: STUDY },
  { name: 'program_id', label: 'Program', kind: 'select', choices: 'programs', group: STUDY },
  { name: 'intake', label: 'Intake', kind: 'number', placeholder: 'e.g. 2024', group: STUDY },
  { name: 'application_round', label: 'Round', kind: 'select', options: ROUND_OPTIONS, group: STUDY },
  { name: 'y1_university_id', label: 'University Y1', kind: 'select', choices: 'universities', group: STUDY },
  { name: 'y2_university_id', label: 'University Y2', kind: 'select', choices: 'universities', group: STUDY },
  { name: 'year1_finished', label: 'Year 1 finished', kind: 'boolean', group: STUDY },
  { name: 'year2_finished', label: 'Year 2 finished', kind: 'boolean', group: STUDY },

  { name: 'start_date', label: 'Start date', kind: 'date', group: DATES },
  { name: 'end_date', label: 'End date', kind: 'date', group: DATES },
  { name: 'expected_graduation_date', label: 'Expected graduation date', kind: 'date', group: DATES },
  { name: 'contract_sent_date', label: 'Contract sent date', kind: 'date', group: DATES },
  { name: 'contract_signed_date', label: 'Contract signed date', kind: 'date', group: DATES },

  { name: 'active', label: 'Active', kind: 'boolean', group: SETTINGS },
  { name: 'bankinfo_required', label: 'Bank info required', kind: 'boolean', group: SETTINGS },
  { name: 'check_universityfee_payment', label: 'Check university fee payment', kind: 'boolean', group: SETTINGS },
  { name: 'instalments', label: 'Instalments', kind: 'boolean', group: SETTINGS },
  { name: 'comments', label: 'Comments', kind: 'textarea', span: 2, group: SETTINGS },

  { name: 'invoiced_amount', label: 'Invoiced amount', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'payed_amount', label: 'Paid amount', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'to_be_payed_amount', label: 'Amount to be paid', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'planned_amount', label: 'Planned amount', kind: 'money', readOnly: true, group: AMOUNTS },
]);

/** Setting a start date sets the end date: two years later minus one millisecond, as a day (spec §4). */
export const deriveContractValues: DeriveValues = (name, value) =>
  name === 'start_date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? { end_date: contractEndDate(value) } : undefined;
