import { scholarshipPaymentResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';

/** The scholarship payment overviews' advanced filter (spec §2 "Advanced filters", Scholarship payments). */
export const scholarshipPaymentFilters = defineFilters(scholarshipPaymentResource, [
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'planned_before', label: 'Planned before', kind: 'date' },
  { name: 'exported_after', label: 'Exported after', kind: 'date' },
  { name: 'export_id', label: 'Export', kind: 'select', choices: 'scholarship_payment_exports' },
  { name: 'ready_for_export', label: 'Ready for export', kind: 'boolean', allowEmpty: true },
  { name: 'scholarship_payment_type_id', label: 'Payment Type', kind: 'select', choices: 'scholarship_payment_types' },
  { name: 'amount', label: 'Amount', kind: 'text' },
  { name: 'payment_date', label: 'Payment Date', kind: 'date' },
  { name: 'intake', label: 'Intake', kind: 'select', choices: 'contracts_intake' },
  { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' },
]);
