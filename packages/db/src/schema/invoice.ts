import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, smallint, text, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { editAudit, users } from './auth.js';
import { timestamptz } from './columns.js';
import { contracts } from './contract.js';
import { moneyColumn } from './reference.js';
import { storedFiles } from './stored-file.js';

/** Invoice document types 1–10 (seeded by the migration; decision 018): odd ids invoices, even ids credit notes. */
export const documentTypes = pgTable('document_types', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull().unique(),
  is_creditnote: boolean('is_creditnote').notNull(),
});

/**
 * Planned invoices, numbered invoices and credit notes: one table (spec §3), three views. A planned invoice has
 * no number; `create_pdf` gives it one (DESIGN §11) together with its dates and its stored PDF, and from then on
 * it is locked. Money is NUMERIC(12,2); what is paid and open is computed from the documents, never stored.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    document_reference: varchar('document_reference', { length: 60 }),
    number: varchar('number', { length: 40 }).unique(),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    year: smallint('year').notNull(),
    semester: smallint('semester').notNull(),
    /**
     * The contract's intake, copied onto the invoice (migration 0028, as 0018 did for scholarship payments), so
     * that the views filtered by intake are found in their own order from an index. Set by a trigger on insert
     * and on a change of the contract, and when a contract's intake changes.
     */
    intake: smallint('intake'),
    amount: moneyColumn('amount').notNull(),
    description: varchar('description', { length: 500 }).notNull(),
    planned_date: date('planned_date'),
    invoice_date: date('invoice_date'),
    expiration_date: date('expiration_date'),
    extended_deadline_date: date('extended_deadline_date'),
    email_timestamp: timestamptz('email_timestamp'),
    email_user: integer('email_user').references(() => users.id),
    email_reminder_timestamp: timestamptz('email_reminder_timestamp'),
    linked_invoice_id: integer('linked_invoice_id').references((): AnyPgColumn => invoices.id),
    comments: text('comments'),
    document_type_id: integer('document_type_id')
      .notNull()
      .default(1)
      .references(() => documentTypes.id),
    /** Credit notes are the even document types; kept beside it so the views filter on an index. */
    is_creditnote: boolean('is_creditnote')
      .notNull()
      .generatedAlwaysAs(sql`document_type_id in (2, 4, 6, 8, 10)`),
    pro_forma: boolean('pro_forma').notNull().default(false),
    pdf_file_id: integer('pdf_file_id').references(() => storedFiles.id),
    pdf_filename: varchar('pdf_filename', { length: 200 }),
    pdf_timestamp: timestamptz('pdf_timestamp'),
    pdf_user: integer('pdf_user').references(() => users.id),
    creation_timestamp: timestamptz('creation_timestamp').notNull().defaultNow(),
    creation_user: integer('creation_user').references(() => users.id),
    ...editAudit(),
  },
  (t) => [
    check('invoices_year_check', sql`${t.year} between 1 and 5`),
    check('invoices_semester_check', sql`${t.semester} between 0 and 2`),
    // A number comes with its date and PDF: they are set in one transaction (create_pdf).
    check('invoices_numbered_check', sql`${t.number} is null or ${t.invoice_date} is not null`),
    // What the views sort by is never empty in them (their conditions: lib/invoicing/invoice-sql.ts), so their
    // pages go by keyset (decision 017): a credit note has a number, a planned invoice a document reference.
    check('invoices_creditnote_number_check', sql`not ${t.is_creditnote} or ${t.number} is not null`),
    check('invoices_planned_reference_check', sql`${t.number} is not null or ${t.is_creditnote} or ${t.document_reference} is not null`),
    index('invoices_contract_idx').on(t.contract_id, t.id),
    index('invoices_linked_idx').on(t.linked_invoice_id).where(sql`${t.linked_invoice_id} is not null`),
    // The views' default sorts and filters (spec §2), each with the id that breaks ties.
    index('invoices_number_idx').on(t.is_creditnote, t.number, t.id).where(sql`${t.number} is not null`),
    // The credit-note view's default sort and count (issue 13 point 11): `is_creditnote` alone does not imply
    // the `number is not null` of invoices_number_idx, so that one cannot serve it.
    index('invoices_creditnote_number_idx').on(t.number, t.id).where(sql`${t.is_creditnote}`),
    // The planned view sorted by planned date: planned invoices are the latest dates, so the whole-table index
    // walked every numbered one first (2 s at 1M invoices).
    index('invoices_planned_view_date_idx').on(t.planned_date, t.id).where(sql`${t.number} is null and not ${t.is_creditnote}`),
    // The planned view's default sort. Its predicate is the view's whole condition, so a page by number skips
    // index entries only (index-only); the planned date after the key lets "planned before" be checked inside the
    // index too, not on each invoice's row (54 ms → 1 ms for a date no planned invoice is before, 1M invoices).
    index('invoices_planned_reference_date_idx')
      .on(t.document_reference, t.id, t.planned_date)
      .where(sql`${t.number} is null and not ${t.is_creditnote}`),
    index('invoices_planned_date_idx').on(t.planned_date, t.id),
    // The planned invoices of the contracts a quick filter finds (migration 0025, which also INCLUDEs the columns
    // a searched page reads): the view's rows lie one to a heap page among all invoices, and reading them all to
    // keep a name's few took 90 ms.
    index('invoices_planned_contract_idx').on(t.contract_id).where(sql`${t.number} is null and not ${t.is_creditnote}`),
    index('invoices_expiration_idx').on(t.expiration_date, t.id),
    // The numbered view by deadline, latest first (chasing overdue invoices): on the index above a descending walk
    // starts at the planned invoices, whose deadline is empty (NULLs sort first), and fetched each of them to
    // reject it — 16,666 at scale, 42 ms warm and 0.7 s cold. The view's condition as the predicate skips them.
    index('invoices_numbered_expiration_idx').on(t.expiration_date, t.id).where(sql`${t.number} is not null and not ${t.is_creditnote}`),
    // The views filtered by intake in their default sorts (0028): an intake's invoices sit late in the order of
    // numbers, and a walk of the number index read every earlier one to find them (0.8 s for intake 2024).
    index('invoices_intake_number_idx').on(t.intake, t.is_creditnote, t.number, t.id).where(sql`${t.number} is not null`),
    index('invoices_planned_intake_idx').on(t.intake, t.document_reference, t.id).where(sql`${t.number} is null and not ${t.is_creditnote}`),
    // The same by invoice date, latest first (0026): the planned invoices' empty dates came first (0.24 s).
    index('invoices_numbered_invoice_date_idx').on(t.invoice_date, t.id).where(sql`${t.number} is not null and not ${t.is_creditnote}`),
    index('invoices_document_type_idx').on(t.document_type_id, t.id),
    index('invoices_email_idx').on(t.email_timestamp, t.id),
    index('invoices_edit_idx').on(t.edit_timestamp, t.id),
    // The other sortable columns (issue 11: any sort of the descriptor; at 1M invoices a sort without its index
    // reads and sorts the whole view, ≈ 200 ms).
    index('invoices_invoice_date_idx').on(t.invoice_date, t.id),
    index('invoices_extended_deadline_idx').on(t.extended_deadline_date, t.id),
    index('invoices_reminder_idx').on(t.email_reminder_timestamp, t.id),
    index('invoices_amount_idx').on(t.amount, t.id),
    index('invoices_year_idx').on(t.year, t.id),
    index('invoices_semester_idx').on(t.semester, t.id),
    // The same sorts within the planned and credit-note views (migration 0026): each is a few per cent of the
    // invoices, and walking a whole-table index for them skipped every other invoice first (credit notes by date:
    // 0.9M index entries, 0.2 s; the planned ones by year: 0.2 s).
    ...(['year', 'semester', 'description', 'edit_timestamp'] as const).map((c) =>
      index(`invoices_planned_${c}_idx`).on(t[c], t.id).where(sql`${t.number} is null and not ${t.is_creditnote}`),
    ),
    ...(['year', 'semester', 'amount', 'description', 'invoice_date', 'expiration_date', 'extended_deadline_date', 'email_timestamp', 'edit_timestamp'] as const).map(
      (c) => index(`invoices_creditnote_${c}_idx`).on(t[c], t.id).where(sql`${t.is_creditnote}`),
    ),
  ],
);
