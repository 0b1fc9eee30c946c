import { and, asc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
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
 * The numbered invoices of the contracts as of the date, each with its credit notes and payments booked by
 * then; `expired` when still open and its (extended) deadline lies before the date. `types`: only these
 * document types (the participation fee's status: 5). Ordered by contract, then due date, then number.
 */
export async function statusLines(db: DbOrTx, contractIds: readonly number[], asOf: string, types?: readonly number[]): Promise<StatusLine[]> {
  if (contractIds.length === 0) return [];
  const m = invoiceAmounts(i, asOf);
  const due = sql<string | null>`coalesce(${i.extended_deadline_date}, ${i.expiration_date})`;
  const rows = await db
    .select({
      invoice_id: i.id,
      contract_id: i.contract_id,
      contract: contracts.application_number,
      student_name: studentName,
      number: sql<string>`${i.number}`,
      document_type: documentTypes.name,
      description: i.description,
      invoice_date: sql<string>`${i.invoice_date}::text`,
      due_date: sql<string | null>`${due}::text`,
      amount: num(sql`${i.amount}`),
      credited: num(m.credited),
      paid: num(m.paid),
      open: num(m.open),
      expired: sql<boolean>`(${m.open} > 0 and ${due} < ${asOf}::date)`,
    })
    .from(i)
    .innerJoin(contracts, eq(contracts.id, i.contract_id))
    .innerJoin(students, eq(students.id, contracts.student_id))
    .innerJoin(documentTypes, eq(documentTypes.id, i.document_type_id))
    .where(
      and(
        inArray(i.contract_id, [...contractIds]),
        isNotNull(i.number),
        eq(i.is_creditnote, false),
        sql`${i.invoice_date} <= ${asOf}::date`,
        types ? inArray(i.document_type_id, [...types]) : undefined,
      ),
    )
    .orderBy(asc(contracts.application_number), asc(i.contract_id), sql`${due} asc nulls last`, asc(i.number));
  return rows;
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

/** Each contract's invoiced (gross), credited, paid and open as of the date or within the period. */
export async function contractBalances(db: DbOrTx, contractIds: readonly number[], when: AsOf): Promise<ContractBalance[]> {
  if (contractIds.length === 0) return [];
  const t = contractTotals(contracts.id, when);
  const end = typeof when === 'object' && when !== null && 'from' in when ? contractTotals(contracts.id, when.until).open : undefined;
  const rows = await db
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
    .innerJoin(students, eq(students.id, contracts.student_id))
    .where(inArray(contracts.id, [...contractIds]))
    .orderBy(asc(contracts.application_number), asc(contracts.id));
  return rows;
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

/** The documents and payments behind a period's figures: numbered invoices, credit notes and payments dated in it. */
export async function periodEntries(db: DbOrTx, contractIds: readonly number[], from: string, until: string): Promise<PeriodEntry[]> {
  if (contractIds.length === 0) return [];
  const ids = sql.join(contractIds.map((id) => sql`${id}`), sql`, `);
  const result = await db.execute<Record<string, unknown>>(sql`
    select c.application_number as contract, s.first_name || ' ' || s.last_name as student_name, e.kind, e.number, e.date::text as date, e.description, e.amount::float8 as amount
    from (
      select inv.contract_id, case when inv.is_creditnote then 'Credit note' else 'Invoice' end as kind, inv.number, inv.invoice_date as date, inv.description,
             case when inv.is_creditnote then -inv.amount else inv.amount end as amount
      from ${invoices} inv
      where inv.contract_id in (${ids}) and inv.number is not null and inv.invoice_date between ${from}::date and ${until}::date
      union all
      select inv.contract_id, 'Payment', p.number, p.payment_date, 'Payment of invoice ' || inv.number, -p.amount_paid
      from ${invoicePayments} p join ${invoices} inv on inv.id = p.invoice_id
      where inv.contract_id in (${ids}) and p.payment_date between ${from}::date and ${until}::date
    ) e
    join ${contracts} c on c.id = e.contract_id
    join ${students} s on s.id = c.student_id
    order by c.application_number, e.date, e.number`);
  return result.rows.map((r) => ({ ...(r as unknown as PeriodEntry), amount: Number(r.amount) }));
}

/** The academic year that contains the day: 1 September to 31 August (decision 021). */
export function academicYearOf(day: string): { from: string; until: string } {
  const year = Number(day.slice(0, 4));
  const start = Number(day.slice(5, 7)) >= 9 ? year : year - 1;
  return { from: `${start}-09-01`, until: `${start + 1}-08-31` };
}
