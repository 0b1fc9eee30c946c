import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { contracts, documentTypes, invoicePayments, invoices, students, type DbOrTx } from '@app/db';
import { contractTotals, invoiceAmounts, type AsOf } from './money.js';

/**
 * Payment status (issue 14 point 5, issue 18 point 3): what was invoiced, credited, paid and open, as of a
 * (simulation) date or over a period, from the one definition of lib/invoicing/money.ts. Amounts leave SQL as
 * NUMERIC text and become numbers only to be written (xlsx cells, PDF lines): no arithmetic here.
 */

const i = invoices;
const num = (expr: SQL) => sql<number>`(${expr})::float8`;
const studentName = sql<string>`${students.first_name} || ' ' || ${students.last_name}`;

export interface StatusLine {
  invoice_id: number;
  contract_id: number;
  contract: string;
  student_name: string;
  number: string;
  document_type: string;
  description: string;
  invoice_date: string;
  due_date: string | null;
  amount: number;
  credited: number;
  paid: number;
  open: number;
  expired: boolean;
}

/**
 * The contracts of these ids with their position among them (`chosen.id`, `chosen.pos`), to join: one array
 * parameter however many (a filter's 100k contracts passed 65,535 parameters), and the rows of each contract in
 * the order the ids were given (the overview's).
 */
const chosen = (ids: readonly number[]) => sql`unnest(${sql.param([...ids])}::int[]) with ordinality as chosen(id, pos)`;

/** The due date of an invoice: its extended deadline, else its expiration date. */
const dueOf = sql<string | null>`coalesce(${i.extended_deadline_date}, ${i.expiration_date})`;

/**
 * An invoice's amount as of the date: nothing before its invoice date. A payment booked before its invoice was
 * dated (paid on the pro forma, or dated wrongly) then shows as paid in advance — a credit of the line — as the
 * contract's balance of the same date counts it (`contractTotals`).
 */
const amountAsOf = (asOf: string) => sql`(case when ${i.invoice_date} <= ${asOf}::date then ${i.amount} else 0 end)`;

/** The select list of a status line: StatusLine's fields, in this order, as of the date. */
function statusSelection(asOf: string) {
  const amount = amountAsOf(asOf);
  const m = invoiceAmounts({ id: i.id, amount, is_creditnote: i.is_creditnote }, asOf);
  return {
    invoice_id: i.id,
    contract_id: i.contract_id,
    contract: contracts.application_number,
    student_name: studentName,
    number: sql<string>`${i.number}`,
    document_type: documentTypes.name,
    description: i.description,
    invoice_date: sql<string>`${i.invoice_date}::text`,
    due_date: sql<string | null>`${dueOf}::text`,
    amount: num(amount),
    credited: num(m.credited),
    paid: num(m.paid),
    open: num(m.open),
    expired: sql<boolean>`(${m.open} > 0 and ${dueOf} < ${asOf}::date)`,
  };
}

/**
 * The statement of statusLines, not run. With `openOnly` only the lines still open; `byDue`: ordered by due date
 * (then number) across the contracts, for the list of payments due, instead of contract by contract.
 */
export function statusLinesQuery(
  db: DbOrTx,
  contractIds: readonly number[],
  asOf: string,
  options: { types?: readonly number[]; openOnly?: boolean; byDue?: boolean } = {},
) {
  const selection = statusSelection(asOf);
  // What the contract owes in all (its balance as of the date), once per line: an invoice open on its own is not
  // due when the contract's credit covers it (another invoice paid, then credited: decision 036), and a list of
  // payments due shows both figures, so that nobody chases a whole invoice from a student who owes cents.
  const owing = alias(contracts, 'owing');
  const owes = db.select({ owes: sql<string>`${contractTotals(owing.id, asOf).open}`.as('contract_owes') }).from(owing).where(eq(owing.id, i.contract_id)).as('contract_owes');
  const lines = db
    .select({ ...selection, ...(options.openOnly ? { contract_open: num(sql`${owes.owes}`) } : {}) })
    .from(i)
    .innerJoin(chosen(contractIds), sql`chosen.id = ${i.contract_id}`)
    .innerJoin(contracts, eq(contracts.id, i.contract_id))
    .innerJoin(students, eq(students.id, contracts.student_id))
    .innerJoin(documentTypes, eq(documentTypes.id, i.document_type_id))
    .$dynamic();
  return (options.openOnly ? lines.innerJoinLateral(owes, sql`true`) : lines)
    .where(
      and(
        isNotNull(i.number),
        eq(i.is_creditnote, false),
        // Dated by then, or paid by then (in advance of its date).
        sql`(${i.invoice_date} <= ${asOf}::date or exists (select 1 from ${invoicePayments} p where p.invoice_id = ${i.id} and p.payment_date <= ${asOf}::date))`,
        options.types ? inArray(i.document_type_id, [...options.types]) : undefined,
        // Open, and of a contract that owes something.
        options.openOnly ? sql`${selection.open} > 0 and ${owes.owes} > 0` : undefined,
      ),
    )
    .orderBy(
      ...(options.byDue
        ? [sql`${dueOf} asc nulls last`, asc(i.number)]
        : [sql`chosen.pos`, sql`${dueOf} asc nulls last`, asc(i.number)]),
    );
}

