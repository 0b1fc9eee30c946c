import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invoicePayments, invoices, type DbOrTx } from '@app/db';

/**
 * Money computed in SQL from the documents and payments (DESIGN §11, decisions 018 and 021), never stored: the
 * one definition the invoice rows, the contract rows, the payment rows and every export use.
 *
 * `asOf` (a date, or nothing for "everything booked") is the simulation date of a payment status: a document
 * counts from its invoice date, a payment from its payment date.
 */
export type AsOf = SQL | string | { from: string; until: string } | undefined;
type IdRef = AnyPgColumn | SQL;

/** A document or payment of this date counts: on or before the date, or within the period (both days included). */
const until = (column: SQL, asOf: AsOf): SQL => {
  if (asOf === undefined) return sql`true`;
  if (typeof asOf === 'object' && 'from' in asOf) return sql`${column} between ${asOf.from}::date and ${asOf.until}::date`;
  return sql`${column} <= ${asOf}::date`;
};

/**
 * Each expression one level down: drizzle names a column with its table only inside a nested SQL, and the
 * subqueries' aliases (`inv`) have columns of the same names as the outer query's table.
 */
function nested<K extends string>(parts: Record<K, SQL>): Record<K, SQL> {
  return Object.fromEntries(Object.entries<SQL>(parts).map(([k, v]) => [k, sql`${v}`])) as Record<K, SQL>;
}

/** What is paid on an invoice (as of a date): its payments' amount paid (served by invoice_payments_invoice_idx). */
export function invoicePaid(invoiceId: IdRef, asOf?: AsOf): SQL {
  return sql`(select coalesce(sum(p.amount_paid), 0) from ${invoicePayments} p where p.invoice_id = ${invoiceId} and ${until(sql`p.payment_date`, asOf)})`;
}

/** The numbered credit notes of an invoice (as of a date; served by invoices_linked_idx). */
export function invoiceCredited(invoiceId: IdRef, asOf?: AsOf): SQL {
  return sql`(select coalesce(sum(cn.amount), 0) from ${invoices} cn where cn.linked_invoice_id = ${invoiceId} and cn.is_creditnote and cn.number is not null and ${until(sql`cn.invoice_date`, asOf)})`;
}

/**
 * One invoice's amounts; `inv` holds the invoice columns of the outer query.
 * - credited: its credit notes;
 * - invoiced: its amount less the credit notes (a credit note: its own amount);
 * - paid: its payments' amount paid;
 * - open: invoiced − paid.
 */
export function invoiceAmounts(inv: { id: IdRef; amount: IdRef; is_creditnote: IdRef }, asOf?: AsOf): Record<'credited' | 'invoiced' | 'paid' | 'open', SQL> {
  const credited = invoiceCredited(inv.id, asOf);
  const paid = invoicePaid(inv.id, asOf);
  const invoiced = sql`(case when ${inv.is_creditnote} then ${inv.amount} else ${inv.amount} - ${credited} end)`;
  return nested({ credited, invoiced, paid, open: sql`(${invoiced} - ${paid})` });
}

/** An invoice row's figures now (everything booked): `invoiceAmounts` without a date. */
export function invoiceMoney(row: { id: IdRef; amount: IdRef; is_creditnote: IdRef }): Record<'credited' | 'invoiced' | 'paid' | 'open', SQL> {
  return invoiceAmounts(row);
}

/** What is still open on one invoice, as exact text (`"100.00"`). */
export async function openAmountOf(db: DbOrTx, invoiceId: number): Promise<string> {
  const { open } = invoiceMoney(invoices);
  const [row] = await db
    .select({ open: sql<string>`(${open})::numeric(12,2)::text` })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  return row?.open ?? '0.00';
}

/** What a contract's invoices, credit notes and payments add up to (as of a date): the parts of its balance. */
export function contractTotals(contractId: AnyPgColumn | SQL, asOf?: AsOf): Record<'invoiced_gross' | 'credited' | 'invoiced' | 'paid' | 'open', SQL> {
  const booked = (col: string) => until(sql.raw(`inv.${col}`), asOf);
  const gross = sql`(select coalesce(sum(inv.amount), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is not null and not inv.is_creditnote and ${booked('invoice_date')})`;
  const credited = sql`(select coalesce(sum(inv.amount), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is not null and inv.is_creditnote and ${booked('invoice_date')})`;
  const paid = sql`(select coalesce(sum(p.amount_paid), 0) from ${invoicePayments} p join ${invoices} inv on inv.id = p.invoice_id where inv.contract_id = ${contractId} and ${until(sql`p.payment_date`, asOf)})`;
  const invoiced = sql`(${gross} - ${credited})`;
  return nested({ invoiced_gross: gross, credited, invoiced, paid, open: sql`(${invoiced} - ${paid})` });
}

/**
 * A contract's money (issue 13 point 9, issue 14 point 4): the columns of the contract row and overview.
 * `contractId` is the contract's id column of the outer query.
 * - invoiced_amount: its numbered invoices less their credit notes (what an invoice row calls total_amount);
 * - payed_amount: its invoice payments;
 * - to_be_payed_amount: invoiced − paid (negative: a credit, paid too much);
 * - planned_amount: its planned invoices.
 * Served by invoices_contract_idx and invoice_payments_invoice_idx.
 */
export function contractMoney(contractId: AnyPgColumn): Record<'invoiced_amount' | 'payed_amount' | 'to_be_payed_amount' | 'planned_amount', SQL<number>> {
  const t = contractTotals(contractId);
  // Nested: drizzle qualifies a column inside a nested SQL with its table, where the outer query has one table.
  const planned = sql`(select coalesce(sum(inv.amount), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is null and not inv.is_creditnote)`;
  return {
    invoiced_amount: sql<number>`(${t.invoiced})::float8`,
    payed_amount: sql<number>`(${t.paid})::float8`,
    to_be_payed_amount: sql<number>`(${t.open})::float8`,
    planned_amount: sql<number>`(${planned})::float8`,
  };
}
