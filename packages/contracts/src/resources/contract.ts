import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { formatDate } from '../common/format.js';
import { defineResource, type RecordRow } from '../common/resource.js';
import { intake, isLeftOut, isoDate, wholeNumber as whole, optionalDate, optionalRef, optionalMultilineText, optionalText, requiredRef, requiredText } from '../common/fields.js';
import { canTransition, contractStatusName, STATUS_ACTIONS, statusActionsFrom } from '../rules/contract-status.js';
import { createTransactionFee, downloadInvoiceDetails, planInvoices, switchToSemesterPayment } from './invoice-planning.js';
import { downloadStudentAgreements, importBankinfo, importContracts, importDreamApply } from './contract-import.js';
import { contractFinanceActions } from './contract-finance.js';
import { planScholarshipPayments } from './scholarship-payment.js';
import { InvoiceFilterSchema } from './invoice.js';

const nullableText = z.string().nullable();
const nullableId = z.number().int().nullable();

export const ContractSchema = z.object({
  id: z.number().int(),
  application_number: z.string(),
  student_id: z.number().int(),
  student_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** The student's e-mail address: where the contract's mails go (empty when the student has none). */
  student_email: z.string(),
  contract_status_id: z.number().int(),
  contract_status_name: z.string(),
  contract_status_date: nullableText,
  scholarship_id: z.number().int(),
  scholarship_code: z.string(),
  program_id: z.number().int(),
  program_shortname: z.string(),
  intake: z.number().int(),
  application_round: z.number().int(),
  application_id: z.string(),
  da_application_id: nullableText,
  da_offer_type_displayname: nullableText,
  y1_university_id: z.number().int(),
  y2_university_id: nullableId,
  year1_finished: z.boolean(),
  year2_finished: z.boolean(),
  active: z.boolean(),
  start_date: z.string(),
  end_date: z.string(),
  expected_graduation_date: nullableText,
  contract_sent_date: nullableText,
  contract_signed_date: nullableText,
  bankinfo_required: z.boolean(),
  bankinfo_emailrequest_timestamp: nullableText,
  bankinfo_updated_timestamp: nullableText,
  pf_status_email_timestamp: nullableText,
  check_universityfee_payment: z.boolean(),
  instalments: z.boolean(),
  number: nullableText,
  comments: nullableText,
  invoiced_amount: z.number(),
  payed_amount: z.number(),
  to_be_payed_amount: z.number(),
  planned_amount: z.number(),
  files: z.number().int(),
  edit_timestamp: z.string().nullable(),
});

export const APPLICATION_ROUNDS = [0, 1, 2, 3, 4, 5] as const;
const round = z.number({ error: (issue) => (isLeftOut(issue.input) ? 'Round is required' : 'Round must be 0 to 5') }).int('Round must be 0 to 5').min(0, 'Round must be 0 to 5').max(5, 'Round must be 0 to 5');

const editable = {
  student_id: requiredRef('Student'),
  scholarship_id: requiredRef('Scholarship'),
  program_id: requiredRef('Program'),
  intake: intake(),
  application_round: round,
  application_id: requiredText('Application ID', 50),
  da_application_id: optionalText('DA application ID', 50),
  da_offer_type_displayname: optionalText('DA offer type', 100),
  y1_university_id: requiredRef('University Y1'),
  y2_university_id: optionalRef('University Y2'),
  year1_finished: z.boolean(),
  year2_finished: z.boolean(),
  active: z.boolean(),
  start_date: isoDate('Start date'),
  end_date: isoDate('End date'),
  expected_graduation_date: optionalDate('Expected graduation date'),
  contract_sent_date: optionalDate('Contract sent date'),
  contract_signed_date: optionalDate('Contract signed date'),
  contract_status_date: optionalDate('Status date'),
  bankinfo_required: z.boolean({ error: 'Bank info required is required' }),
  check_universityfee_payment: z.boolean({ error: 'Check university fee payment is required' }),
  instalments: z.boolean({ error: 'Instalments is required' }),
  number: optionalText('Number', 50),
  comments: optionalMultilineText('Comments'),
};

