import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { countries, connect, type DbHandle } from '@app/db';
import { createTestDatabase } from '../test/db.js';
import { prepareNamed, prepareUnnamed, rowLimit, withPlaceholders, type Preparable } from './prepared.js';

/** A query run once as a named prepared statement. */
const run = <R>(query: Preparable<R>) => prepareNamed(query).execute();

let database: Awaited<ReturnType<typeof createTestDatabase>>;
// One connection: the prepared statements PostgreSQL shows are that connection's.
let one: DbHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  one = connect(database.url, { max: 1 });
});
afterAll(async () => {
  await one.close();
  await database.drop();
});

const statements = async () =>
  (
    await one.pool.query<{ name: string; statement: string; runs: number }>(
      'select name, statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements order by name',
    )
  ).rows;

describe('prepareNamed', () => {
  it('runs a query as one named statement per text, reused by every run of the same shape', async () => {
    const page = (code: string) => one.db.select({ id: countries.id }).from(countries).where(eq(countries.cntry_code, code)).orderBy(asc(countries.id)).limit(rowLimit(7));
    expect(await run(page('DE'))).toEqual([]);
    await run(page('FR'));
    await run(page('IT'));

    const [statement, ...others] = await statements();
    expect(others).toEqual([]);
    expect(statement!.name).toMatch(/^q_[\w-]{27}$/);
    // The values are parameters (one statement for every code), the limit is in the text.
    expect(statement!.statement).toContain('"cntry_code" = $1');
    expect(statement!.statement).toMatch(/limit 7$/);
    expect(statement!.runs).toBe(3);

    await run(one.db.select({ id: countries.id }).from(countries).limit(rowLimit(8)));
    expect((await statements()).map((s) => s.statement.slice(-7))).toEqual(expect.arrayContaining(['limit 7', 'limit 8']));
  });

  it('answers the rows, mapped as Drizzle maps them', async () => {
    await one.db.insert(countries).values({ cntry_code: 'AT', cntry_name: 'Österreich' });
    const [row] = await run(one.db.select({ code: countries.cntry_code, name: countries.cntry_name }).from(countries).where(eq(countries.cntry_code, 'AT')));
    expect(row).toEqual({ code: 'AT', name: 'Österreich' });
  });

  it('maps every kind of field as Drizzle does: timestamps, dates, typed and aliased SQL, empty values', async () => {
    await one.db.insert(countries).values({ cntry_code: 'BE', cntry_name: 'België' });
    const query = () =>
      one.db
        .select({
          id: countries.id,
          code: countries.cntry_code,
          edited: countries.edit_timestamp,
          day: sql<string>`date '2026-02-28'`,
          count: sql<number>`'7'::text`.mapWith(Number),
          doubled: sql<number>`${countries.id} * 2`.mapWith(Number).as('doubled'),
          nothing: sql<string | null>`null::text`,
        })
        .from(countries)
        .orderBy(asc(countries.id));
    const drizzle = await query();
    const prepared = await run(query());
    expect(prepared).toEqual(drizzle);
    expect(prepared[0]!.edited).toBeInstanceOf(Date);
    expect(prepared[0]).toMatchObject({ day: '2026-02-28', count: 7, nothing: null });
    expect(Object.keys(prepared[0]!)).toEqual(Object.keys(drizzle[0]!));
  });
});

describe('rowLimit', () => {
  it('takes whole numbers only, so nothing but a number is ever written into a statement', () => {
    expect(() => rowLimit(1.5)).toThrow(RangeError);
    expect(() => rowLimit(-1)).toThrow(RangeError);
    expect(() => rowLimit(Number('50; drop table x'))).toThrow(RangeError);
  });
});

describe('withPlaceholders', () => {
  it('splits a condition into a text shared by every condition of its shape and the values apart', () => {
    const germany = withPlaceholders(and(isNotNull(countries.cntry_code), eq(countries.cntry_code, 'DE'), eq(countries.id, 7))!)!;
    const france = withPlaceholders(and(isNotNull(countries.cntry_code), eq(countries.cntry_code, 'FR'), eq(countries.id, 9))!)!;
    expect(germany.text).toBe(france.text);
    expect(germany.text).toContain('"cntry_code" = $1');
    expect(germany.values).toEqual({ v1: 'DE', v2: 7 });
    expect(france.values).toEqual({ v1: 'FR', v2: 9 });
    expect(withPlaceholders(isNotNull(countries.cntry_code))!.values).toEqual({});
  });

  it('answers the rows of the condition itself, from a statement written once and run with other values', async () => {
    await one.db.insert(countries).values([
      { cntry_code: 'NL', cntry_name: 'Nederland' },
      { cntry_code: 'LU', cntry_name: 'Luxembourg' },
    ]);
    const byCode = (code: string) => and(eq(countries.cntry_code, code), sql`${countries.cntry_name} <> ${'nowhere'}`)!;
    const kept = withPlaceholders(byCode('NL'))!;
    const statement = prepareUnnamed(one.db.select({ name: countries.cntry_name }).from(countries).where(kept.template));
    expect(await statement.execute(kept.values)).toEqual([{ name: 'Nederland' }]);
    expect(await statement.execute(withPlaceholders(byCode('LU'))!.values)).toEqual([{ name: 'Luxembourg' }]);
    // Each run is planned for its values: nothing stays prepared on the connection.
    expect((await statements()).filter((s) => s.statement.includes('nowhere') || s.statement.includes('<> $2'))).toEqual([]);
  });

  it('leaves a condition whole when its text holds a $ and digits that are not its parameters', () => {
    expect(withPlaceholders(sql`${countries.cntry_name} <> '$1' and ${countries.id} = ${5}`)).toBeUndefined();
    expect(withPlaceholders(sql`${countries.id} = ${5} and ${countries.cntry_name} <> '$2'`)).toBeUndefined();
  });
});
