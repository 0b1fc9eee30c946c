import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ESTIMATE_FROM_ROWS } from './crud-service.js';
import { setupTestApp } from '../../test/app.js';
import { userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
let token = '';
const ROWS = ESTIMATE_FROM_ROWS + 500;

beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'Reader'));
  // Codes AAA…: enough countries for the estimate, then the statistics the planner keeps.
  await t.db.execute(sql`
    insert into countries (cntry_code, cntry_name)
    select chr(65 + n / 676) || chr(65 + n / 26 % 26) || chr(65 + n % 26), 'Land ' || lpad(n::text, 5, '0')
    from generate_series(0, ${ROWS - 1}) n
    on conflict (cntry_code) do nothing`);
  await t.db.execute(sql`analyze countries`);
});

const list = (query: string) => t.http().get(`/api/v1.0/countries${query}`).set('Authorization', `Bearer ${token}`);
const exact = async () => Number((await t.db.execute<{ n: number }>(sql`select count(*)::int as n from countries`)).rows[0]!.n);

describe('the count of a big list', () => {
  it('is the planner\'s estimate, marked as such, when nothing filters the list', async () => {
    const res = await list('?page=2');
    expect(res.status).toBe(200);
    const { pagination } = res.body.links;
    expect(pagination.estimated).toBe(true);
    // ANALYZE of a small table reads every row: the estimate is the count here, on a big one it is close.
    expect(Math.abs(pagination.total - (await exact())) / (await exact())).toBeLessThan(0.05);
    expect(pagination).toMatchObject({ current_page: 2, from: 51, to: 100 });
    expect(res.body.data).toHaveLength(50);
  });

  it('is exact on request, and whenever a search or a filter narrows the list', async () => {
    const counted = (await list('?count=exact')).body.links.pagination;
    expect(counted).toMatchObject({ total: await exact() });
    expect(counted).not.toHaveProperty('estimated');
    const searched = (await list('?search=Land%2000')).body.links.pagination;
    expect(searched).not.toHaveProperty('estimated');
    expect(searched.total).toBe(1000);
    expect((await list('?count=roughly')).status).toBe(400);
  });

  it('is exact on the last page, whatever the estimate said', async () => {
    const total = await exact();
    const lastPage = Math.ceil(total / 200);
    const res = await list(`?per_page=200&page=${lastPage}`);
    const { pagination } = res.body.links;
    expect(pagination).not.toHaveProperty('estimated');
    expect(pagination).toMatchObject({ total, last_page: lastPage, to: total });
  });

  it('pages in the order asked, the same rows as one query would give', async () => {
    const page3 = (await list('?sort=cntry_name|desc&page=3&per_page=20')).body.data.map((c: { cntry_name: string }) => c.cntry_name);
    const expected = (
      await t.db.execute<{ cntry_name: string }>(sql`select cntry_name from countries order by cntry_name desc, id offset 40 limit 20`)
    ).rows.map((r) => r.cntry_name);
    expect(page3).toEqual(expected);
  });
});