/** A contract ends on or after its start: checked on the form, and by the service against the stored dates. */
export const endAfterStart = (c: { start_date?: string; end_date?: string }) => !c.start_date || !c.end_date || c.end_date >= c.start_date;
export const END_BEFORE_START = 'End date cannot be before the start date';

/**
 * Defaults of a new contract (spec §4). The end date may be left out: it is then the start date + 2 years − 1
 * day (contractEndDate), as the screen fills it, so scripts and imports get what the screen gets.
 */
export const ContractCreateSchema = z
  .object({
    ...editable,
    end_date: editable.end_date.optional(),
    year1_finished: editable.year1_finished.default(false),
    year2_finished: editable.year2_finished.default(false),
    active: editable.active.default(true),
    bankinfo_required: editable.bankinfo_required.default(true),
    check_universityfee_payment: editable.check_universityfee_payment.default(true),
    instalments: editable.instalments.default(false),
  })
  .refine(endAfterStart, { message: END_BEFORE_START, path: ['end_date'] });

export const ContractUpdateSchema = z
  .object(editable)
  .partial()
  .extend({ id: z.number().int().positive() })
  .refine(endAfterStart, { message: END_BEFORE_START, path: ['end_date'] });

const flag = (label: string) => z.enum(['true', 'false'], { error: `${label} must be true or false` }).optional();

/**
 * The contract filter's invoice fields (spec §2, issue 18 point 1): a contract matches when one of its invoices
 * meets all of those given, each with its meaning on the invoice overview (decision 020).
 */
export const CONTRACT_INVOICE_FILTER = InvoiceFilterSchema.pick({
  document_type_id: true,
  email_sent: true,
  open: true,
  pro_forma: true,
  planned_before: true,
  expired_after: true,
});
export const CONTRACT_INVOICE_FILTER_FIELDS = Object.keys(CONTRACT_INVOICE_FILTER.shape) as (keyof typeof CONTRACT_INVOICE_FILTER.shape)[];

export const ContractFilterSchema = z.object({
  contract_id: whole('contract_id').optional(),
  student_id: whole('student_id').optional(),
  intake: whole('intake').optional(),
  application_round: whole('application_round').optional(),
  contract_status_id: whole('contract_status_id').optional(),
  program_id: whole('program_id').optional(),
  scholarship_id: whole('scholarship_id').optional(),
  instalments: flag('instalments'),
  active: flag('active'),
  ...CONTRACT_INVOICE_FILTER.shape,
});

export const ContractStatusChangeSchema = z.object({
  contract_status_id: z
    .number({ error: 'contract_status_id is required' })
    .int('contract_status_id must be 1 to 6')
    .min(1, 'contract_status_id must be 1 to 6')
    .max(6, 'contract_status_id must be 1 to 6'),
});

/** Bulk Edit (spec §2 "Contract overview extras"): these fields only, over the selected contracts. */
export const CONTRACT_BULK_FIELDS = ['contract_status_date', 'year1_finished', 'y2_university_id', 'year2_finished', 'start_date', 'contract_sent_date'] as const;

const statusOf = (row: RecordRow) => Number(row.contract_status_id);

/**
 * The status actions (spec §4): one action, `PUT /contracts/{id}/update_status` as the spec names it, shown as
 * one button per target status offered from the current one, and as "Change status" on a selection.
 */
const updateStatus = defineAction({
  name: 'update_status',
  label: 'Change status',
  scope: 'record',
  input: ContractStatusChangeSchema,
  fields: [{ name: 'contract_status_id', label: 'New status', kind: 'select', choices: 'contract_status' }],
  variants: STATUS_ACTIONS.map((a) => ({ label: a.label, input: { contract_status_id: a.target } })),
  result: 'record',
  changesRecord: true,
  level: 'user',
  offeredWhen: (row, input) => {
    const from = statusOf(row);
    if (input === undefined) return statusActionsFrom(from).length > 0 ? null : `No status change is possible from "${contractStatusName(from)}"`;
    return canTransition(from, input.contract_status_id)
      ? null
      : `A contract with status "${contractStatusName(from)}" cannot change to "${contractStatusName(input.contract_status_id)}"`;
  },
  batch: { label: 'Change status' },
  specPath: 'PUT /contracts/:id/update_status',
  failureText: 'changing the contract status',
});

