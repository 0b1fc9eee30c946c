import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { ExportRequestSchema } from '../common/resource-actions.js';
import { defineResource, type RecordRow } from '../common/resource.js';
import { isoDate, money, optionalDate, optionalText, requiredRef, requiredText, wholeNumber } from '../common/fields.js';
import { INVOICE_DOCUMENT_TYPE_IDS } from '../rules/document-types.js';

const nullableText = z.string().nullable();
const nullableId = z.number().int().nullable();

/** An invoice as the API answers it (spec §3): planned, numbered or credit note, with its amounts computed in SQL. */
export const InvoiceSchema = z.object({
  id: z.number().int(),
  document_reference: nullableText,
  number: nullableText,
  contract_id: z.number().int(),
  contract: z.string(),
  student_id: z.number().int(),
  student_name: z.string(),
  year: z.number().int(),
  semester: z.number().int(),
  amount: z.number(),
  /** What was invoiced: the amount less its credit notes. */
  total_amount: z.number(),
  payed_amount: z.number(),
  /** What is still open: the amount less its credit notes and payments. */
  to_be_payed_amount: z.number(),
  description: z.string(),
  planned_date: nullableText,
  invoice_date: nullableText,
  expiration_date: nullableText,
  extended_deadline_date: nullableText,
  email_timestamp: nullableText,
  email_reminder_timestamp: nullableText,
  credit_note: nullableText,
  linked_invoice_id: nullableId,
  linked_invoice_number: nullableText,
  comments: nullableText,
  is_locked: z.boolean(),
  is_expired: z.boolean(),
  is_creditnote: z.boolean(),
  document_type_id: z.number().int(),
  document_type: z.string(),
  pro_forma: z.boolean(),
  pdf_filename: nullableText,
  pdf_timestamp: nullableText,
  creation_timestamp: nullableText,
  edit_timestamp: z.string().nullable(),
});

const year = z.number({ error: 'Year is required' }).int('Year must be 1 to 5').min(1, 'Year must be 1 to 5').max(5, 'Year must be 1 to 5');
const semester = z
  .number({ error: 'Semester is required' })
  .int('Semester must be 0 (whole year), 1 or 2')
  .min(0, 'Semester must be 0 (whole year), 1 or 2')
  .max(2, 'Semester must be 0 (whole year), 1 or 2');
const invoiceType = z
  .number({ error: 'Document type is required' })
  .int('Document type must be 1, 3, 5, 7 or 9')
  .refine((v) => INVOICE_DOCUMENT_TYPE_IDS.includes(v), 'Document type must be 1, 3, 5, 7 or 9 (an invoice, not a credit note)');

/** Required fields of spec §5: contract, year, semester, description, amount; a planned invoice also a planned date. */
const editable = {
  contract_id: requiredRef('Contract'),
  year,
  semester,
  description: requiredText('Description', 500),
  amount: money('Amount'),
  planned_date: isoDate('Planned date'),
  document_type_id: invoiceType,
  pro_forma: z.boolean({ error: 'Pro forma must be true or false' }),
  extended_deadline_date: optionalDate('Extended deadline'),
  comments: optionalText('Comments', 5000),
};

/** A new invoice is a planned one (credit notes come from a numbered invoice, issue 13 point 6). */
export const InvoiceCreateSchema = z.object({
  ...editable,
  document_type_id: editable.document_type_id.default(1),
  pro_forma: editable.pro_forma.default(false),
});

export const InvoiceUpdateSchema = z.object(editable).partial().extend({ id: z.number().int().positive() });

const flag = (label: string) => z.enum(['true', 'false'], { error: `${label} must be true or false` }).optional();

/** The view flags and the advanced filter of spec §2 (Invoices), each a declared, indexed filter. */
export const InvoiceFilterSchema = z.object({
  planned: flag('planned'),
  numbered: flag('numbered'),
  creditnote: flag('creditnote'),
  contract_id: wholeNumber('contract_id').optional(),
  student_id: wholeNumber('student_id').optional(),
  intake: wholeNumber('intake').optional(),
  application_round: wholeNumber('application_round').optional(),
  contract_status_id: wholeNumber('contract_status_id').optional(),
  instalments: flag('instalments'),
  program_id: wholeNumber('program_id').optional(),
  document_type_id: wholeNumber('document_type_id').optional(),
  email_sent: flag('email_sent'),
  open: flag('open'),
  pro_forma: flag('pro_forma'),
  planned_before: isoDate('planned_before').optional(),
  expired_after: isoDate('expired_after').optional(),
});

