import { invoicePaymentResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';

/** The invoice payments' advanced filter (spec §2 "Advanced filters": Contract/Student, Email Sent, Payment date after). */
export const invoicePaymentFilters = defineFilters(invoicePaymentResource, [
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' },
  { name: 'email_sent', label: 'Email Sent', kind: 'boolean', allowEmpty: true },
  { name: 'payment_date_after', label: 'Payment date after', kind: 'date' },
]);
