import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../client.js';
import { seedScaleInvoices } from './scale-invoices.js';
import { seedScalePayments } from './scale-payments.js';

/**
 * Realistic demo data (names with diacritics from many countries, valid IBANs, contracts in every status,
 * documents). Idempotent: a second run adds nothing. Needs the base seed (countries) first.
 */
const PEOPLE: Array<[first: string, last: string, country: string, city: string, zip: string, iban: string, bic: string, gender: string]> = [
  ['Łukasz', 'Wiśniewski', 'PL', 'Kraków', '30-001', 'PL61109010140000071219812874', 'WBKPPLPP', 'Male'],
  ['Zoë', 'Dubois', 'FR', 'Lyon', '69001', 'FR1420041010050500013M02606', 'PSSTFRPP', 'Female'],
  ['José', 'Muñoz García', 'ES', 'Sevilla', '41001', 'ES9121000418450200051332', 'CAIXESBB', 'Male'],
  ['Ängla', 'Sjöberg', 'SE', 'Göteborg', '411 03', 'SE4550000000058398257466', 'ESSESESS', 'Female'],
  ['Jürgen', 'Schäfer', 'DE', 'München', '80331', 'DE89370400440532013000', 'COBADEFFXXX', 'Male'],
  ['Ngozi', 'Okonkwo', 'NG', 'Lagos', '100001', 'GB29NWBK60161331926819', 'NWBKGB2L', 'Female'],
  ['Nguyễn', 'Thị Hương', 'VN', 'Hà Nội', '100000', 'DE75512108001245126199', 'SOGEDEFF', 'Female'],
  ['Søren', 'Kierkegård', 'DK', 'København', '1050', 'DK5000400440116243', 'DABADKKK', 'Male'],
  ['Ana', 'Conceição', 'PT', 'Porto', '4000-001', 'PT50000201231234567890154', 'BCOMPTPL', 'Female'],
  ['Mehmet', 'Yılmaz', 'TR', 'İzmir', '35210', 'TR330006100519786457841326', 'AKBKTRIS', 'Male'],
  ['Aino', 'Mäkinen', 'FI', 'Tampere', '33100', 'FI2112345600000785', 'NDEAFIHH', 'Female'],
  ['Dvořák', 'Antonín', 'CZ', 'Brno', '602 00', 'CZ6508000000192000145399', 'GIBACZPX', 'Non-Binary'],
  ['Priya', 'Raghunathan', 'IN', 'Chennai', '600001', 'NL91ABNA0417164300', 'ABNANL2A', 'Female'],
  ['Chidi', 'Eze', 'GH', 'Accra', 'GA-001', 'BE68539007547034', 'GEBABEBB', 'Male'],
  ['María José', 'Peña Ñúñez', 'MX', 'Ciudad de México', '06000', 'ES7921000813610123456789', 'CAIXESBB', 'Female'],
  ['Oğuz', 'Çelik', 'TR', 'Ankara', '06050', 'TR320010009999901234567890', 'TCZBTR2A', 'Male'],
  ['Hélène', 'Lefèvre', 'BE', 'Liège', '4000', 'BE71096123456769', 'GKCCBEBB', 'Female'],
  ['Bjørn', 'Ødegård', 'NO', 'Tromsø', '9008', 'NO9386011117947', 'DNBANOKK', 'Male'],
  ['Kateřina', 'Nováková', 'CZ', 'Praha', '110 00', 'CZ5508000000001234567899', 'GIBACZPX', 'Female'],
  ['Ivan', 'Horvat', 'HR', 'Zagreb', '10000', 'HR1210010051863000160', 'ZABAHR2X', 'Male'],
  ['Fatima', 'Al-Zahrā’', 'MA', 'Casablanca', '20000', 'FR7630006000011234567890189', 'AGRIFRPP', 'Female'],
  ['Tomás', 'Ó Súilleabháin', 'IE', 'Corcaigh', 'T12', 'IE29AIBK93115212345678', 'AIBKIE2D', 'Male'],
  ['Lucía', 'Fernández', 'AR', 'Córdoba', 'X5000', 'ES1000492352082414205416', 'BSCHESMM', 'Female'],
  ['Kwame', 'Mensah', 'GH', 'Kumasi', 'AK-039', 'GB82WEST12345698765432', 'NWBKGB2L', 'Male'],
];

