import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invoices, type DbOrTx } from '@app/db';

/**
 * Money computed in SQL from the documents (DESIGN §11, issue 13 point 9), never stored twice. Everything that
 * says what is paid, credited or open on an invoice or a contract is built from the three functions below, so
 * that there is ONE definition of each.
 */

type IdRef = AnyPgColumn | SQL;

/** What is paid on an invoice. Invoice payments come with issue 14: this is the one place that adds them. */
export function invoicePaid(_invoiceId: IdRef): SQL {
  return sql`0::numeric`;
}

/** The credit notes of an invoice (served by invoices_linked_idx). */
export function invoiceCredited(invoiceId: IdRef): SQL {
  return sql`(select coalesce(sum(cn.amount), 0) from ${invoices} cn where cn.linked_invoice_id = ${invoiceId} and cn.is_creditnote)`;
}

/**
 * An invoice row's figures, for a query over `invoices` (the outer columns given): what it invoices (its amount
 * less its credit notes; a credit note: its own amount), what is paid, and what is still open (invoiced − paid).
 */
export function invoiceMoney(row: { id: IdRef; amount: IdRef; is_creditnote: IdRef }): Record<'credited' | 'invoiced' | 'paid' | 'open', SQL> {
  const credited = invoiceCredited(row.id);
  const invoiced = sql`(case when ${row.is_creditnote} then ${row.amount} else ${row.amount} - ${credited} end)`;
  const paid = invoicePaid(row.id);
  return { credited, invoiced, paid, open: sql`(${invoiced} - ${paid})` };
}

/** What is still open on one invoice, as exact text (`"100.00"`): what a credit note may take at most. */
export async function openAmountOf(db: DbOrTx, invoiceId: number): Promise<string> {
  const money = invoiceMoney(invoices);
  const [row] = await db
    .select({ open: sql<string>`(${money.open})::numeric(12,2)::text` })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  return row?.open ?? '0.00';
}

/**
 * A contract's money (DESIGN §11, issue 13 point 9): the columns of the contract row and overview.
 * `contractId` is the contract's id column of the outer query.
 * - invoiced_amount: its numbered invoices less their credit notes (what an invoice row calls total_amount);
 * - payed_amount: what is paid on its invoices (invoicePaid);
 * - to_be_payed_amount: invoiced − paid;
 * - planned_amount: its planned invoices.
 * Served by invoices_contract_idx.
 */
export function contractMoney(contractId: AnyPgColumn): Record<'invoiced_amount' | 'payed_amount' | 'to_be_payed_amount' | 'planned_amount', SQL<number>> {
  const invoiced = sql`(select coalesce(sum(case when inv.is_creditnote then -inv.amount else inv.amount end), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is not null)`;
  const paid = sql`(select coalesce(sum(${invoicePaid(sql`inv.id`)}), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is not null and not inv.is_creditnote)`;
  // Nested: drizzle qualifies a column inside a nested SQL with its table, where the outer query has one table.
  const planned = sql`(select coalesce(sum(inv.amount), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is null and not inv.is_creditnote)`;
  return {
    invoiced_amount: sql<number>`(${invoiced})::float8`,
    payed_amount: sql<number>`(${paid})::float8`,
    to_be_payed_amount: sql<number>`(${invoiced} - ${paid})::float8`,
    planned_amount: sql<number>`(${planned})::float8`,
  };
}
