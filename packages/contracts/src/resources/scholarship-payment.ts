import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { ExportRequestSchema } from '../common/resource-actions.js';
import { defineResource, type RecordRow } from '../common/resource.js';
import { isoDate, nonNegativeMoney, optionalRef, optionalMultilineText, optionalText, requiredRef, requiredText, wholeNumber } from '../common/fields.js';
import { SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE } from '../rules/scholarship-payments.js';

const nullableText = z.string().nullable();
const nullableId = z.number().int().nullable();

/** A scholarship payment as the API answers it (spec §3), planned or numbered. */
export const ScholarshipPaymentSchema = z.object({
  id: z.number().int(),
  number: nullableText,
  contract_id: z.number().int(),
  contract: z.string(),
  student_id: z.number().int(),
  student_name: z.string(),
  intake: z.number().int(),
  scholarship_id: z.number().int(),
  scholarship_payment_type_id: z.number().int(),
  scholarship_payment_type: z.string(),
  period: nullableText,
  amount: z.number(),
  description: nullableText,
  planned_date: z.string(),
  payment_date: nullableText,
  comments: nullableText,
  university_id: nullableId,
  university: nullableText,
  linked_invoice_id: nullableId,
  linked_invoice_number: nullableText,
  exported_timestamp: nullableText,
  exported_user: nullableText,
  exported_userid: nullableId,
  payment_allowed: z.boolean(),
  creation_timestamp: nullableText,
  creation_user: nullableText,
  edit_timestamp: z.string().nullable(),
  edit_user: nullableText,
});

/** Required fields of spec §5: contract, payment type, amount, planned date (type 2 also a linked invoice: see below). */
const editable = {
  contract_id: requiredRef('Contract'),
  scholarship_payment_type_id: requiredRef('Payment type'),
  // Planned at 0 is a fee not charged (decision 038); below 0 is nothing that can be invoiced or paid out.
  amount: nonNegativeMoney('Amount'),
  planned_date: isoDate('Planned date'),
  period: optionalText('Period', 40),
  description: optionalText('Description', 500),
  comments: optionalMultilineText('Comments'),
  university_id: optionalRef('University'),
  linked_invoice_id: optionalRef('Linked invoice or credit note'),
};

/**
 * Spec §5: a university fee (type 2) names the invoice or credit note it settles. Checked as soon as type and
 * link are readable, whatever the other fields, so a form shows it (and keeps Save disabled) at once; the API
 * also checks it on every change of the merged record, and that the link is the contract's.
 */
export const ScholarshipPaymentCreateSchema = z.object(editable).refine(
  (v) => v.scholarship_payment_type_id !== SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE || (v.linked_invoice_id !== null && v.linked_invoice_id !== undefined),
  {
    message: 'A university fee payment (type 2) needs its linked invoice or credit note',
    path: ['linked_invoice_id'],
    // Not when the body is no object at all (an issue at its root), nor when type or link are themselves wrong.
    when: ({ issues }) => !issues.some((i) => !i.path?.length || ['scholarship_payment_type_id', 'linked_invoice_id'].includes(String(i.path[0]))),
  },
);

export const ScholarshipPaymentUpdateSchema = z
  .object({ ...editable, payment_date: isoDate('Payment date'), payment_allowed: z.boolean({ error: 'Export allowed must be true or false' }) })
  .partial()
  .extend({ id: z.number().int().positive() });

const flag = (label: string) => z.enum(['true', 'false'], { error: `${label} must be true or false` }).optional();

/** The view flags and the advanced filter of spec §2 (Scholarship payments), plus what the scholarship overview opens. */
export const ScholarshipPaymentFilterSchema = z.object({
  planned: flag('planned'),
  numbered: flag('numbered'),
  exported: flag('exported'),
  contract_id: wholeNumber('contract_id').optional(),
  planned_before: isoDate('planned_before').optional(),
  exported_after: isoDate('exported_after').optional(),
  export_id: wholeNumber('export_id').optional(),
  ready_for_export: flag('ready_for_export'),
  scholarship_payment_type_id: wholeNumber('scholarship_payment_type_id').optional(),
  amount: z
    .string({ error: 'amount must be an amount like 12.50' })
    .regex(/^-?\d{1,10}(\.\d{1,2})?$/, 'amount must be an amount like 12.50')
    .optional(),
  payment_date: isoDate('payment_date').optional(),
  intake: wholeNumber('intake').optional(),
  scholarship_id: wholeNumber('scholarship_id').optional(),
});