/** Letters that do not decompose into a base letter and a mark (Ł, ø, ß …), as a mail address writes them. */
const OWN_LETTERS: Record<string, string> = { ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', ß: 'ss', æ: 'ae', Æ: 'AE', đ: 'd', Đ: 'D', ı: 'i', þ: 'th' };

/** "Łukasz" → "lukasz", "Ó Súilleabháin" → "osuilleabhain": a name as the local part of a demo address. */
export function asciiLetters(name: string): string {
  return [...name.normalize('NFD')]
    .map((ch) => OWN_LETTERS[ch] ?? ch)
    .join('')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}

export async function seedDemo(db: Database): Promise<{ students: number; contracts: number }> {
  const [existing] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from students where email_address like '%@demo.example'`)).rows;
  if ((existing?.n ?? 0) > 0) return { students: 0, contracts: 0 };
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into programs (name, shortname) values
        ('Master in Renewable Energy Systems', 'MRES'), ('Master in Public Health', 'MPH'), ('Master in Data Science', 'MDS')
      on conflict (shortname) do nothing`);
    await tx.execute(sql`
      insert into universities (name, shortname, payment_holder_name, payment_holder_iban, payment_holder_swift, payment_holder_address, payment_bank_address, payment_amount) values
        ('Universität Freiburg', 'UFR', 'Universitätskasse Freiburg', 'DE89370400440532013000', 'COBADEFFXXX', 'Fahnenbergplatz, 79085 Freiburg', 'Commerzbank Freiburg', 1500),
        ('Universidad de Granada', 'UGR', 'Universidad de Granada', 'ES9121000418450200051332', 'CAIXESBB', 'Av. del Hospicio, 18010 Granada', 'CaixaBank Granada', 1250.50),
        ('Uniwersytet Jagielloński', 'UJ', 'Uniwersytet Jagielloński', 'PL61109010140000071219812874', 'WBKPPLPP', 'Gołębia 24, 31-007 Kraków', 'Santander Bank Polska', 980)
      on conflict (shortname) do nothing`);
    let contractsMade = 0;
    for (const [i, [first, last, country, city, zip, iban, bic, gender]] of PEOPLE.entries()) {
      const email = `${asciiLetters(first)}.${asciiLetters(last)}@demo.example`;
      const inserted = await tx.execute<{ id: number }>(sql`
        insert into students (first_name, last_name, address, zip, city, cntry_id, birth_date, gender, citizenship1_cntry_id, email_address,
          phone, payment_holder_first_name, payment_holder_last_name, payment_bank_iban, payment_bank_swift, payment_bank_name, payment_bank_cntry_id)
        select ${first}, ${last}, ${`Main street ${i + 1}`}, ${zip}, ${city}, c.id, ${`${1994 + (i % 8)}-0${1 + (i % 9)}-1${i % 9}`}, ${gender}, c.id, ${email},
          ${`+${40 + i} 555 0${100 + i}`}, ${first}, ${last}, ${iban}, ${bic}, 'Demo Bank', c.id
        from countries c where c.cntry_code = ${country}
        returning id`);
      const studentId = inserted.rows[0]?.id;
      if (!studentId) continue;
      // Contracts in every status, spread over intakes, rounds, programs and universities.
      const status = (i % 6) + 1;
      const contract = await tx.execute<{ id: number }>(sql`
        insert into contracts (student_id, contract_status_id, contract_status_date, scholarship_id, program_id, intake, application_round,
          application_id, y1_university_id, y2_university_id, start_date, end_date, contract_sent_date, instalments)
        select ${studentId}, ${status}, date '2024-09-01' + ${i}::int, ${1 + (i % 8)},
          (select id from programs order by id offset ${i % 3} limit 1), ${2023 + (i % 3)}, ${i % 6}, ${`DA-${10000 + i}`},
          (select id from universities order by id offset ${i % 3} limit 1), (select id from universities order by id offset ${(i + 1) % 3} limit 1),
          make_date(${2023 + (i % 3)}, 9, 1), make_date(${2025 + (i % 3)}, 8, 31), make_date(${2023 + (i % 3)}, 7, 15), ${i % 4 === 0}
        returning id`);
      const contractId = contract.rows[0]!.id;
      contractsMade++;
      await tx.execute(sql`update students set active_contract_id = ${contractId} where id = ${studentId}`);
      if (i % 3 === 0) {
        const filename = `Contract ${last}.txt`;
        await tx.execute(sql`
          with file as (
            insert into stored_files (filename, mime_type, size, sha256, content)
            select ${filename}, 'text/plain', octet_length(bytes), encode(sha256(bytes), 'hex'), bytes
            from (select convert_to(${`Scholarship contract of ${first} ${last}\n`}, 'UTF8') as bytes) b
            returning id)
          insert into contract_files (contract_id, ft_id, description, filename, file_id, uploaded_timestamp)
          select ${contractId}, 1, 'Scholarship contract', ${filename}, file.id, now() from file`);
      }
    }
    return { students: PEOPLE.length, contracts: contractsMade };
  });
}

