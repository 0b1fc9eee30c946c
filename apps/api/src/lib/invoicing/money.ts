import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invoices } from '@app/db';

/**
 * A contract's money (DESIGN §11, issue 13 point 9), computed in SQL from its documents, never stored: the
 * columns of the contract row and overview. `contractId` is the contract's id column of the outer query.
 * - invoiced_amount: its numbered invoices less their credit notes (what an invoice row calls total_amount);
 * - payed_amount: its invoice payments (0 until issue 14 adds them);
 * - to_be_payed_amount: invoiced − paid;
 * - planned_amount: its planned invoices.
 * Served by invoices_contract_idx.
 */
export function contractMoney(contractId: AnyPgColumn): Record<'invoiced_amount' | 'payed_amount' | 'to_be_payed_amount' | 'planned_amount', SQL<number>> {
  const invoiced = sql`(select coalesce(sum(case when inv.is_creditnote then -inv.amount else inv.amount end), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is not null)`;
  const paid = sql`0::numeric`;
  // Nested: drizzle qualifies a column inside a nested SQL with its table, where the outer query has one table.
  const planned = sql`(select coalesce(sum(inv.amount), 0) from ${invoices} inv where inv.contract_id = ${contractId} and inv.number is null and not inv.is_creditnote)`;
  return {
    invoiced_amount: sql<number>`(${invoiced})::float8`,
    payed_amount: sql<number>`(${paid})::float8`,
    to_be_payed_amount: sql<number>`(${invoiced} - ${paid})::float8`,
    planned_amount: sql<number>`(${planned})::float8`,
  };
}
