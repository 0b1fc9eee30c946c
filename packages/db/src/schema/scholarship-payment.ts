import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { editAudit, users } from './auth.js';
import { timestamptz } from './columns.js';
import { contracts } from './contract.js';
import { invoices } from './invoice.js';
import { moneyColumn, universities } from './reference.js';
import { storedFiles } from './stored-file.js';

/**
 * Scholarship payment types (choice `scholarship_payment_types`; decision 022), seeded by the migration:
 * 1 milestone, 2 university fee (paid to the university, needs a linked invoice or credit note), 3 monthly
 * allowance, 4 other.
 */
export const scholarshipPaymentTypes = pgTable('scholarship_payment_types', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull().unique(),
});

/**
 * One export to the bank (issue 15 point 4): the rows it took, and the two files it wrote (Payments.xlsx and
 * the SEPA pain.001 file), kept so that the SEPA file of an export can be fetched after its xlsx.
 */
export const scholarshipPaymentExports = pgTable('scholarship_payment_exports', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  message_id: varchar('message_id', { length: 35 }).notNull().unique(),
  payment_count: integer('payment_count').notNull(),
  total_amount: moneyColumn('total_amount').notNull(),
  xlsx_file_id: integer('xlsx_file_id')
    .notNull()
    .references(() => storedFiles.id),
  sepa_file_id: integer('sepa_file_id')
    .notNull()
    .references(() => storedFiles.id),
  created_timestamp: timestamptz('created_timestamp').notNull().defaultNow(),
  created_user: integer('created_user')
    .notNull()
    .references(() => users.id),
});

/**
 * Planned and numbered scholarship payments (spec §3): one table, two views. A planned payment has no number;
 * create_payment gives it one, its payment date and whether it may be exported. An export marks it exported
 * (user, timestamp, export) exactly once; Reset Export clears that.
 */
export const scholarshipPayments = pgTable(
  'scholarship_payments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    number: varchar('number', { length: 40 }).unique(),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id),
    scholarship_payment_type_id: integer('scholarship_payment_type_id')
      .notNull()
      .references(() => scholarshipPaymentTypes.id),
    period: varchar('period', { length: 40 }),
    amount: moneyColumn('amount').notNull(),
    description: varchar('description', { length: 500 }),
    planned_date: date('planned_date').notNull(),
    payment_date: date('payment_date'),
    comments: text('comments'),
    university_id: integer('university_id').references(() => universities.id),
    linked_invoice_id: integer('linked_invoice_id').references(() => invoices.id),
    /**
     * The contract's intake and scholarship, copied onto the payment so that the views' filters and the
     * Scholarship overview read one table through one index (issue 11). Kept right by triggers (migration 0018):
     * on insert and on a change of the payment's contract, and when a contract's intake or scholarship changes.
     * Never written by the API; null only between an INSERT and its trigger, so in practice never.
     */
    intake: smallint('intake'),
    scholarship_id: integer('scholarship_id'),
    /** What planning made the row from (`M12`, `A2026-09`, `U345`): planning twice plans nothing new. */
    plan_key: varchar('plan_key', { length: 40 }),
    payment_allowed: boolean('payment_allowed').notNull().default(false),
    exported_timestamp: timestamptz('exported_timestamp'),
    exported_userid: integer('exported_userid').references(() => users.id),
    export_id: integer('export_id').references(() => scholarshipPaymentExports.id),
    creation_timestamp: timestamptz('creation_timestamp').notNull().defaultNow(),
    creation_user: integer('creation_user').references(() => users.id),
    ...editAudit(),
  },
  (t) => [
    check('scholarship_payments_numbered_check', sql`${t.number} is null or ${t.payment_date} is not null`),
    // And only a numbered one has it: the planned view by payment date finds none (crud `emptyWhen`).
    check('scholarship_payments_planned_check', sql`${t.number} is not null or ${t.payment_date} is null`),
    check('scholarship_payments_exported_check', sql`${t.exported_timestamp} is null or ${t.number} is not null`),
    check('scholarship_payments_university_fee_check', sql`${t.scholarship_payment_type_id} <> 2 or ${t.linked_invoice_id} is not null`),
    uniqueIndex('scholarship_payments_plan_key_unique').on(t.contract_id, t.plan_key).where(sql`${t.plan_key} is not null`),
    index('scholarship_payments_contract_idx').on(t.contract_id, t.id),
    index('scholarship_payments_number_idx').on(t.number, t.id).where(sql`${t.number} is not null`),
    index('scholarship_payments_planned_idx').on(t.planned_date, t.id).where(sql`${t.number} is null`),
    index('scholarship_payments_ready_idx').on(t.id).where(sql`${t.number} is not null and ${t.payment_allowed} and ${t.exported_timestamp} is null`),
    index('scholarship_payments_exported_idx').on(t.exported_timestamp, t.id),
    // The payments still in each export (the export chooser says how many were reset since: decision 055).
    index('scholarship_payments_export_idx').on(t.export_id).where(sql`${t.export_id} is not null`),
    index('scholarship_payments_type_idx').on(t.scholarship_payment_type_id, t.id),
    index('scholarship_payments_edit_idx').on(t.edit_timestamp, t.id),
    index('scholarship_payments_amount_idx').on(t.amount, t.id),
    index('scholarship_payments_period_idx').on(t.period, t.id),
    // The numbered view's sorts (0026): an eighth of the payments, whose dates and periods the planned ones
    // share, so a whole-table index walked them all first (by period: 70 ms).
    ...(['period', 'amount', 'planned_date', 'payment_date', 'payment_allowed', 'edit_timestamp'] as const).map((c) =>
      index(`scholarship_payments_numbered_${c}_idx`).on(t[c], t.id).where(sql`${t.number} is not null`),
    ),
    // Each view by type: a type's payments by id, a page at a time (crud `lookupSorts`, decision 030). Through the
    // whole table's index, a type's first numbered payment came after all its planned ones (0.1 s).
    index('scholarship_payments_numbered_type_idx').on(t.scholarship_payment_type_id, t.id).where(sql`${t.number} is not null`),
    index('scholarship_payments_planned_type_idx').on(t.scholarship_payment_type_id, t.id).where(sql`${t.number} is null`),
    // The views filtered by intake (the Scholarship overview's links add scholarship and type) in their default
    // sorts. The trailing type and scholarship are there to be filtered inside the index (index-only scans):
    // page 1 and the count never visit the table.
    index('scholarship_payments_planned_intake_idx')
      .on(t.intake, t.planned_date, t.id, t.scholarship_payment_type_id, t.scholarship_id)
      .where(sql`${t.number} is null`),
    index('scholarship_payments_numbered_intake_idx')
      .on(t.intake, t.number, t.id, t.scholarship_payment_type_id, t.scholarship_id)
      .where(sql`${t.number} is not null`),
    // The Scholarship overview: its groups in index order, and what it counts and sums, read from the index alone.
    index('scholarship_payments_overview_idx').on(t.intake, t.scholarship_id, t.scholarship_payment_type_id, t.number, t.exported_timestamp, t.amount),
  ],
);
