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
    expect(made).toEqual({ students: 2000, contracts: 2000 });
    const n = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from contracts c join students s on s.id = c.student_id where s.email_address like 'scale%'`)).rows[0]!.n;
    expect(n).toBe(2000);
    const active = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from students s join contracts c on c.id = s.active_contract_id and c.student_id = s.id where s.email_address like 'scale%'`,
    );
    expect(active.rows[0]!.n).toBe(2000);
    // The trigram indexes, rebuilt after the insert, are all there again.
    const gin = async () =>
      (await t.db.execute<{ name: string }>(sql`select indexname as name from pg_indexes where tablename in ('students', 'contracts') and indexdef like '% USING gin %' order by 1`)).rows.map((r) => r.name);
    expect(await gin()).toEqual(['contracts_application_number_trgm_idx', 'students_address_trgm_idx', 'students_email_trgm_idx', 'students_name_trgm_idx']);
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
});