export type ScholarshipPayment = z.infer<typeof ScholarshipPaymentSchema>;

const isNumbered = (row: RecordRow) => row.number !== null && row.number !== undefined;
const isExported = (row: RecordRow) => row.exported_timestamp !== null && row.exported_timestamp !== undefined;

/**
 * Create payment (spec §7 `POST /scholarship_payments/{id}/create_payment`; batch "Schedule Payments",
 * `POST /scholarship_payments/create_payments`, with a preview): numbers a planned payment `S2026-00001`, dates
 * it and checks the payee's bank data.
 */
const createPayment = defineAction({
  name: 'create_payment',
  label: 'Create Payment',
  scope: 'record',
  input: z.object({ payment_date: isoDate('Payment date').optional() }),
  fields: [{ name: 'payment_date', label: 'Payment date (empty: the planned date, or today if it has passed)', kind: 'date' }],
  result: 'record',
  changesRecord: true,
  level: 'user',
  views: ['planned'],
  offeredWhen: (row) => (isNumbered(row) ? `Payment ${String(row.number)} is already numbered` : null),
  batch: { label: 'Schedule Payments', preview: true, inOrder: true },
  batchPath: 'POST /scholarship_payments/create_payments',
  failureText: 'creating payment',
});

/** Reset Export (spec §2 numbered detail): the payment goes into the next export again. */
const resetExport = defineAction({
  name: 'reset_export',
  label: 'Reset Export',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'user',
  views: ['numbered'],
  confirm:
    'Reset the export of this payment? Only when the bank did not carry it out: it goes into the next export again, and if the bank paid the earlier file too, the payee is paid twice.',
  offeredWhen: (row) => (isExported(row) ? null : 'This payment has not been exported'),
  // A file the bank refused as a whole: the numbered view filtered by its export, every row selected, reset at once.
  batch: {
    label: 'Reset Export',
    confirm:
      'Reset the export of the selected payments? Only when the bank did not carry them out: they go into the next export again, and a payee the bank paid from the earlier file is paid twice.',
  },
  failureText: 'resetting export',
});

/**
 * Export Payments (spec §7 `POST /scholarship_payments/export_payments`): every numbered, allowed, not exported
 * payment — of the selection, or of the overview's filter — into Payments.xlsx, and the SEPA file beside it,
 * marked exported at once.
 */
const exportPayments = defineAction({
  name: 'export_payments',
  label: 'Export Payments',
  scope: 'list',
  input: ExportRequestSchema,
  result: 'file',
  changesRecord: true,
  level: 'user',
  views: ['numbered'],
  filename: 'Payments.xlsx',
  confirm: 'Export the selected payments, or those of the current filter, that are ready (numbered, allowed, not yet exported) to the bank? They are marked exported.',
  summaryPath: '/scholarship_payments/export_payments/summary',
  failureText: 'exporting payments',
});

/**
 * The SEPA credit-transfer file (pain.001.001.03) of an export, chosen among the exports (newest first, each named
 * by its time, user, payments and total): the caller's own latest when none is chosen (decision 060).
 */
const downloadSepa = defineAction({
  name: 'download_sepa',
  label: 'Download SEPA file',
  scope: 'list',
  input: z.object({ export_id: wholeNumber('export_id').positive('export_id must be an export').optional() }),
  fields: [{ name: 'export_id', label: 'Export (empty: your latest)', kind: 'select', choices: 'scholarship_payment_exports' }],
  result: 'file',
  level: 'user',
  views: ['numbered'],
  filename: 'Payments.xml',
  selectionless: true,
  failureText: 'downloading the SEPA file',
});

/** The KIT payments sheet (spec §2, §9; decision 022). */
const downloadKitReport = defineAction({
  name: 'download_kit_report',
  label: 'KIT Payments',
  scope: 'list',
  input: ExportRequestSchema,
  result: 'file',
  level: 'user',
  views: ['numbered'],
  filename: 'KIT_Payments.xlsx',
  failureText: 'exporting KIT payments',
});

