import { sql } from 'drizzle-orm';
import type { Tx } from '../client.js';

/**
 * Invoice payments of the scale data (issue 14 point 6), set-based: two of every three numbered invoices that
 * have no payment yet are paid (so a second call pays only what came since) — most in full, every fifth half — some days after their
 * invoice date (never after today); every fourth by card through the shop with a 2.9 % commission. Numbers
 * `P{year}-{00001}` continue each year's `invoice_payment` counter, which is then advanced to match (DESIGN §11:
 * gapless). Most payments are confirmed. With ≈ 1M invoices this is ≈ 300k–450k payments.
 */
export async function seedScalePayments(tx: Tx): Promise<number> {
  await tx.execute(sql`
    create temp table scale_payments on commit drop as
    with paid as (
      select inv.id as invoice_id,
        least(inv.invoice_date + (inv.id % 25)::int, current_date) as day,
        case when inv.id % 5 = 0 then round(inv.amount / 2, 2) else inv.amount end as amount,
        inv.id % 4 = 0 as shop
      from invoices inv
      where inv.number is not null and not inv.is_creditnote and inv.id % 3 <> 0
        and not exists (select 1 from invoice_payments p where p.invoice_id = inv.id)
    )
    select paid.*, row_number() over (partition by extract(year from day)::int order by day, invoice_id) as seq
    from paid`);
  const inserted = await tx.execute<{ n: number }>(sql`
    with made as (
      insert into invoice_payments (number, invoice_id, payment_date, amount_paid, commission, paid_by_shopify, amount_shopify, payment_confirmation_timestamp)
      select 'P' || extract(year from s.day)::int || '-' || lpad((coalesce(dc.last_value, 0) + s.seq)::text, greatest(5, length((coalesce(dc.last_value, 0) + s.seq)::text)), '0'),
        s.invoice_id, s.day, s.amount,
        case when s.shop then round(s.amount * 0.029, 2) else 0 end,
        s.shop,
        case when s.shop then s.amount end,
        case when s.invoice_id % 10 <> 0 then s.day + time '10:15' end
      from scale_payments s
      left join document_counters dc on dc.kind = 'invoice_payment' and dc.year = extract(year from s.day)::int
      returning 1
    )
    select count(*)::int as n from made`);
  await tx.execute(sql`
    insert into document_counters (kind, year, last_value)
    select 'invoice_payment', extract(year from day)::int, max(seq) from scale_payments group by 1, 2
    on conflict (kind, year) do update set last_value = document_counters.last_value + excluded.last_value`);
  return inserted.rows[0]?.n ?? 0;
}