/**
 * N students, each with a contract (their active one), for benchmarks: set-based inserts, so 100 000 take seconds, not minutes.
 * IBANs are valid (a fixed test IBAN); names vary over a pool of first and last names with diacritics.
 * Each new contract gets ≈ 10 invoices: planned, numbered and credit notes (seedScaleInvoices).
 */
export async function seedScale(db: Database, n: number): Promise<{ students: number; contracts: number; invoices: number }> {
  return db.transaction(async (tx) => {
    const before = (await tx.execute<{ id: number }>(sql`select coalesce(max(id), 0)::int as id from contracts`)).rows[0]?.id ?? 0;
    // Trigram (GIN) indexes are built once after the rows are in, not kept up row by row (100k: 25.9 s → 20.1 s).
    // Dropped and created again in this transaction, so nobody ever sees the tables without them.
    const gin = await tx.execute<{ indexname: string; indexdef: string }>(sql`
      select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename in ('students', 'contracts', 'invoices') and indexdef like '% USING gin %'`);
    for (const { indexname } of gin.rows) await tx.execute(sql`drop index ${sql.identifier(indexname)}`);
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    await tx.execute(sql`insert into programs (name, shortname) values ('Scale Program', 'SCALE') on conflict (shortname) do nothing`);
    await tx.execute(sql`
      insert into universities (name, shortname, payment_holder_name, payment_holder_iban, payment_holder_swift, payment_holder_address, payment_bank_address, payment_amount)
      values ('Scale University', 'SCALEU', 'Scale Kasse', 'DE89370400440532013000', 'COBADEFFXXX', 'Street 1', 'Bank 1', 1000)
      on conflict (shortname) do nothing`);
    const firsts = PEOPLE.map((p) => p[0]);
    const lasts = PEOPLE.map((p) => p[1]);
    // Each new student's contract is made from the ids the student insert returns: no search for students
    // without a contract (without statistics on the fresh rows, that anti-join was planned as a nested loop).
    // The students are inserted and analysed before their contracts: a contract's insert trigger reads its
    // student's names (contracts_student_names), and a trigger's query keeps the plan it got on its first row.
    // Planned while the table looked empty, that plan read the whole table for every contract (100k: over ten
    // minutes instead of seconds).
    const created = await tx.execute<{ ids: number[] | null }>(sql`
      with country_ids as (select array_agg(id order by id) as ids from countries),
      s as (
        insert into students (first_name, last_name, address, zip, city, cntry_id, birth_date, email_address, payment_bank_iban, payment_bank_swift)
        select (string_to_array(${firsts.join('|')}, '|'))[1 + g % ${firsts.length}],
               (string_to_array(${lasts.join('|')}, '|'))[1 + (g / ${firsts.length}) % ${lasts.length}] || ' ' || g,
               'Scale street ' || g, lpad((g % 99999)::text, 5, '0'), 'City ' || (g % 500),
               country_ids.ids[1 + g % least(50, array_length(country_ids.ids, 1))],
               date '1990-01-01' + (g % 4000), 'scale' || g || '@scale.example', 'DE89370400440532013000', 'COBADEFFXXX'
        from generate_series(1, ${n}) g, country_ids
        returning id
      )
      select array_agg(id order by id) as ids from s`);
    await tx.execute(sql`analyze students`);
    const inserted = await tx.execute<{ made: number }>(sql`
      with c as (
        insert into contracts (student_id, contract_status_id, scholarship_id, program_id, intake, application_round, application_id,
          y1_university_id, start_date, end_date)
        select s.id, 1 + s.id % 6, 1 + s.id % 8, (select id from programs where shortname = 'SCALE'), 2020 + s.id % 6, s.id % 6,
          'SCALE-' || s.id, (select id from universities where shortname = 'SCALEU'),
          make_date(2020 + s.id % 6, 9, 1), make_date(2022 + s.id % 6, 8, 31)
        from unnest(${sql.param(created.rows[0]?.ids ?? [])}::int[]) s(id)
        returning 1
      )
      select count(*)::int as made from c`);
    const made = inserted.rows[0]?.made ?? 0;
    // Each scale student's contract is their active one, as the app makes a student's first contract.
    await tx.execute(sql`
      update students s set active_contract_id = c.id
      from contracts c
      where c.student_id = s.id and s.active_contract_id is null and c.application_id like 'SCALE-%'`);
    const invoices = await seedScaleInvoices(tx, before);
    // Issue 14 point 6: the payments of the numbered invoices.
    await seedScalePayments(tx);
    for (const { indexdef } of gin.rows) await tx.execute(sql.raw(indexdef));
    await seedScaleScholarshipPayments(tx);
    await tx.execute(sql`analyze students; analyze contracts; analyze invoices; analyze document_counters; analyze invoice_payments; analyze scholarship_payments`);
    return { students: made, contracts: made, invoices: invoices.invoices };
  });
}