/** University fee check by period (spec §7 `export_university_fee_payments`, body period; default by spec §9). */
const exportUniversityFeePayments = defineAction({
  name: 'export_university_fee_payments',
  label: 'University Fee Check',
  scope: 'list',
  input: z.object({
    period: z
      .string({ error: 'Period must be text like 2026-2027/01' })
      .regex(/^\d{4}-\d{4}\/0[12]$/, { error: 'Period must be an academic period like 2026-2027/01', abort: true })
      // An academic year spans two years in a row: 2026-2030/01 is a typo, which would find nothing (decision 060).
      .refine((v) => Number(v.slice(5, 9)) === Number(v.slice(0, 4)) + 1, 'Period must be an academic period like 2026-2027/01: its second year follows its first')
      .optional(),
  }),
  fields: [{ name: 'period', label: 'Period (e.g. 2026-2027/01; empty: the current one)', kind: 'text' }],
  result: 'file',
  level: 'reader',
  filename: 'University_Fees.xlsx',
  selectionless: true,
  failureText: 'exporting university fee payments',
});

/**
 * Schedule payments per document_reference (spec §7 "Other actions"; issue 18 point 6): creates the payments of
 * every planned scholarship payment linked to an invoice with this reference, each as `create_payment` does.
 */
const scheduleByReference = defineAction({
  name: 'schedule_payments_by_reference',
  label: 'Schedule by Reference',
  scope: 'list',
  input: z.object({
    document_reference: requiredText('Document reference', 60),
    payment_date: isoDate('Payment date').optional(),
  }),
  fields: [
    { name: 'document_reference', label: 'Document reference of the invoice', kind: 'text' },
    { name: 'payment_date', label: 'Payment date (empty: the planned date, or today if it has passed)', kind: 'date' },
  ],
  result: 'message',
  level: 'user',
  views: ['planned'],
  selectionless: true,
  failureText: 'scheduling payments',
});

/** Plan scholarship payments of a contract (issue 15 point 2): a contract action, single and batch with a preview. */
export const planScholarshipPayments = defineAction({
  name: 'plan_scholarship_payments',
  label: 'Plan scholarship payments',
  scope: 'record',
  input: z.object({}),
  result: 'message',
  level: 'user',
  batch: { label: 'Plan scholarship payments', preview: true },
  failureText: 'planning scholarship payments',
});

export const scholarshipPaymentActions = { createPayment, resetExport, exportPayments, downloadSepa, downloadKitReport, exportUniversityFeePayments, scheduleByReference };

const columns = [
  { field: 'number', title: 'Number', nowrap: true },
  { field: 'contract', title: 'Contract', nowrap: true },
  { field: 'student_name', title: 'Student', width: 180 },
  { field: 'scholarship_payment_type', title: 'Type', width: 130 },
  { field: 'period', title: 'Period', nowrap: true },
  { field: 'amount', title: 'Amount', format: 'money' },
  { field: 'planned_date', title: 'Planned', format: 'date' },
  { field: 'payment_date', title: 'Payment Date', format: 'date' },
  { field: 'exported_timestamp', title: 'Exported', format: 'datetime' },
  { field: 'payment_allowed', title: 'Export Allowed', format: 'bool' },
  { field: 'description', title: 'Description', overview: false },
  { field: 'university', title: 'University', overview: false },
  { field: 'linked_invoice_number', title: 'Linked Invoice', overview: false },
  { field: 'exported_user', title: 'Exported By', overview: false },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  { field: 'comments', title: 'Comments', width: 200 },
] as const;

