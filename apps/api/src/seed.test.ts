import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { isValidIBAN, isValidBIC } from 'ibantools';
import { seedDemo, seedScale } from '@app/db';
import { setupTestApp } from './test/app.js';
import { seedBase } from './seed.js';

const t = await setupTestApp();

describe('seed data', () => {
  it('base seed: countries and the admin account once, with a generated password shown once', async () => {
    const first = await seedBase(t.db, { adminUsername: 'admin' });
    expect(first.countries).toBeGreaterThan(190);
    expect(first.admin?.generatedPassword).toMatch(/^[\w-]{16}$/);
    const again = await seedBase(t.db, { adminUsername: 'admin' });
    expect(again).toEqual({ countries: 0 });
  });

  it('demo data: students with valid IBANs and BICs from many countries, contracts in every status, documents; run twice adds nothing', async () => {
    const made = await seedDemo(t.db);
    expect(made.students).toBeGreaterThanOrEqual(20);
    expect(made.contracts).toBe(made.students);
    const rows = (await t.db.execute<{ iban: string; bic: string; country: string; name: string }>(sql`
      select s.payment_bank_iban as iban, s.payment_bank_swift as bic, c.cntry_code as country, s.first_name || ' ' || s.last_name as name
      from students s join countries c on c.id = s.cntry_id where s.email_address like '%@demo.example'`)).rows;
    for (const r of rows) {
      expect(isValidIBAN(r.iban), `${r.name}: ${r.iban}`).toBe(true);
      expect(isValidBIC(r.bic), `${r.name}: ${r.bic}`).toBe(true);
    }
    expect(new Set(rows.map((r) => r.country)).size).toBeGreaterThanOrEqual(15);
    expect(rows.some((r) => r.name !== r.name.normalize("NFD").replace(/\p{Diacritic}/gu, ""))).toBe(true);
    const statuses = (await t.db.execute<{ s: number }>(sql`select distinct contract_status_id as s from contracts order by 1`)).rows.map((r) => r.s);
    expect(statuses).toEqual([1, 2, 3, 4, 5, 6]);
    const files = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from contract_files where file_id is not null`)).rows[0]!.n;
    expect(files).toBeGreaterThan(0);
    expect(await seedDemo(t.db)).toEqual({ students: 0, contracts: 0 });
  });

  it('scale data: N students each with a contract, which is their active one', async () => {
    const made = await seedScale(t.db, 2000);
    expect(made).toEqual({ students: 2000, contracts: 2000, invoices: expect.any(Number) as number });
    const n = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from contracts c join students s on s.id = c.student_id where s.email_address like 'scale%'`)).rows[0]!.n;
    expect(n).toBe(2000);
    // Each contract carries its student's names (migration 0021), the seed's inserts too.
    const named = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from contracts c join students s on s.id = c.student_id where c.application_id like 'SCALE-%' and (c.first_name, c.last_name) = (s.first_name, s.last_name)`,
    );
    expect(named.rows[0]!.n).toBe(2000);
    const active = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from students s join contracts c on c.id = s.active_contract_id and c.student_id = s.id where s.email_address like 'scale%'`,
    );
    expect(active.rows[0]!.n).toBe(2000);
    // The trigram and short-text indexes (0025), rebuilt after the insert, are all there again.
    const gin = async () =>
      (await t.db.execute<{ name: string }>(sql`select indexname as name from pg_indexes where tablename in ('students', 'contracts') and indexdef like '% USING gin %' order by 1`)).rows.map((r) => r.name);
    expect(await gin()).toEqual([
      'contracts_application_number_grams_idx',
      'contracts_application_number_trgm_idx',
      'contracts_name_grams_idx',
      'contracts_name_trgm_idx',
      'students_address_trgm_idx',
      'students_email_trgm_idx',
      'students_name_grams_idx',
      'students_name_trgm_idx',
    ]);
    // Four scholarship payments per contract; every other first milestone numbered, gapless per year, as the counters say.
    const payments = (await t.db.execute<{ n: number; numbered: number; exported: number }>(sql`
      select count(*)::int as n, count(p.number)::int as numbered, count(p.exported_timestamp)::int as exported
      from scholarship_payments p join contracts c on c.id = p.contract_id where c.application_id like 'SCALE-%'`)).rows[0]!;
    expect(payments).toEqual({ n: 8000, numbered: 1000, exported: 500 });
    const years = (await t.db.execute<{ year: number; n: number; max: number; last: number }>(sql`
      select y.year, y.n, y.max, d.last_value as last
      from (select substr(number, 2, 4)::int as year, count(*)::int as n, max(substr(number, 7)::int) as max
            from scholarship_payments where number is not null group by 1) y
      join document_counters d on d.kind = 'scholarship_payment' and d.year = y.year`)).rows;
    expect(years.length).toBeGreaterThan(0);
    for (const y of years) expect([y.n, y.max]).toEqual([y.last, y.last]);
    await seedScale(t.db, 10);
    expect((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from scholarship_payments`)).rows[0]!.n).toBe(8040);
  });

  it('scale data: about ten invoices per contract, planned, numbered and credit notes, numbers gapless per year', async () => {
    const [before] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices`)).rows;
    const made = await seedScale(t.db, 300);
    const counts = (
      await t.db.execute<{ invoices: number; planned: number; numbered: number; credit_notes: number; contracts: number; without: number }>(sql`
        select count(*)::int as invoices,
          count(*) filter (where number is null and not is_creditnote)::int as planned,
          count(*) filter (where number is not null and not is_creditnote)::int as numbered,
          count(*) filter (where is_creditnote)::int as credit_notes,
          count(distinct contract_id)::int as contracts,
          (select count(*)::int from contracts c where c.application_id like 'SCALE-%' and not exists (select 1 from invoices i where i.contract_id = c.id)) as without
        from invoices`)
    ).rows[0]!;
    expect(made.invoices).toBe(counts.invoices - before!.n);
    // Nine invoices per contract and a credit note on every second and every fifth: 9.7 on average.
    expect(counts.invoices / counts.contracts).toBeGreaterThanOrEqual(9.5);
    expect(counts.invoices / counts.contracts).toBeLessThanOrEqual(10.5);
    expect(counts.without).toBe(0);
    expect(counts.planned).toBeGreaterThan(0);
    expect(counts.numbered).toBeGreaterThan(counts.planned);
    expect(counts.credit_notes).toBeGreaterThan(0);
    // Gapless per year: the numbers of each year are 1..count, and the year's counter stands at the last one.
    const years = (
      await t.db.execute<{ year: number; n: number; first: number; last: number; distinct_values: number; counter: number }>(sql`
        select y.*, dc.last_value as counter from (
          select split_part(number, '-', 1)::int as year, count(*)::int as n, min(split_part(number, '-', 2)::int) as first,
            max(split_part(number, '-', 2)::int) as last, count(distinct split_part(number, '-', 2)::int)::int as distinct_values
          from invoices where number is not null and not is_creditnote group by 1) y
        left join document_counters dc on dc.kind = 'invoice' and dc.year = y.year
        order by y.year`)
    ).rows;
    expect(years.length).toBeGreaterThan(1);
    for (const y of years) expect(y, String(y.year)).toEqual({ ...y, first: 1, last: y.n, distinct_values: y.n, counter: y.n });
    // A numbered invoice has its date and deadline; a credit note is `CN-` + its invoice's number, of the mapped type, and never more than the invoice.
    const wrong = (
      await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from invoices cn join invoices i on i.id = cn.linked_invoice_id
        where cn.is_creditnote and (cn.number <> 'CN-' || i.number or cn.document_type_id <> i.document_type_id + 1 or cn.amount > i.amount or cn.contract_id <> i.contract_id)`)
    ).rows[0]!.n;
    expect(wrong).toBe(0);
    const undated = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices where number is not null and (invoice_date is null or expiration_date is null)`)).rows[0]!.n;
    expect(undated).toBe(0);
    // Money is NUMERIC to the cent: the sums are exact.
    const [sums] = (await t.db.execute<{ scale: number }>(sql`select max(scale(amount))::int as scale from invoices`)).rows;
    expect(sums!.scale).toBe(2);
    // A second scale run continues the numbers of each year where the first left them.
    await seedScale(t.db, 50);
    const after = (await t.db.execute<{ gaps: number }>(sql`
      select count(*)::int as gaps from (
        select split_part(number, '-', 1) as year, count(*) as n, max(split_part(number, '-', 2)::int) as last
        from invoices where number is not null and not is_creditnote group by 1) y where n <> last`)).rows[0]!.gaps;
    expect(after).toBe(0);
  });
});
