import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { ExportRequestSchema } from '../common/resource-actions.js';
import { defineResource, type RecordRow } from '../common/resource.js';
import { isoDate, money, nonNegativeMoney, optionalDate, optionalMultilineText, requiredRef, requiredText, wholeNumber } from '../common/fields.js';
import { DOCUMENT_TYPE_INVOICE, DOCUMENT_TYPE_TRANSACTION_FEE, INVOICE_DOCUMENT_TYPE_IDS } from '../rules/document-types.js';

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
  /** Audit pairs (spec §3): who did it, by display name (read-only, never written through the API). */
  email_user: nullableText,
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
  pdf_user: nullableText,
  creation_timestamp: nullableText,
  creation_user: nullableText,
  edit_timestamp: z.string().nullable(),
  edit_user: nullableText,
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
  // Planned at 0 is a fee not charged (decision 038); below 0 is nothing that can be invoiced or paid out.
  amount: nonNegativeMoney('Amount'),
  planned_date: isoDate('Planned date'),
  document_type_id: invoiceType,
  pro_forma: z.boolean({ error: 'Pro forma must be true or false' }),
  extended_deadline_date: optionalDate('Extended deadline'),
  comments: optionalMultilineText('Comments'),
};

/** A new invoice is a planned one (credit notes come from a numbered invoice, issue 13 point 6). */
export const InvoiceCreateSchema = z.object({
  ...editable,
  document_type_id: editable.document_type_id.default(1),
  pro_forma: editable.pro_forma.default(false),
});

/**
 * A credit note (issue 13 point 6, spec §7 "Credit note: amount and description"): `POST /invoices/` with the
 * numbered invoice it credits; contract, year, semester, type (mapped 1→2, 3→4, 5→6, 7→8, 9→10) and pro forma
 * are copied from that invoice, so the body may not give them.
 */
export const CreditNoteCreateSchema = z.strictObject({
  linked_invoice_id: requiredRef('Invoice'),
  amount: money('Amount').refine((v) => v > 0, 'Amount must be more than 0'),
  description: requiredText('Description', 500),
  comments: optionalMultilineText('Comments'),
});

/** A body creates a credit note when it names the invoice it credits. */
export const isCreditNoteInput = (body: unknown): boolean => typeof body === 'object' && body !== null && !Array.isArray(body) && 'linked_invoice_id' in body;

/** Spec §4: "Cancel Registration" for a pro-forma invoice of a type other than 1, "Create Credit Note" otherwise. */
export function creditNoteCommand(row: { pro_forma?: unknown; document_type_id?: unknown }): 'Cancel Registration' | 'Create Credit Note' {
  return row.pro_forma === true && Number(row.document_type_id) !== DOCUMENT_TYPE_INVOICE ? 'Cancel Registration' : 'Create Credit Note';
}

/** Why no credit note can be made from this row (null: it can). */
export function whyNoCreditNote(row: RecordRow): string | null {
  if (row.is_creditnote === true) return 'A credit note cannot be credited';
  if (row.number === null || row.number === undefined) return 'Only a numbered invoice can be credited';
  // Paid or not: crediting what was paid makes it a credit on the contract (decision 036).
  if (Number(row.total_amount) <= 0) return `Invoice ${String(row.number)} is credited in full`;
  return null;
}

/** Transaction fee (spec §7 `POST /contracts/{id}/create_transaction_fee`; §5: invoice date and amount required). */
export const TransactionFeeSchema = z.object({
  invoice_date: isoDate('Invoice date'),
  amount: money('Amount').refine((v) => v > 0, 'Amount must be more than 0'),
});
export const TRANSACTION_FEE_TYPE = DOCUMENT_TYPE_TRANSACTION_FEE;

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
// Pro forma too: it decides the invoice's cancel command and whether it may stand as a registration fee.
export const INVOICE_FROZEN_FIELDS = ['amount', 'contract_id', 'year', 'semester', 'document_type_id', 'description', 'pro_forma'] as const;

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
  changesRecord: true,
  level: 'user',
  views: ['planned'],
  offeredWhen: (row) => (isNumbered(row) ? `Invoice ${String(row.number)} is already numbered` : null),
  // A number taken is never given back (numbers are gapless): asked first (decision 042).
  confirm: 'Create the invoice now? It takes the next invoice number, which cannot be given back.',
  batch: { label: 'Create Invoice', preview: true, inOrder: true, confirm: 'First a preview: the number and amount each invoice would get, and which are refused and why. Nothing is numbered until you confirm.' },
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
  filename: 'Open_Invoices.xlsx',
  failureText: 'exporting Open_Invoices.xlsx',
});