/**
 * Four scholarship payments per scale contract that has none yet (two milestones, two monthly allowances); every
 * other contract's first milestone is numbered (numbers taken from the counters, per year of the payment date,
 * so they stay gapless) and every fourth exported: the payment views and the scholarship overview have work.
 */
async function seedScaleScholarshipPayments(tx: Tx): Promise<void> {
  await tx.execute(sql`
    with src as (
      select c.id as contract_id, k, (c.start_date + (k - 1) * interval '1 month')::date as planned_date,
             k = 1 and c.id % 2 = 0 as numbered
      from contracts c cross join generate_series(1, 4) k
      where c.application_id like 'SCALE-%'
        and not exists (select 1 from scholarship_payments p where p.contract_id = c.id)
    ),
    ranked as (
      select src.*, extract(year from planned_date)::int as year,
             row_number() over (partition by numbered, extract(year from planned_date) order by contract_id) as rn
      from src
    ),
    counted as (
      select year, count(*)::int as n from ranked where numbered group by year
    ),
    advanced as (
      insert into document_counters (kind, year, last_value)
      select 'scholarship_payment', year, n from counted
      on conflict (kind, year) do update set last_value = document_counters.last_value + excluded.last_value
      returning year, last_value
    )
    insert into scholarship_payments (contract_id, scholarship_payment_type_id, period, amount, description, planned_date, plan_key,
      number, payment_date, payment_allowed, exported_timestamp)
    select r.contract_id,
           case when r.k <= 2 then 1 else 3 end,
           case when r.k <= 2 then 'Y' || r.k else to_char(r.planned_date, 'YYYY-MM') end,
           case when r.k <= 2 then 1500 + (r.contract_id % 7) * 100 else 300 end,
           case when r.k <= 2 then 'Milestone year ' || r.k else 'Monthly allowance ' || to_char(r.planned_date, 'YYYY-MM') end,
           r.planned_date,
           'SCALE-' || r.k,
           case when r.numbered then
             'S' || r.year || '-' || lpad((a.last_value - cn.n + r.rn)::text, greatest(5, length((a.last_value - cn.n + r.rn)::text)), '0')
           end,
           case when r.numbered then r.planned_date end,
           r.numbered,
           case when r.numbered and r.contract_id % 4 = 0 then now() end
    from ranked r
    left join advanced a on r.numbered and a.year = r.year
    left join counted cn on r.numbered and cn.year = r.year`);
}