/** Sets contract_sent_date to today: the contract went out to the student. */
const markSent = defineAction({
  name: 'mark_sent',
  label: 'Mark contract sent',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'user',
  offeredWhen: (row) => (row.contract_sent_date ? `The contract was already marked sent on ${formatDate(String(row.contract_sent_date))}` : null),
  batch: { label: 'Mark contract sent' },
  failureText: 'marking the contract sent',
});

/**
 * Why the contract's mails cannot go out (null: they can): a person reads this on the disabled button, in the
 * 409 of a single send and in a batch's `Error for {reference}: …` line and preview.
 */
export function whyNoMail(row: RecordRow): string | null {
  if (!row.active) return 'The contract is not active';
  if (String(row.student_email ?? '').trim() === '') return 'The student has no e-mail address';
  return null;
}

/** The batch of a mail action previews first: nothing is sent until the preview is confirmed. */
const mailBatch = (label: string) => ({ label, preview: true, confirm: 'First a preview: who would get the e-mail, and who is skipped and why. Nothing is sent until you confirm.' });

/** The contract's mails (issue 12 point 5): each renders its template and queues it in the outbox to the student. */
const mailAction = (name: string, label: string, extra: { batch?: ReturnType<typeof mailBatch> } = {}) =>
  defineAction({
    name,
    label,
    scope: 'record',
    input: z.object({}),
    result: 'message',
    // Every batch action but Bulk Edit needs a User (issue 18 point 8).
    level: 'user',
    offeredWhen: (row) => whyNoMail(row),
    // A mail cannot be called back: one click more before it goes.
    confirm: `${label}: the e-mail goes to the student's address.`,
    failureText: 'sending email',
    ...extra,
  });

/** Asks the student for their bank details; the request's timestamps are set when the SMTP server accepts it. */
// Its derived path is the spec's own: `POST /contracts/{id}/send_bankinfo_request`.
const sendBankinfoRequest = mailAction('send_bankinfo_request', 'Send bank info request', { batch: mailBatch('Email bank info request') });

/** The participation-fee status; `pf_status_email_timestamp` is set when the SMTP server accepts it. */
const sendPfStatus = mailAction('send_pf_status', 'Send PF status', { batch: mailBatch('Send PF Status') });

/** How to pay: the office's account and the amount still to be paid. */
// The spec's path (§7): `POST /contracts/{id}/send_email_paymentinfo`.
const sendPaymentInfo = mailAction('send_email_paymentinfo', 'Send payment info');

