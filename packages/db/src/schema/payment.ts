import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { editAudit, users } from './auth.js';
import { timestamptz } from './columns.js';
import { invoices } from './invoice.js';
import { moneyColumn } from './reference.js';
import { storedFiles } from './stored-file.js';

/**
 * Invoice payments (spec §3, issue 14): what a student paid on a numbered invoice. The number `P2026-00001` is
 * taken in the creating transaction (DESIGN §11). `net_amount` is computed by the database from amount paid and
 * commission, so it is exact to the cent and can never disagree with them.
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    number: varchar('number', { length: 40 }).notNull().unique(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    /**
     * The invoice's contract, copied onto the payment so that a contract's paid amount is a sum over this table's
     * own index, without joining 583k payments to 970k invoices (the contracts export: issue 11). Kept right by
     * triggers (migration 0023): on insert and on a change of the payment's invoice, and when an invoice's contract
     * changes. Never written by the API; null only between an INSERT and its trigger, so in practice never.
     */
    contract_id: integer('contract_id'),
    /**
     * The invoice's number, copied the same way (migration 0030, the same triggers): the overview sorted by
     * invoice walks this table's own index. Through the invoices, the walk from the last number read every credit
     * note first, which has no payment (130 ms), and a filter on the payment looked up each one's invoice.
     */
    invoice_number: varchar('invoice_number', { length: 40 }),
    payment_date: date('payment_date').notNull(),
    amount_paid: moneyColumn('amount_paid').notNull(),
    commission: moneyColumn('commission').notNull().default('0'),
    net_amount: moneyColumn('net_amount')
      .notNull()
      .generatedAlwaysAs(sql`amount_paid - commission`),
    paid_by_shopify: boolean('paid_by_shopify').notNull().default(false),
    amount_shopify: moneyColumn('amount_shopify'),
    comments: text('comments'),
    payment_confirmation_timestamp: timestamptz('payment_confirmation_timestamp'),
    payment_confirmation_user: integer('payment_confirmation_user').references(() => users.id),
    pdf_file_id: integer('pdf_file_id').references(() => storedFiles.id),
    pdf_filename: varchar('pdf_filename', { length: 200 }),
    pdf_timestamp: timestamptz('pdf_timestamp'),
    pdf_user: integer('pdf_user').references(() => users.id),
    creation_timestamp: timestamptz('creation_timestamp').notNull().defaultNow(),
    creation_user: integer('creation_user').references(() => users.id),
    ...editAudit(),
  },
  (t) => [
    check('invoice_payments_amount_check', sql`${t.amount_paid} > 0`),
    check('invoice_payments_commission_check', sql`${t.commission} >= 0`),
    // The shop's commission comes out of the amount paid: the net amount is never negative (migration 0035).
    check('invoice_payments_commission_within_amount_check', sql`${t.commission} <= ${t.amount_paid}`),
    // The invoice's and the contract's paid amounts are sums over this index.
    index('invoice_payments_invoice_idx').on(t.invoice_id, t.id),
    // A contract's paid amount, summed from the index alone (index-only), for one contract or, in contract order,
    // for all of them (the export).
    index('invoice_payments_contract_idx').on(t.contract_id, t.amount_paid),
    // The overview's sorts and filters (spec §2), each with the id that breaks ties.
    index('invoice_payments_date_idx').on(t.payment_date, t.id),
    index('invoice_payments_invoice_number_idx').on(t.invoice_number, t.id),
    index('invoice_payments_confirmation_idx').on(t.payment_confirmation_timestamp, t.id),
    index('invoice_payments_edit_idx').on(t.edit_timestamp, t.id),
    index('invoice_payments_amount_idx').on(t.amount_paid, t.id),
    index('invoice_payments_commission_idx').on(t.commission, t.id),
    index('invoice_payments_net_amount_idx').on(t.net_amount, t.id),
    // Payments whose confirmation is not sent yet (the batch Send Payment Confirmation), in the default sort; the
    // payment date after the key so that "paid after" is checked inside the index.
    index('invoice_payments_unconfirmed_idx')
      .on(t.number, t.id, t.payment_date)
      .where(sql`${t.payment_confirmation_timestamp} is null`),
  ],
);
