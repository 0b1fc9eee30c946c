import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { documentCounters, invoices, seedScalePayments } from '@app/db';
import { setupTestApp } from './test/app.js';
import { createContract } from './test/factories.js';

const t = await setupTestApp();

describe('scale data: invoice payments (issue 14 point 6)', () => {
  it('pays two of three numbered invoices, numbered gapless after the counters, never after today; a second run adds nothing', async () => {
    const contract = await createContract(t.db);
    const base = { contract_id: contract.id, year: 1, semester: 0, description: 'Fee' };
    const values = Array.from({ length: 60 }, (_, k) => ({
      ...base,
      amount: (1000 + k + 0.35).toFixed(2),
      number: `S-${k}`,
      invoice_date: k < 10 ? '2025-12-20' : '2026-01-10',
      document_type_id: 5,
    }));
    await t.db.insert(invoices).values(values);
    await t.db.insert(invoices).values({ ...base, amount: '5.00', planned_date: '2026-01-01', document_reference: 'REF' });
    await t.db.insert(documentCounters).values({ kind: 'invoice_payment', year: 2026, last_value: 7 });

    const made = await t.db.transaction((tx) => seedScalePayments(tx));
    const ids = (await t.db.execute<{ id: number }>(sql`select id from invoices where number like 'S-%'`)).rows.map((r) => r.id);
    expect(made).toBe(ids.filter((id) => id % 3 !== 0).length);

    const rows = (
      await t.db.execute<{ number: string; year: number; ok: boolean; future: boolean }>(sql`
        select p.number, extract(year from p.payment_date)::int as year,
          p.net_amount = p.amount_paid - p.commission and p.amount_paid <= inv.amount as ok, p.payment_date > current_date as future
        from invoice_payments p join invoices inv on inv.id = p.invoice_id order by p.number`)
    ).rows;
    expect(rows.every((r) => r.ok && !r.future)).toBe(true);
    // Per year the numbers run on from the counter without a gap, and the counter stands at the last one.
    for (const year of new Set(rows.map((r) => r.year))) {
      const numbers = rows.filter((r) => r.year === year).map((r) => Number(r.number.slice(6)));
      const start = year === 2026 ? 8 : 1;
      expect(numbers).toEqual(numbers.map((_, k) => start + k));
      const counter = (await t.db.execute<{ v: number }>(sql`select last_value as v from document_counters where kind = 'invoice_payment' and year = ${year}`)).rows[0]!.v;
      expect(counter).toBe(start + numbers.length - 1);
    }
    expect(await t.db.transaction((tx) => seedScalePayments(tx))).toBe(0);
  });
});