/**
 * The numbered invoices of the contracts as of the date (and those dated later but paid by then, invoiced 0),
 * each with its credit notes and payments booked by then; `expired` when still open and its (extended) deadline lies before the date. `types`: only these
 * document types (the participation fee's status: 5). Contract by contract in the order of the ids, each by due
 * date, then number.
 */
export async function statusLines(db: DbOrTx, contractIds: readonly number[], asOf: string, types?: readonly number[]): Promise<StatusLine[]> {
  if (contractIds.length === 0) return [];
  return statusLinesQuery(db, contractIds, asOf, { types });
}

export interface ContractBalance {
  contract_id: number;
  contract: string;
  student_name: string;
  invoiced: number;
  credited: number;
  paid: number;
  open: number;
  /** What is open at the period's end (as of its last day): only for a period. */
  balance?: number;
}

/** The statement of contractBalances, not run. */
export function contractBalancesQuery(db: DbOrTx, contractIds: readonly number[], when: AsOf) {
  const t = contractTotals(contracts.id, when);
  const end = typeof when === 'object' && when !== null && 'from' in when ? contractTotals(contracts.id, when.until).open : undefined;
  return db
    .select({
      contract_id: contracts.id,
      contract: contracts.application_number,
      student_name: studentName,
      invoiced: num(t.invoiced_gross),
      credited: num(t.credited),
      paid: num(t.paid),
      open: num(t.open),
      ...(end ? { balance: num(end) } : {}),
    })
    .from(contracts)
    .innerJoin(chosen(contractIds), sql`chosen.id = ${contracts.id}`)
    .innerJoin(students, eq(students.id, contracts.student_id))
    .orderBy(sql`chosen.pos`);
}

/** Each contract's invoiced (gross), credited, paid and open as of the date or within the period, in the order of the ids. */
export async function contractBalances(db: DbOrTx, contractIds: readonly number[], when: AsOf): Promise<ContractBalance[]> {
  if (contractIds.length === 0) return [];
  return contractBalancesQuery(db, contractIds, when);
}

export interface PeriodEntry {
  contract: string;
  student_name: string;
  kind: string;
  number: string;
  date: string;
  description: string;
  amount: number;
}

/**
 * The documents and payments behind a period's figures: numbered invoices, credit notes and payments dated in it,
 * contract by contract in the order of the ids.
 */
export async function periodEntries(db: DbOrTx, contractIds: readonly number[], from: string, until: string): Promise<PeriodEntry[]> {
  if (contractIds.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    select c.application_number as contract, s.first_name || ' ' || s.last_name as student_name, e.kind, e.number, e.date::text as date, e.description, e.amount::float8 as amount
    from (
      select inv.contract_id, case when inv.is_creditnote then 'Credit note' else 'Invoice' end as kind, inv.number, inv.invoice_date as date, inv.description,
             case when inv.is_creditnote then -inv.amount else inv.amount end as amount
      from ${invoices} inv
      where inv.contract_id = any(${sql.param([...contractIds])}::int[]) and inv.number is not null and inv.invoice_date between ${from}::date and ${until}::date
      union all
      select inv.contract_id, 'Payment', p.number, p.payment_date, 'Payment of invoice ' || inv.number, -p.amount_paid
      from ${invoicePayments} p join ${invoices} inv on inv.id = p.invoice_id
      where inv.contract_id = any(${sql.param([...contractIds])}::int[]) and p.payment_date between ${from}::date and ${until}::date
    ) e
    join ${chosen(contractIds)} on chosen.id = e.contract_id
    join ${contracts} c on c.id = e.contract_id
    join ${students} s on s.id = c.student_id
    order by chosen.pos, e.date, e.number`);
  return result.rows.map((r) => ({ ...(r as unknown as PeriodEntry), amount: Number(r.amount) }));
}

/** The academic year that contains the day: 1 September to 31 August (decision 021). */
export function academicYearOf(day: string): { from: string; until: string } {
  const year = Number(day.slice(0, 4));
  const start = Number(day.slice(5, 7)) >= 9 ? year : year - 1;
  return { from: `${start}-09-01`, until: `${start + 1}-08-31` };
}
