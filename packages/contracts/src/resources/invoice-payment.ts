import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { defineResource } from '../common/resource.js';
import { isoDate, money, optionalMultilineText, requiredRef, wholeNumber } from '../common/fields.js';

const nullableText = z.string().nullable();

/** An invoice payment as the API answers it (spec §3): net amount computed by the database. */
export const InvoicePaymentSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  invoice_id: z.number().int(),
  invoice: z.string(),
  contract_id: z.number().int(),
  contract: z.string(),
  student_id: z.number().int(),
  student_name: z.string(),
  payment_date: z.string(),
  amount_paid: z.number(),
  commission: z.number(),
  net_amount: z.number(),
  amount_shopify: z.number().nullable(),
  paid_by_shopify: z.boolean(),
  /** What the invoice still owes, all its payments counted (negative: paid too much). */
  invoice_open_amount: z.number(),
  payment_confirmation_timestamp: nullableText,
  payment_confirmation_user: nullableText,
  comments: nullableText,
  pdf_filename: nullableText,
  pdf_timestamp: nullableText,
  pdf_user: nullableText,
  creation_timestamp: nullableText,
  creation_user: nullableText,
  edit_timestamp: z.string().nullable(),
  edit_user: nullableText,
});

const positiveMoney = (label: string) => money(label).refine((v) => v > 0, `${label} must be more than 0`);
const optionalMoney = (label: string) => z.preprocess((v) => (v === '' ? null : v), money(label).refine((v) => v >= 0, `${label} cannot be negative`).nullish());

/** Spec §5: a payment needs its payment date; it belongs to a numbered invoice. */
const editable = {
  invoice_id: requiredRef('Invoice'),
  payment_date: isoDate('Payment date'),
  amount_paid: positiveMoney('Amount paid'),
  commission: money('Commission').refine((v) => v >= 0, 'Commission cannot be negative'),
  paid_by_shopify: z.boolean({ error: 'Paid by Shopify must be true or false' }),
  amount_shopify: optionalMoney('Amount Shopify'),
  comments: optionalMultilineText('Comments'),
  /** A payment beyond what the invoice still owes is refused (409) unless this says so (decision 021). */
  allow_overpayment: z.boolean({ error: 'allow_overpayment must be true or false' }).optional(),
};

export const COMMISSION_ABOVE_AMOUNT = 'Commission cannot be more than the amount paid';

/**
 * The shop's commission comes out of the amount paid: more would make the net amount negative (the database
 * checks it too). Either missing passes: an edit of one is compared with the other as stored, by the API.
 */
export const commissionWithinAmount = (v: { amount_paid?: number | null; commission?: number | null }): boolean =>
  v.amount_paid === undefined || v.amount_paid === null || v.commission === undefined || v.commission === null || v.commission <= v.amount_paid;

const commissionRule = {
  message: COMMISSION_ABOVE_AMOUNT,
  path: ['commission'],
  // Not when the body is no object at all (an issue at its root), nor when either amount is itself wrong.
  when: ({ issues }: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !issues.some((i) => !i.path?.length || ['amount_paid', 'commission'].includes(String(i.path[0]))),
};

/** Spec §4/§5: a new payment starts with commission 0. */
export const InvoicePaymentCreateSchema = z
  .object({
    ...editable,
    commission: editable.commission.default(0),
    paid_by_shopify: editable.paid_by_shopify.default(false),
  })
  .refine(commissionWithinAmount, commissionRule);

export const InvoicePaymentUpdateSchema = z
  .object(editable)
  .partial()
  .extend({ id: z.number().int().positive() })
  .refine(commissionWithinAmount, commissionRule);

const flag = (label: string) => z.enum(['true', 'false'], { error: `${label} must be true or false` }).optional();

/** The advanced filter of spec §2 (Invoice payments): Contract/Student, Email Sent, Payment date after. */
export const InvoicePaymentFilterSchema = z.object({
  contract_id: wholeNumber('contract_id').optional(),
  student_id: wholeNumber('student_id').optional(),
  invoice_id: wholeNumber('invoice_id').optional(),
  email_sent: flag('email_sent'),
  payment_date_after: isoDate('payment_date_after').optional(),
});

export type InvoicePayment = z.infer<typeof InvoicePaymentSchema>;

/** The confirmation PDF (spec §6: a developer may create it; send_email renders it when missing). */
const createPdf = defineAction({
  name: 'create_pdf',
  label: 'Create PDF',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'developer',
  failureText: 'creating pdf',
});

const downloadPdf = defineAction({
  name: 'download_pdf',
  label: 'Download PDF',
  scope: 'record',
  input: z.object({}),
  result: 'file',
  level: 'reader',
  offeredWhen: (row) => (row.pdf_filename ? null : 'No PDF has been created for this payment yet'),
  failureText: 'downloading pdf',
});

/** The payment confirmation by e-mail with its PDF (spec §2, §6 User level); the batch previews first. */
const sendEmail = defineAction({
  name: 'send_email',
  label: 'Send Email',
  scope: 'record',
  input: z.object({}),
  result: 'message',
  changesRecord: true,
  level: 'user',
  batch: { label: 'Send Payment Confirmation', preview: true },
  confirm: "Send the payment confirmation to the student's address?",
  doneBefore: (row) =>
    typeof row.payment_confirmation_timestamp === 'string' ? { what: 'The payment confirmation was already e-mailed', at: row.payment_confirmation_timestamp } : null,
  queuesMail: true,
  failureText: 'sending email',
});

export const invoicePaymentActions = { createPdf, downloadPdf, sendEmail };

const columns = [
  { field: 'number', title: 'Payment ID', nowrap: true },
  { field: 'invoice', title: 'Invoice Number', nowrap: true },
  { field: 'contract', title: 'Contract', nowrap: true },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'net_amount', title: 'Net Amount', format: 'money' },
  { field: 'commission', title: 'Commission', format: 'money' },
  { field: 'amount_paid', title: 'Amount Paid', format: 'money' },
  { field: 'payment_date', title: 'Payment Date', format: 'date' },
  { field: 'payment_confirmation_timestamp', title: 'Payment Confirmation', format: 'datetime' },
  { field: 'paid_by_shopify', title: 'Paid by Shopify', format: 'bool', overview: false },
  { field: 'amount_shopify', title: 'Amount Shopify', format: 'money', overview: false },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  { field: 'comments', title: 'Comments', width: 200, overview: false },
] as const;

export const invoicePaymentResource = defineResource({
  key: 'invoice_payment',
  title: 'Invoice Payment',
  titlePlural: 'Invoice Payments',
  apiPath: 'invoice_payments',
  routes: { overview: '/invoicepayments', detail: '/invoicepayment' },
  schema: InvoicePaymentSchema,
  createSchema: InvoicePaymentCreateSchema,
  updateSchema: InvoicePaymentUpdateSchema,
  filterSchema: InvoicePaymentFilterSchema,
  sortable: ['number', 'invoice', 'contract', 'student_name', 'net_amount', 'commission', 'amount_paid', 'payment_date', 'payment_confirmation_timestamp', 'edit_timestamp'],
  // Spec §2: "Invoice payments (by number)".
  defaultSort: [{ field: 'number', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: 'number',
  columns,
  actions: [createPdf, downloadPdf, sendEmail],
  export: { filename: 'Invoice_Payments.xlsx', sheet: 'Invoice payments', label: 'Export Selection' },
  rules: {
    // The invoice is chosen when the payment is booked; a payment on the wrong invoice is deleted and booked again.
    readOnlyFields: () => ({ invoice_id: 'It is set when the payment is created' }),
  },
});
