import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SEARCHED_CHOICE_LIMIT } from '@app/contracts';
import { COLLECT_BELOW_ROWS, ESTIMATE_FROM_ROWS } from './crud/crud-service.js';
import { setupTestApp } from '../test/app.js';
import { createStudent, createStudentsWithContracts, userWithToken } from '../test/factories.js';

/**
 * Quick-filter texts of one or two letters (decision 028): too short for the trigram indexes, they are found through
 * the short-text indexes (migration 0025), in parts PostgreSQL walks in the list's order when they find many rows
 * and collects when they find few. Whichever way, a search finds exactly the rows the LIKE of its words finds, in
 * the order of the whole list (names that start with the text first), on every page.
 */
const t = await setupTestApp();
let token = '';
/** More students than a part is collected below (COLLECT_BELOW_ROWS): "a" is walked, "yi" collected. */
const ROWS = 2 * ESTIMATE_FROM_ROWS;
const LAST_NAMES = ['Bauer', 'Yilmaz', 'Kaya', 'Öztürk', 'Ærø', 'Nguyen', 'Wójcik'];

beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'Reader'));
  await createStudent(t.db, { first_name: 'Hans', last_name: 'Aessler' });
  await createStudentsWithContracts(t.db, {
    count: ROWS,
    firstName: sql`(array['Anna', 'Ömer', 'Dania', 'Lukas', 'Zoë'])[n % 5 + 1]`,
    lastName: sql`(array[${sql.join(LAST_NAMES.map((name) => sql`${name}`), sql`, `)}])[n % 7 + 1]`,
    email: 'short@example.org',
    applicationPrefix: 'SHORT-',
  });
});

const get = (path: string) => t.http().get(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => Number(r.id));

/** Each word of the text in the key, accents and case aside: the condition of the trigram search. */
const everyWord = (key: string, text: string) =>
  sql.join(
    text.split(/\s+/).map((w) => sql`${sql.raw(key)} like '%' || f_unaccent(lower(${w})) || '%'`),
    sql` and `,
  );
const startsWith = (keys: string[], text: string) =>
  sql.join(
    keys.map((k) => sql`${sql.raw(k)} like f_unaccent(lower(${text.split(/\s+/)[0]})) || '%'`),
    sql` or `,
  );

/** The students the text means, in the list's order: names that start with it first, then by last name (or first name, descending). */
async function studentsMeant(text: string, sort: 'last_name|asc' | 'first_name|desc'): Promise<number[]> {
  const order = sort === 'last_name|asc' ? sql`last_name asc, id asc` : sql`first_name desc, id desc`;
  const { rows } = await t.db.execute<{ id: number }>(sql`
    select id from students where ${everyWord('name_key', text)}
    order by (case when ${startsWith(['last_name_key', 'first_name_key'], text)} then 0 else 1 end), ${order}`);
  return rows.map((r) => Number(r.id));
}