/** Why the invoice e-mail (or, with `reminder`, the reminder) cannot be sent for this row (spec §4). */
function whyNoMail(row: RecordRow, input?: { reminder?: boolean }): string | null {
  if (!isNumbered(row)) return 'The invoice has no number yet: create it first';
  if (!row.pdf_filename) return 'No PDF has been created for this invoice yet';
  // The invoice's PDF asks for its amount: once credited in full, that payment has been cancelled.
  if (row.is_creditnote !== true && Number(row.total_amount) <= 0) return `Invoice ${String(row.number)} is credited in full`;
  if (input?.reminder) {
    if (row.is_creditnote === true || Number(row.document_type_id) !== DOCUMENT_TYPE_INVOICE) return 'A reminder is sent only for an invoice of document type 1 (Invoice)';
    if (row.is_expired !== true) return `Invoice ${String(row.number)} is not expired`;
  }
  return null;
}

/**
 * Send the invoice (or credit note) e-mail with its PDF, or with `reminder` the payment reminder (issue 13
 * point 7, spec §7 `POST /invoices/{id}/send_email {reminder}`): queued in the outbox; the e-mail timestamps are
 * set when the SMTP server accepted it.
 */
const sendEmail = defineAction({
  name: 'send_email',
  label: 'Send Email',
  scope: 'record',
  input: z.object({ reminder: z.boolean({ error: 'reminder must be true or false' }).default(false) }),
  result: 'message',
  level: 'user',
  views: ['numbered', 'creditnote'],
  offeredWhen: (row, input) => whyNoMail(row, input),
  variants: [
    { label: 'Send Email', input: { reminder: false } },
    { label: 'Send Reminder', input: { reminder: true } },
  ],
  variantButtons: true,
  confirm: "The e-mail goes to the student's address with the PDF attached.",
  doneBefore: (row, input) => {
    const at = input?.reminder ? row.email_reminder_timestamp : row.email_timestamp;
    if (typeof at !== 'string') return null;
    const what = input?.reminder ? 'A reminder was' : row.is_creditnote === true ? 'This credit note was' : 'This invoice was';
    return { what: `${what} already e-mailed`, at };
  },
  batch: {
    label: 'Send Email',
    preview: true,
    confirm: 'First a preview: who would get the e-mail, and who is skipped and why. Nothing is sent until you confirm.',
    variants: [
      { label: 'Send Email', input: { reminder: false } },
      { label: 'Send Email Reminder', input: { reminder: true } },
    ],
  },
  queuesMail: true,
  failureText: 'sending email',
});

/**
 * Link Registration Fee (issue 13 point 8, spec §7 `POST /invoices/{id}/link_registration_id`): the invoice
 * names the pro-forma registration fee it replaces (shown as linked_invoice_number); the student's
 * registration_fee_payed follows.
 */
const linkRegistration = defineAction({
  name: 'link_registration_id',
  label: 'Link Registration Fee',
  scope: 'record',
  input: z.object({ registration_fee_id: requiredRef('Registration fee') }),
  fields: [
    {
      name: 'registration_fee_id',
      label: 'Registration fee',
      kind: 'select',
      choices: 'invoices',
      // Only the numbered pro-forma registration fees (type 3) of the invoice's student, of any of the student's
      // contracts: what the API accepts.
      choiceParamsFor: (row) => ({ student_id: Number(row.student_id), document_type_id: 3, pro_forma: true }),
    },
  ],
  result: 'record',
  changesRecord: true,
  level: 'user',
  views: ['numbered'],
  offeredWhen: (row) =>
    row.is_creditnote === true || Number(row.document_type_id) === 3 ? 'Only an invoice that is not a registration fee links one' : !isNumbered(row) ? 'The invoice has no number yet' : null,
  failureText: 'linking the registration fee',
});

export const invoiceActions = { createPdf, downloadPdf, downloadReportOpen, sendEmail, linkRegistration };

/** Semester 0 is an invoice over the whole year (decision 018): so named on screen and in exports. */
export const SEMESTER_LABELS: Readonly<Record<string, string>> = { 0: 'Whole year' };

const columns = [
  { field: 'document_reference', title: 'Reference', nowrap: true },
  { field: 'number', title: 'Invoice Number', nowrap: true },
  { field: 'contract', title: 'Contract', nowrap: true },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'year', title: 'Year', format: 'number', width: 56 },
  { field: 'semester', title: 'Semester', format: 'number', labels: SEMESTER_LABELS, width: 70 },
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
      // A numbered invoice keeps its planned date (readOnlyFields below): every row would refuse it.
      bulkEditFields: ['extended_deadline_date', 'comments'],
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
      columnTitles: { number: 'Number', amount: 'Amount credited' },
    },
  ],
  actions: [createPdf, downloadPdf, sendEmail, linkRegistration, downloadReportOpen],
  // Spec §2: Export Selection (the selection or the filtered list); Bulk Edit (Administrator) of what a numbered
  // invoice does not freeze — a row whose invoice keeps a field fails with the reason, the others change.
  export: { filename: 'Invoices.xlsx', sheet: 'Invoices', label: 'Export Selection' },
  // Spec §2: Bulk Edit on planned or numbered invoices only.
  bulkEdit: { fields: ['planned_date', 'extended_deadline_date', 'comments'], level: 'administrator', views: ['planned', 'numbered'] },
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
