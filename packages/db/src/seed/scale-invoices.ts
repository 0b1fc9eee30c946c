import { sql } from 'drizzle-orm';
import type { Tx } from '../client.js';

/**
 * The fees every scale contract is invoiced (issue 13 point 11): nine invoices over two years — the pro-forma
 * registration fee, the participation fee per semester, the administration fee per year, a transaction fee and
 * an ordinary invoice — `months` after the contract's start date. Amounts vary a little per contract.
 */
const FEES: Array<[k: number, type: number, year: number, semester: number, months: number, amount: string, description: string, proForma: boolean]> = [
  [1, 3, 1, 0, 0, '250.00', 'Registration fee', true],
  [2, 5, 1, 1, 0, '1500.00', 'Participation fee year 1, semester 1', false],
  [3, 5, 1, 2, 6, '1500.00', 'Participation fee year 1, semester 2', false],
  [4, 7, 1, 0, 0, '450.00', 'Administration fee year 1', false],
  [5, 9, 1, 0, 2, '15.00', 'Transaction fee', false],
  [6, 1, 1, 0, 3, '120.00', 'Study materials', false],
  [7, 5, 2, 1, 12, '1500.00', 'Participation fee year 2, semester 1', false],
  [8, 5, 2, 2, 18, '1500.00', 'Participation fee year 2, semester 2', false],
  [9, 7, 2, 0, 12, '450.00', 'Administration fee year 2', false],
];

/** `2026`, 7 → `2026-00007` (formatDocumentNumber of @app/contracts, in SQL: five digits at least, never cut). */
const invoiceNumber = (year: SQL, value: SQL) => sql`${year}::text || '-' || lpad(${value}::text, greatest(5, length(${value}::text)), '0')`;
type SQL = ReturnType<typeof sql>;

/**
 * ≈ 10 invoices per contract with an id above `afterContractId`, in set-based statements (1M rows in about a
 * minute): what falls on or before today is numbered — gapless per year, continuing the `invoice` counters,
 * which are advanced to match — e-mailed mostly, due 30 days later; the rest stays planned. Every second
 * contract's ordinary invoice is cancelled by a credit note and every fifth contract's first participation fee
 * partly credited (`CN-` + the invoice number). Money is NUMERIC throughout.
 */
export async function seedScaleInvoices(tx: Tx, afterContractId: number): Promise<{ invoices: number; numbered: number; creditNotes: number }> {
  const fees = sql.join(
    FEES.map(([k, type, year, semester, months, amount, description, proForma]) => sql`(${k}::int, ${type}::int, ${year}::int, ${semester}::int, ${months}::int, ${amount}::numeric, ${description}::text, ${proForma}::boolean)`),
    sql`, `,
  );
  await tx.execute(sql`
    create temp table scale_invoices on commit drop as
    with fee(k, type, year, semester, months, amount, description, pro_forma) as (values ${fees}),
    due as (
      select c.id as contract_id, c.application_number, f.*, (c.start_date + make_interval(months => f.months))::date as day,
        f.amount + (c.id % 7) * 10.25 * (f.type = 5)::int as price
      from contracts c cross join fee f
      where c.id > ${afterContractId}
    )
    select due.*, day <= current_date as numbered,
      case when day <= current_date then row_number() over (partition by day <= current_date, extract(year from day)::int order by day, contract_id, k) end as seq
    from due`);
  // The numbers continue each year's counter; the counters then stand at the last number given.
  await tx.execute(sql`
    insert into invoices (document_reference, number, contract_id, year, semester, amount, description, planned_date, invoice_date,
      expiration_date, email_timestamp, document_type_id, pro_forma)
    select s.application_number || '-Y' || s.year || case when s.semester = 0 then '' else '-S' || s.semester end || '-T' || s.type,
      case when s.numbered then ${invoiceNumber(sql`extract(year from s.day)::int`, sql`(coalesce(dc.last_value, 0) + s.seq)`)} end,
      s.contract_id, s.year, s.semester, s.price, s.description, s.day,
      case when s.numbered then s.day end,
      case when s.numbered then s.day + 30 end,
      case when s.numbered and (s.contract_id + s.k) % 7 <> 0 then s.day + time '09:30' end,
      s.type, s.pro_forma
    from scale_invoices s
    left join document_counters dc on dc.kind = 'invoice' and dc.year = extract(year from s.day)::int
    order by s.contract_id, s.k`);
  await tx.execute(sql`
    insert into document_counters (kind, year, last_value)
    select 'invoice', extract(year from day)::int, count(*) from scale_invoices where numbered group by 2
    on conflict (kind, year) do update set last_value = document_counters.last_value + excluded.last_value`);
  const credit = await tx.execute<{ n: number }>(sql`
    with made as (
      insert into invoices (document_reference, number, contract_id, year, semester, amount, description, planned_date, invoice_date,
        expiration_date, email_timestamp, document_type_id, pro_forma, linked_invoice_id)
      select regexp_replace(i.document_reference, '-T[0-9]+$', '-T' || (i.document_type_id + 1)), 'CN-' || i.number, i.contract_id, i.year, i.semester,
        case when i.document_type_id = 1 then i.amount else 100.00 end, 'Credit note: ' || i.description, i.planned_date, i.invoice_date + 14,
        i.invoice_date + 44, i.email_timestamp + interval '14 days', i.document_type_id + 1, false, i.id
      from invoices i
      where i.contract_id > ${afterContractId} and i.number is not null and not i.is_creditnote
        and ((i.document_type_id = 1 and i.contract_id % 2 = 0) or (i.document_type_id = 5 and i.year = 1 and i.semester = 1 and i.contract_id % 5 = 0))
      returning 1
    )
    select count(*)::int as n from made`);
  const [counted] = (await tx.execute<{ invoices: number; numbered: number }>(sql`
    select count(*)::int as invoices, count(*) filter (where numbered)::int as numbered from scale_invoices`)).rows;
  const creditNotes = credit.rows[0]?.n ?? 0;
  return { invoices: (counted?.invoices ?? 0) + creditNotes, numbered: counted?.numbered ?? 0, creditNotes };
}