const money = (label: string) =>
  z
    .number({ error: `${label} is required` })
    .positive(`${label} must be more than 0`)
    .max(1_000_000_000, `${label} is too large`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${label} has at most two decimals`);

export const RefundRequestSchema = z.object({
  /** Empty: the contract's credit (what was paid beyond what is invoiced). */
  amount: money('Amount').optional(),
  reason: requiredText('Reason', 500),
});

/**
 * Asks the student where a refund should go (issue 14 point 5): offered on a contract with a credit (paid
 * beyond what is invoiced); the amount is the credit unless the office says another; the reason is the office's.
 */
const requestRefundInfo = defineAction({
  name: 'request_refund_info',
  label: 'Request payment info for refund',
  scope: 'record',
  input: RefundRequestSchema,
  fields: [
    { name: 'amount', label: 'Amount', kind: 'money', description: "Empty: the contract's credit" },
    { name: 'reason', label: 'Reason', kind: 'text' },
  ],
  confirm: "Request payment info for refund: the e-mail goes to the student's address.",
  result: 'message',
  level: 'user',
  offeredWhen: (row) => whyNoMail(row) ?? (Number(row.to_be_payed_amount ?? 0) < 0 ? null : 'The contract has no credit to refund'),
  failureText: 'sending email',
});

export type Contract = z.infer<typeof ContractSchema>;

/** The contract's own actions, for the API to bind its service functions to. */
export const contractActions = { updateStatus, markSent, sendBankinfoRequest, sendPfStatus, sendPaymentInfo, requestRefundInfo };

export const contractResource = defineResource({
  key: 'contract',
  title: 'Contract',
  titlePlural: 'Contracts',
  apiPath: 'contracts',
  routes: { overview: '/contracts', detail: '/contract' },
  schema: ContractSchema,
  createSchema: ContractCreateSchema,
  updateSchema: ContractUpdateSchema,
  filterSchema: ContractFilterSchema,
  sortable: [
    'application_number',
    'student_name',
    'last_name',
    'contract_status_name',
    'scholarship_code',
    'program_shortname',
    'intake',
    'start_date',
    'end_date',
    'contract_sent_date',
    'bankinfo_emailrequest_timestamp',
    'bankinfo_updated_timestamp',
    'pf_status_email_timestamp',
    'edit_timestamp',
  ],
  defaultSort: [{ field: 'last_name', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: 'application_number',
  historyLink: 'contract_id',
  columns: [
    { field: 'application_number', title: 'Application Number', nowrap: true },
    // The overview's default sort is the last name: the column shows it.
    { field: 'student_name', title: 'Student Name', sortKey: 'last_name', width: 196 },
    { field: 'contract_status_name', title: 'Status' },
    { field: 'scholarship_code', title: 'Code', nowrap: true, width: 84 },
    { field: 'program_shortname', title: 'Program', width: 84 },
    { field: 'intake', title: 'Intake', format: 'number', width: 56, overview: false },
    { field: 'application_round', title: 'Round', format: 'number', width: 56, overview: false },
    { field: 'start_date', title: 'Start Date', format: 'date' },
    { field: 'end_date', title: 'End Date', format: 'date' },
    { field: 'contract_sent_date', title: 'Contract Sent', format: 'date' },
    { field: 'bankinfo_emailrequest_timestamp', title: 'Bank Request', format: 'datetime' },
    { field: 'bankinfo_updated_timestamp', title: 'Bank Updated', format: 'datetime' },
    { field: 'pf_status_email_timestamp', title: 'PF Status Sent', format: 'datetime' },
    { field: 'invoiced_amount', title: 'Invoiced', format: 'money', width: 98, overview: false },
    { field: 'payed_amount', title: 'Paid', format: 'money', width: 98, overview: false },
    { field: 'to_be_payed_amount', title: 'Open', format: 'money', width: 98, overview: false },
    { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  ],
  actions: [
    updateStatus, markSent, sendBankinfoRequest, sendPfStatus, sendPaymentInfo, requestRefundInfo, planInvoices, switchToSemesterPayment, planScholarshipPayments,
    createTransactionFee, downloadInvoiceDetails, contractFinanceActions.downloadPaymentStatus, contractFinanceActions.downloadPfPaymentStatus,
    // The overview's menus in the spec's order (§2 Contract overview extras), the finance exports it adds last.
    contractFinanceActions.downloadBalance, contractFinanceActions.downloadPaymentsDue, downloadStudentAgreements,
    contractFinanceActions.downloadPaymentStatusList, contractFinanceActions.downloadPaymentStatusPeriod,
    importDreamApply, importContracts, importBankinfo,
  ],
  bulkEdit: { fields: CONTRACT_BULK_FIELDS, level: 'administrator' },
  export: { filename: 'Contracts.xlsx', sheet: 'Contracts', label: 'Export report', before: 'download_payments_due' },
  rules: {
    // The application ID is how an import from DreamApply finds the contract again (issue 16): changing it by
    // hand would make the next import create a second contract.
    readOnlyFields: (row): Record<string, string> => {
      if (!row.da_application_id) return {};
      const reason = 'This contract came from DreamApply: its application ID links it to the application';
      return { application_id: reason, da_application_id: reason };
    },
    // Documents are what people uploaded: deleting the contract must not take them along in silence.
    cannotDelete: (row) => (Number(row.files) > 0 ? `This contract has ${Number(row.files)} document(s): delete them first` : null),
  },
});
