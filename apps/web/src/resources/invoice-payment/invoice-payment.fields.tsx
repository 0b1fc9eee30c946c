import { invoicePaymentResource } from '@app/contracts';
import type { DeriveValues } from '../../machinery/detail/use-detail';
import { defineFields, idParam, type FieldDef } from '../../machinery/fields/types';
import { toFormValue, toWireValue } from '../../machinery/fields/values';

const PAYMENT = 'Payment';
const AMOUNTS = 'Amounts';
const CONFIRMATION = 'Confirmation';

/**
 * The invoice payment detail (spec §3). The invoice is chosen when the payment is booked, among the invoices of
 * the contract chosen (or of every contract while none is); the payment keeps the invoice's contract and student.
 * The contract is only a narrowing of the invoice list: it is never sent. The net amount is the database's
 * (amount paid − commission); the form shows it live while either changes.
 */
export const invoicePaymentFields = defineFields(invoicePaymentResource, [
  { name: 'number', label: 'Payment ID', kind: 'text', readOnly: true, group: PAYMENT },
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts', readOnly: 'afterCreate', group: PAYMENT },
  {
    name: 'invoice_id',
    label: 'Invoice',
    kind: 'select',
    choices: 'invoices',
    choiceParamsFor: (values) => ({ contract_id: idParam(values.contract_id) }),
    readOnly: 'afterCreate',
    group: PAYMENT,
  },
  { name: 'student_name', label: 'Student Name', kind: 'text', readOnly: true, group: PAYMENT },
  { name: 'payment_date', label: 'Payment Date', kind: 'date', notAfterToday: true, group: PAYMENT },
  { name: 'paid_by_shopify', label: 'Paid by Shopify', kind: 'boolean', group: PAYMENT },

  { name: 'amount_paid', label: 'Amount Paid', kind: 'money', group: AMOUNTS },
  { name: 'commission', label: 'Commission', kind: 'money', group: AMOUNTS },
  { name: 'net_amount', label: 'Net Amount', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'amount_shopify', label: 'Amount Shopify', kind: 'money', group: AMOUNTS },
  { name: 'invoice_open_amount', label: 'Invoice still open', kind: 'money', readOnly: true, group: AMOUNTS },

  { name: 'payment_confirmation_timestamp', label: 'Payment Confirmation', kind: 'timestamp', readOnly: true, group: CONFIRMATION },
  { name: 'pdf_filename', label: 'PDF', kind: 'text', readOnly: true, group: CONFIRMATION },

  { name: 'comments', label: 'Comments', kind: 'textarea' },
]);

const moneyDef = invoicePaymentFields.find((f) => f.name === 'net_amount') as FieldDef;
const cents = (form: unknown): number | undefined => {
  const wire = toWireValue(moneyDef, form);
  return typeof wire === 'number' && Number.isFinite(wire) ? Math.round(wire * 100) : undefined;
};

/**
 * The net amount while amount paid or commission change: in whole cents, as the database computes it. Another
 * contract lets go of its invoice (see `choiceParamsFor`), and of the student and open amount that invoice showed.
 */
export const derivePaymentValues: DeriveValues = (name, _value, values) => {
  if (name === 'contract_id') return { student_name: '', invoice_open_amount: toFormValue(moneyDef, null) };
  if (name !== 'amount_paid' && name !== 'commission') return undefined;
  const paid = cents(values.amount_paid);
  const commission = cents(values.commission) ?? 0;
  return { net_amount: toFormValue(moneyDef, paid === undefined ? null : (paid - commission) / 100) };
};
