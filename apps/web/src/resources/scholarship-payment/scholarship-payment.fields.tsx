import { scholarshipPaymentResource } from '@app/contracts';
import { defineFields, idParam } from '../../machinery/fields/types';

const PAYMENT = 'Payment';
const DATES = 'Dates';
const PAYEE = 'Payee and export';

/**
 * The scholarship payment detail (spec §3). Number, payment date and export state come from create_payment and
 * the export; a university fee (type 2) names the invoice or credit note it settles (spec §5), chosen from the
 * server-searched `invoices_credit_notes` list of the contract chosen (the API refuses one of another contract);
 * choosing another contract lets go of the one held.
 */
export const scholarshipPaymentFields = defineFields(scholarshipPaymentResource, [
  { name: 'number', label: 'Number', kind: 'text', readOnly: true, group: PAYMENT },
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts', group: PAYMENT },
  { name: 'student_name', label: 'Student', kind: 'text', readOnly: true, group: PAYMENT },
  { name: 'scholarship_payment_type_id', label: 'Payment Type', kind: 'select', choices: 'scholarship_payment_types', group: PAYMENT },
  { name: 'period', label: 'Period', kind: 'text', group: PAYMENT },
  { name: 'amount', label: 'Amount', kind: 'money', group: PAYMENT },
  { name: 'description', label: 'Description', kind: 'text', group: PAYMENT },

  { name: 'planned_date', label: 'Planned Date', kind: 'date', group: DATES },
  { name: 'payment_date', label: 'Payment Date', kind: 'date', group: DATES },

  { name: 'university_id', label: 'University', kind: 'select', choices: 'universities', group: PAYEE },
  {
    name: 'linked_invoice_id',
    label: 'Linked invoice or credit note',
    kind: 'select',
    choices: 'invoices_credit_notes',
    choiceParamsFor: (values) => ({ contract_id: idParam(values.contract_id) }),
    group: PAYEE,
  },
  { name: 'linked_invoice_number', label: 'Linked Invoice Number', kind: 'text', readOnly: true, group: PAYEE },
  { name: 'payment_allowed', label: 'Export Allowed', kind: 'boolean', group: PAYEE },
  { name: 'exported_timestamp', label: 'Exported', kind: 'timestamp', readOnly: true, group: PAYEE },
  { name: 'exported_user', label: 'Exported By', kind: 'text', readOnly: true, group: PAYEE },

  { name: 'comments', label: 'Comments', kind: 'textarea' },
]);
