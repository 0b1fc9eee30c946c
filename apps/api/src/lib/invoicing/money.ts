import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { invoicePayments, invoices, type Database, type DbOrTx } from '@app/db';

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

/**
 * One invoice's figures as exact text (`"100.00"`): what is still open on it, and what a credit note may still
 * credit (its amount less its credit notes). Payments do not limit the latter: crediting a paid invoice turns
 * what was paid beyond into a credit on the contract (decision 036).
 */
export async function invoiceFiguresOf(db: DbOrTx, invoiceId: number): Promise<{ open: string; creditable: string }> {
  const { open, invoiced } = invoiceMoney(invoices);
  const [row] = await db
    .select({ open: sql<string>`(${open})::numeric(12,2)::text`, creditable: sql<string>`(${invoiced})::numeric(12,2)::text` })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  return row ?? { open: '0.00', creditable: '0.00' };
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
 * A contract's money (issue 13 point 9, issue 14 point 4): the columns of the contract row, overview and export,
 * read from LATERAL joins per contract row (`join`), so that each figure is summed once per contract — as
 * separate subqueries per column the export of 100k contracts summed its invoices five times a row (17k rows/s).
 * `contractId` is the contract's id column of the outer query.
 * - invoiced_amount: its numbered invoices less their credit notes (what an invoice row calls total_amount);
 * - payed_amount: its invoice payments (`amount_paid`);
 * - to_be_payed_amount: invoiced − paid (negative: a credit, paid too much);
 * - planned_amount: its planned invoices.
 * The same sums as `contractTotals` without a date. Served by invoices_contract_idx and invoice_payments_contract_idx.
 */
export function contractMoney(db: Database, contractId: AnyPgColumn): {
  join: (q: PgSelect) => PgSelect;
  joinAll: (q: PgSelect) => PgSelect;
  columns: Record<'invoiced_amount' | 'payed_amount' | 'to_be_payed_amount' | 'planned_amount', SQL<number>>;
} {
  const i = invoices;
  const invoiced = sql<string>`coalesce(sum(case when ${i.is_creditnote} then -${i.amount} else ${i.amount} end) filter (where ${i.number} is not null), 0)`.as('money_invoiced');
  const planned = sql<string>`coalesce(sum(${i.amount}) filter (where ${i.number} is null and not ${i.is_creditnote}), 0)`.as('money_planned');
  const paid = sql<string>`coalesce(sum(${invoicePayments.amount_paid}), 0)`.as('money_paid');
  // Per row of a page: the contract's invoices through invoices_contract_idx, its payments (which carry their
  // contract) through invoice_payments_contract_idx alone.
  const perContract = db.select({ invoiced, planned }).from(i).where(eq(i.contract_id, contractId)).as('contract_money');
  const paidPerContract = db.select({ paid }).from(invoicePayments).where(eq(invoicePayments.contract_id, contractId)).as('contract_paid');
  // For all rows at once (an export): the invoices and the payments each summed per contract, in contract order
  // from the same two indexes, and merged with the contracts without hashing or sorting. Before the payments
  // carried their contract, each was joined to its invoice first: 1–1.3 s of the export's 2 s of SQL for 100k
  // contracts. Each sum is joined to the contracts, not to the other sum: PostgreSQL has no statistics for a
  // join of two grouped subqueries and guessed 29 million rows (JIT then spent 3 s compiling the plan).
  const invoicedOfAll = db.select({ contract_id: i.contract_id, invoiced, planned }).from(i).groupBy(i.contract_id).as('contract_money');
  const paidOfAll = db
    .select({ contract_id: invoicePayments.contract_id, paid })
    .from(invoicePayments)
    .groupBy(invoicePayments.contract_id)
    .as('contract_paid');
  // A contract without invoices or payments has no row in the grouped joins: its figures are 0.
  const figure = (subquery: string, name: string) => sql.raw(`coalesce("${subquery}"."${name}", 0)`);
  const invoicedSum = figure('contract_money', 'money_invoiced');
  const paidSum = figure('contract_paid', 'money_paid');
  return {
    // An aggregate without GROUP BY answers one row, also for a contract without invoices: the joins always match.
    join: (q) => q.leftJoinLateral(perContract, sql`true`).leftJoinLateral(paidPerContract, sql`true`),
    joinAll: (q) => q.leftJoin(invoicedOfAll, eq(invoicedOfAll.contract_id, contractId)).leftJoin(paidOfAll, eq(paidOfAll.contract_id, contractId)),
    columns: {
      invoiced_amount: sql<number>`${invoicedSum}::float8`,
      payed_amount: sql<number>`${paidSum}::float8`,
      to_be_payed_amount: sql<number>`(${invoicedSum} - ${paidSum})::float8`,
      planned_amount: sql<number>`${figure('contract_money', 'money_planned')}::float8`,
    },
  };
}