/**
 * The optional parameters of the choice lists `invoices` and `invoices_credit_notes` (spec §7 "GET {x}/choice/
 * with optional params", issue 18 point 2): fields of the invoice filter, with the same meaning.
 */
export const InvoiceChoiceParamsSchema = InvoiceFilterSchema.pick({ contract_id: true, student_id: true, document_type_id: true, open: true, pro_forma: true });
export type InvoiceChoiceParams = z.infer<typeof InvoiceChoiceParamsSchema>;

export type Invoice = z.infer<typeof InvoiceSchema>;

/** DESIGN §11: what a numbered invoice keeps for good (corrections go through credit notes). */
export const INVOICE_FROZEN_FIELDS = ['amount', 'contract_id', 'year', 'semester', 'document_type_id', 'description'] as const;

const isNumbered = (row: RecordRow) => row.number !== null && row.number !== undefined;

/**
 * Create invoice (issue 13 point 4, spec §7 `POST /invoices/{id}/create_pdf`): numbers a planned invoice, dates
 * it and stores its PDF in one transaction. The batch "Create Invoice" of the planned view previews first.
 */
const createPdf = defineAction({
  name: 'create_pdf',
  label: 'Create PDF',
  scope: 'record',
  input: z.object({ invoice_date: isoDate('Invoice date').optional() }),
  result: 'record',
  level: 'user',
  views: ['planned'],
  offeredWhen: (row) => (isNumbered(row) ? `Invoice ${String(row.number)} is already numbered` : null),
  batch: { label: 'Create Invoice', preview: true },
  failureText: 'creating pdf',
});

/** The stored PDF, byte for byte (issue 18 point 6): never rendered again here. */
const downloadPdf = defineAction({
  name: 'download_pdf',
  label: 'Download PDF',
  scope: 'record',
  input: z.object({}),
  result: 'file',
  level: 'reader',
  views: ['numbered', 'creditnote'],
  offeredWhen: (row) => (row.pdf_filename ? null : 'No PDF has been created for this invoice yet'),
  failureText: 'downloading pdf',
});

/** Export Open Invoices (spec §2 cog menu, §7 `POST /invoices/download_report_open`): the open invoices of the filter. */
const downloadReportOpen = defineAction({
  name: 'download_report_open',
  label: 'Export Open Invoices',
  scope: 'list',
  input: ExportRequestSchema,
  result: 'file',
  level: 'reader',
  views: ['numbered'],
  filename: 'Open_Invoices.xlsx',
  failureText: 'exporting Open_Invoices.xlsx',
});

export const invoiceActions = { createPdf, downloadPdf, downloadReportOpen };

const columns = [
  { field: 'document_reference', title: 'Reference', nowrap: true },
  { field: 'number', title: 'Invoice Number', nowrap: true },
  { field: 'contract', title: 'Contract', nowrap: true },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'year', title: 'Year', format: 'number', width: 56 },
  { field: 'semester', title: 'Semester', format: 'number', width: 70 },
  { field: 'total_amount', title: 'Amount invoiced', format: 'money' },
  { field: 'amount', title: 'Amount', format: 'money' },
  { field: 'to_be_payed_amount', title: 'Amount to be paid', format: 'money' },
  { field: 'payed_amount', title: 'Amount paid', format: 'money' },
  { field: 'description', title: 'Description', width: 220 },
  { field: 'planned_date', title: 'Planned Date', format: 'date' },
  { field: 'invoice_date', title: 'Date', format: 'date' },
  { field: 'expiration_date', title: 'Exp. Date', format: 'date' },
  { field: 'extended_deadline_date', title: 'Ext. Deadline', format: 'date' },
  { field: 'email_timestamp', title: 'Email Sent', format: 'datetime' },
  { field: 'email_reminder_timestamp', title: 'Reminder Sent', format: 'datetime' },
  { field: 'credit_note', title: 'Credit Note', nowrap: true },
  { field: 'document_type', title: 'Document Type', overview: false },
  { field: 'pro_forma', title: 'Pro Forma', format: 'bool', overview: false },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  { field: 'comments', title: 'Comments', width: 200 },
] as const;