describe('a quick filter of one or two letters', () => {
  // "a": most students, walked; "yi": a seventh, all of them starting with it; "ö", "æ" and "ß" as the name keys
  // spell them (o, ae, ss); "æß" unaccented is four letters ("aess"), beyond what the index holds; "zq": no one.
  const texts = ['a', 'yi', 'Yi', 'ö', 'æ', 'æß', 'a k', 'zq'];

  it('finds the students whose names hold it, names that start with it first, paged as the whole list orders it', async () => {
    for (const text of texts) {
      for (const sort of ['last_name|asc', 'first_name|desc'] as const) {
        const meant = await studentsMeant(text, sort);
        const query = `/students?search=${encodeURIComponent(text)}&sort=${sort}`;
        const first = await get(`${query}&per_page=200`);
        expect(first.status, first.text).toBe(200);
        expect(ids(first), `${text} ${sort}`).toEqual(meant.slice(0, 200));
        const later = await get(`${query}&per_page=7&page=3`);
        expect(ids(later), `${text} ${sort} page 3`).toEqual(meant.slice(14, 21));
        // The last page of a long search: every row before it ranked and sorted right.
        if (meant.length > 200) {
          const lastPage = Math.ceil(meant.length / 200);
          const last = await get(`${query}&per_page=200&page=${lastPage}`);
          expect(ids(last), `${text} ${sort} last page`).toEqual(meant.slice((lastPage - 1) * 200));
        }
      }
    }
    expect((await studentsMeant('a', 'last_name|asc')).length).toBeGreaterThan(ESTIMATE_FROM_ROWS);
    expect(await studentsMeant('æß', 'last_name|asc')).toHaveLength(1);
  });

  it('counts what it finds: exactly when few, by the planner\'s estimate (marked) when many, exactly on request', async () => {
    const yi = (await get('/students?search=yi')).body.links.pagination;
    expect(yi).toMatchObject({ total: (await studentsMeant('yi', 'last_name|asc')).length });
    expect(yi).not.toHaveProperty('estimated');
    const many = (await studentsMeant('a', 'last_name|asc')).length;
    const a = (await get('/students?search=a')).body.links.pagination;
    expect(a.estimated).toBe(true);
    expect(Math.abs(a.total - many) / many).toBeLessThan(0.25);
    expect((await get('/students?search=a&count=exact')).body.links.pagination).toMatchObject({ total: many });
    expect((await get('/students?search=zq')).body.links.pagination).toMatchObject({ total: 0 });
  });

  it('finds the contracts whose student\'s name or application number holds it, on every page', async () => {
    for (const text of ['a', 'yi', 'æ', 's', 'zq', '1']) {
      const { rows } = await t.db.execute<{ id: number }>(sql`
        select id from contracts where ${everyWord('name_key', text)} or application_number ilike ${`%${text}%`}
        order by (case when ${startsWith(['last_name_key', 'first_name_key', 'lower(application_number)'], text)} then 0 else 1 end), last_name asc, id asc`);
      const meant = rows.map((r) => Number(r.id));
      const first = await get(`/contracts?search=${encodeURIComponent(text)}&sort=last_name|asc&per_page=100`);
      expect(first.status, first.text).toBe(200);
      expect(ids(first), text).toEqual(meant.slice(0, 100));
      const later = await get(`/contracts?search=${encodeURIComponent(text)}&sort=last_name|asc&per_page=9&page=4`);
      expect(ids(later), `${text} page 4`).toEqual(meant.slice(27, 36));
    }
  });
});

describe('the students\' choice list searched', () => {
  it('answers the first students whose names hold the text, by last and first name, walked ("a") or collected ("yi")', async () => {
    // "a": more rows than are collected below, so the last names' index is walked; "yi": fewer, read whole and sorted.
    expect((await studentsMeant('a', 'last_name|asc')).length).toBeGreaterThan(COLLECT_BELOW_ROWS);
    expect((await studentsMeant('yi', 'last_name|asc')).length).toBeLessThan(COLLECT_BELOW_ROWS);
    for (const text of ['a', 'yi', 'Yi', 'ö', 'a k', 'æß', 'zq']) {
      const { rows } = await t.db.execute<{ id: number; name: string }>(sql`
        select id, last_name || ', ' || first_name as name from students where ${everyWord('name_key', text)}
        order by last_name, first_name, id limit ${SEARCHED_CHOICE_LIMIT}`);
      const res = await get(`/students/choice/search?search=${encodeURIComponent(text)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body, text).toEqual(rows.map((r) => ({ id: Number(r.id), name: r.name })));
    }
  });
});

describe('the connections lists run on', () => {
  it('plan without parallel workers or JIT: short statements, each answered at once (decision 028)', async () => {
    const { rows } = await t.db.execute<{ workers: string; jit: string }>(
      sql`select current_setting('max_parallel_workers_per_gather') as workers, current_setting('jit') as jit`,
    );
    expect(rows[0]).toEqual({ workers: '0', jit: 'off' });
  });
});
