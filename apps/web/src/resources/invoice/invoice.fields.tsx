import { invoiceResource, SEMESTER_LABELS, type ChoiceListName } from '@app/contracts';
import { defineFields, type SelectOption } from '../../machinery/fields/types';

const YEAR_OPTIONS: readonly SelectOption[] = [1, 2, 3, 4, 5].map((y) => ({ value: y, label: String(y) }));
/** Semester 0 is an invoice over the whole year (decision 018), named as in the overview and the export. */
export const SEMESTER_OPTIONS: readonly SelectOption[] = [0, 1, 2].map((s) => ({ value: s, label: SEMESTER_LABELS[s] ?? String(s) }));

/** A credit note has document types of its own (2, 4, 6, 8, 10), an invoice the odd ones (decision 018). */
export const documentTypeChoices = (creditNote: boolean): ChoiceListName => (creditNote ? 'document_types_creditnotes' : 'document_types_invoices');

const INVOICE = 'Invoice';
const DATES = 'Dates';
const AMOUNTS = 'Amounts';
const HISTORY = 'History';

/**
 * The invoice detail (spec §3). Number, dates of the PDF and the amounts are read-only: they come from
 * create_pdf and from the documents; a numbered invoice's frozen fields are read-only by the resource's rule.
 */
export const invoiceFields = defineFields(invoiceResource, [
  { name: 'number', label: 'Number', kind: 'text', readOnly: true, group: INVOICE },
  { name: 'document_reference', label: 'Reference', kind: 'text', readOnly: true, group: INVOICE },
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts', group: INVOICE },
  { name: 'student_name', label: 'Student Name', kind: 'text', readOnly: true, group: INVOICE },
  { name: 'year', label: 'Year', kind: 'select', options: YEAR_OPTIONS, group: INVOICE },
  { name: 'semester', label: 'Semester', kind: 'select', options: SEMESTER_OPTIONS, group: INVOICE },
  { name: 'document_type_id', label: 'Document Type', kind: 'select', choicesFor: (row) => documentTypeChoices(row.is_creditnote === true), group: INVOICE },
  { name: 'pro_forma', label: 'Pro Forma', kind: 'boolean', group: INVOICE },
  { name: 'description', label: 'Description', kind: 'text', group: INVOICE },

  { name: 'amount', label: 'Amount', kind: 'money', group: AMOUNTS },
  { name: 'total_amount', label: 'Amount invoiced', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'payed_amount', label: 'Amount paid', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'to_be_payed_amount', label: 'Amount to be paid', kind: 'money', readOnly: true, group: AMOUNTS },
  { name: 'credit_note', label: 'Credit Note', kind: 'text', readOnly: true, group: AMOUNTS },
  // A credit note's invoice, or the registration fee an invoice links (issue 13 points 6 and 8).
  { name: 'linked_invoice_number', label: 'Linked Invoice', kind: 'text', readOnly: true, group: AMOUNTS },

  { name: 'planned_date', label: 'Planned Date', kind: 'date', group: DATES },
  { name: 'invoice_date', label: 'Invoice Date', kind: 'date', readOnly: true, group: DATES },
  { name: 'expiration_date', label: 'Expiration Date', kind: 'date', readOnly: true, group: DATES },
  { name: 'extended_deadline_date', label: 'Extended Deadline', kind: 'date', group: DATES },

  // Spec §3 audit pairs: when and by whom the invoice was made, numbered (its PDF), mailed and last edited.
  // The time of the last edit is the detail page's own "Last edit" line.
  { name: 'creation_timestamp', label: 'Created', kind: 'timestamp', readOnly: true, group: HISTORY },
  { name: 'creation_user', label: 'Created By', kind: 'text', readOnly: true, group: HISTORY },
  { name: 'pdf_timestamp', label: 'PDF Created', kind: 'timestamp', readOnly: true, group: HISTORY },
  { name: 'pdf_user', label: 'PDF Created By', kind: 'text', readOnly: true, group: HISTORY },
  { name: 'email_timestamp', label: 'Email Sent', kind: 'timestamp', readOnly: true, group: HISTORY },
  { name: 'email_user', label: 'Email Sent By', kind: 'text', readOnly: true, group: HISTORY },
  { name: 'email_reminder_timestamp', label: 'Reminder Sent', kind: 'timestamp', readOnly: true, group: HISTORY },
  { name: 'edit_user', label: 'Last Edit By', kind: 'text', readOnly: true, group: HISTORY },

  { name: 'comments', label: 'Comments', kind: 'textarea' },
]);