export const scholarshipPaymentResource = defineResource({
  key: 'scholarship_payment',
  title: 'Scholarship Payment',
  titlePlural: 'Scholarship Payments',
  apiPath: 'scholarship_payments',
  routes: { overview: '/scholarshippayments/planned', detail: '/scholarshippayment/planned' },
  schema: ScholarshipPaymentSchema,
  createSchema: ScholarshipPaymentCreateSchema,
  updateSchema: ScholarshipPaymentUpdateSchema,
  filterSchema: ScholarshipPaymentFilterSchema,
  sortable: ['number', 'contract', 'student_name', 'scholarship_payment_type', 'period', 'amount', 'planned_date', 'payment_date', 'exported_timestamp', 'payment_allowed', 'edit_timestamp'],
  defaultSort: [{ field: 'planned_date', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: ['number', 'contract', 'period'],
  columns,
  views: [
    {
      key: 'planned',
      title: 'Planned Scholarship Payments',
      titleSingular: 'Planned Scholarship Payment',
      routes: { overview: '/scholarshippayments/planned', detail: '/scholarshippayment/planned' },
      fixedFilter: { planned: 'true' },
      columns: ['contract', 'student_name', 'scholarship_payment_type', 'period', 'amount', 'planned_date', 'edit_timestamp', 'comments'],
      defaultSort: [{ field: 'planned_date', direction: 'asc' }],
    },
    {
      key: 'numbered',
      title: 'Numbered Scholarship Payments',
      titleSingular: 'Numbered Scholarship Payment',
      routes: { overview: '/scholarshippayments/numbered', detail: '/scholarshippayment/numbered' },
      fixedFilter: { numbered: 'true' },
      columns: [
        'number', 'contract', 'student_name', 'scholarship_payment_type', 'period', 'amount', 'planned_date', 'payment_date', 'exported_timestamp',
        'payment_allowed', 'edit_timestamp', 'comments',
      ],
      defaultSort: [{ field: 'number', direction: 'asc' }],
    },
  ],
  actions: [createPayment, resetExport, exportPayments, downloadSepa, downloadKitReport, exportUniversityFeePayments, scheduleByReference],
  // After what the spec names (§2 Scholarship payment screens), before this product's own additions.
  export: { filename: 'Scholarship_Payments.xlsx', sheet: 'Scholarship payments', label: 'Export Selection', before: 'schedule_payments_by_reference' },
  bulkEdit: { fields: ['amount', 'payment_date'], level: 'administrator' },
  rules: {
    readOnlyFields: (row): Record<string, string> => {
      if (!isNumbered(row)) return { payment_date: 'It is set when the payment is created', payment_allowed: 'It is set when the payment is created' };
      const numbered = `Payment ${String(row.number)} is numbered`;
      const fixed: Record<string, string> = { contract_id: numbered, scholarship_payment_type_id: numbered, linked_invoice_id: numbered, university_id: numbered };
      if (isExported(row)) {
        const exported = `Payment ${String(row.number)} has been exported to the bank: reset the export first`;
        for (const f of ['amount', 'payment_date', 'planned_date', 'payment_allowed', 'period']) fixed[f] = exported;
      }
      return fixed;
    },
    cannotDelete: (row) => (isNumbered(row) ? `Payment ${String(row.number)} is numbered and cannot be deleted` : null),
  },
});

/**
 * The Scholarship overview (by scholarship) of spec §2 (issue 18 point 10): one row per scholarship, intake and
 * payment type with the count and sum of its planned, numbered and exported payments (numbered includes the
 * exported ones, as the numbered view does). `GET /scholarship_payments/by_scholarship`.
 */
export const SCHOLARSHIP_OVERVIEW_PATH = 'scholarship_payments/by_scholarship';

export const ScholarshipOverviewFilterSchema = z.object({
  intake: wholeNumber('intake').optional(),
  scholarship_payment_type_id: wholeNumber('scholarship_payment_type_id').optional(),
});

export const ScholarshipOverviewRowSchema = z.object({
  scholarship_id: z.number().int(),
  scholarship_code: z.string(),
  intake: z.number().int(),
  scholarship_payment_type_id: z.number().int(),
  scholarship_payment_type: z.string(),
  planned_count: z.number().int(),
  planned_amount: z.number(),
  numbered_count: z.number().int(),
  numbered_amount: z.number(),
  exported_count: z.number().int(),
  exported_amount: z.number(),
});
export type ScholarshipOverviewRow = z.infer<typeof ScholarshipOverviewRowSchema>;

/** The filters of the payment views that show the payments behind a row of the scholarship overview. */
export function scholarshipOverviewLinks(row: Pick<ScholarshipOverviewRow, 'scholarship_id' | 'intake' | 'scholarship_payment_type_id'>) {
  const q = `intake=${row.intake}&scholarship_id=${row.scholarship_id}&scholarship_payment_type_id=${row.scholarship_payment_type_id}`;
  return {
    planned: `/scholarshippayments/planned?${q}`,
    numbered: `/scholarshippayments/numbered?${q}`,
    exported: `/scholarshippayments/numbered?${q}&exported=true`,
  };
}