export const invoiceResource = defineResource({
  key: 'invoice',
  title: 'Invoice',
  titlePlural: 'Invoices',
  apiPath: 'invoices',
  routes: { overview: '/invoices/planned', detail: '/invoice/planned' },
  schema: InvoiceSchema,
  createSchema: InvoiceCreateSchema,
  updateSchema: InvoiceUpdateSchema,
  filterSchema: InvoiceFilterSchema,
  sortable: [
    'document_reference',
    'number',
    'contract',
    'student_name',
    'year',
    'semester',
    'amount',
    'description',
    'planned_date',
    'invoice_date',
    'expiration_date',
    'extended_deadline_date',
    'email_timestamp',
    'email_reminder_timestamp',
    'edit_timestamp',
  ],
  defaultSort: [{ field: 'number', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: ['number', 'document_reference'],
  columns,
  // Spec §2 "Overview columns": the three variants of the one invoice overview.
  views: [
    {
      key: 'planned',
      title: 'Planned Invoices',
      titleSingular: 'Planned Invoice',
      routes: { overview: '/invoices/planned', detail: '/invoice/planned' },
      fixedFilter: { planned: 'true' },
      columns: ['document_reference', 'contract', 'student_name', 'year', 'semester', 'to_be_payed_amount', 'description', 'planned_date', 'edit_timestamp', 'comments'],
      // "By number": a planned invoice has none yet; its reference is what it goes by (decision 018).
      defaultSort: [{ field: 'document_reference', direction: 'asc' }],
    },
    {
      key: 'numbered',
      title: 'Numbered Invoices',
      titleSingular: 'Numbered Invoice',
      routes: { overview: '/invoices/numbered', detail: '/invoice/numbered' },
      fixedFilter: { numbered: 'true' },
      columns: [
        'number', 'contract', 'student_name', 'year', 'semester', 'total_amount', 'to_be_payed_amount', 'payed_amount', 'invoice_date',
        'expiration_date', 'extended_deadline_date', 'email_timestamp', 'email_reminder_timestamp', 'credit_note', 'edit_timestamp', 'comments',
      ],
      defaultSort: [{ field: 'number', direction: 'asc' }],
    },
    {
      key: 'creditnote',
      title: 'Credit Notes',
      titleSingular: 'Credit Note',
      routes: { overview: '/invoices/creditnote', detail: '/invoice/creditnote' },
      fixedFilter: { creditnote: 'true' },
      columns: [
        'number', 'contract', 'student_name', 'year', 'semester', 'amount', 'to_be_payed_amount', 'description', 'invoice_date',
        'expiration_date', 'extended_deadline_date', 'email_timestamp', 'edit_timestamp', 'comments',
      ],
      defaultSort: [{ field: 'number', direction: 'asc' }],
    },
  ],
  actions: [createPdf, downloadPdf, downloadReportOpen],
  // Spec §2: Export Selection (the selection or the filtered list); Bulk Edit (Administrator) of what a numbered
  // invoice does not freeze — a row whose invoice keeps a field fails with the reason, the others change.
  export: { filename: 'Invoices.xlsx', sheet: 'Invoices', label: 'Export Selection' },
  bulkEdit: { fields: ['planned_date', 'extended_deadline_date', 'comments'], level: 'administrator' },
  rules: {
    // Spec §4: contract, year and semester are set when the invoice is made; DESIGN §11: a numbered invoice is locked.
    readOnlyFields: (row): Record<string, string> => {
      const fixed = 'It is set when the invoice is created';
      const frozen: Record<string, string> = { contract_id: fixed, year: fixed, semester: fixed };
      if (!isNumbered(row)) return frozen;
      const reason = `Invoice ${String(row.number)} is numbered: correct it with a credit note`;
      for (const field of INVOICE_FROZEN_FIELDS) frozen[field] = reason;
      frozen.planned_date = reason;
      return frozen;
    },
    cannotDelete: (row) => (isNumbered(row) ? `Invoice ${String(row.number)} is numbered and cannot be deleted: correct it with a credit note` : null),
  },
});
