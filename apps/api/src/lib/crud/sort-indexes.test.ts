import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import {
  contractResource,
  invoicePaymentResource,
  invoiceResource,
  scholarshipPaymentResource,
  studentResource,
  viewSortKeys,
  viewsOf,
  type AnyResource,
} from '@app/contracts';
import { connect, programs } from '@app/db';
import { createApp } from '../../app.js';
import { setupTestApp } from '../../test/app.js';
import { userWithToken } from '../../test/factories.js';
import { recordStatements } from '../../test/sent-statements.js';

/**
 * Issue 11: "an index for each default sort", and a list fast in any sort of the descriptor. At scale a sort no
 * index serves reads and sorts the whole view for 50 rows: 0.1–1.2 s on 100k students, 1M invoices, 583k
 * payments (the crawl of 2026-11-26, decision 029). Here every column an overview shows and sorts by, in both
 * directions, must be found in order from an index: the page's rows come from an index walk, at most sorted
 * within the groups of a joined column (an Incremental Sort: the contracts walked by their student's name, each
 * one's invoices by id), never a Sort of everything. PostgreSQL is told to avoid a Sort wherever it can
 * (`enable_sort = off`), so a Sort in the plan means no index could give the order.
 */
const t = await setupTestApp();
const one = connect(t.databaseUrl, { max: 1 });
const app = createApp({ ...t.ctx, db: one.db });
let token = '';

beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'Reader'));
  // A lookup row to sort by: without one, a list sorted by a program's name is empty before it is queried.
  await t.db.insert(programs).values({ name: 'Sorted', shortname: 'SORTED' });
  await one.pool.query('set enable_sort = off');
});
afterAll(() => one.close());

/**
 * Sorts by the name of a lookup row (a program, a status): a handful of names, each with many rows. Sorted within
 * each name (an Incremental Sort), a program's 100k contracts were read whole for 50 (decision 030). Each name's
 * rows must come by id from the index of the key and the id, a page at most (crud `lookupSorts`).
 */
const LOOKUP_SORTS = new Set(['contract_status_name', 'program_shortname', 'scholarship_code', 'scholarship_payment_type']);

/**
 * A sort of more rows than a page: a Sort of rows no Limit below it bounds, or for a lookup's name an Incremental
 * Sort of the same (each name's rows sorted whole). Sorting each lookup row's first page is fine: those pages are
 * CTEs (one per name, decision 032), so a Limit in the plan of a CTE the Sort scans bounds it too.
 */
const unbounded = (n: PlanNode, field: string, plan: PlanNode) => {
  if (n['Node Type'] !== 'Sort' && !(n['Node Type'] === 'Incremental Sort' && LOOKUP_SORTS.has(field))) return false;
  const ctePlan = (name: string | undefined) => nodes(plan).find((c) => c['Subplan Name'] === `CTE ${name}`);
  const limited = (below: PlanNode): boolean =>
    below['Node Type'] === 'Limit' || (below['Node Type'] === 'CTE Scan' && nodes(ctePlan(below['CTE Name']) ?? below).some((c) => c['Node Type'] === 'Limit'));
  return !nodes(n).some(limited);
};

/** Sorts an overview offers that no index can serve, and why. */
const UNINDEXED: Readonly<Record<string, string>> = {
  // A student without a second country must stay in the list: the countries cannot lead a left join.
  'Students citizenship1': 'left join',
};

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'CTE Name'?: string;
  'One-Time Filter'?: string;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** The statements sent through the test's connection since a request began (pageAndPlan): what it ran, with its values. */
const sent = recordStatements(one.pool);

/** The plan of the statement that found the page of `query` (the one with an offset), for its own values, and the page. */
async function pageAndPlan(resource: AnyResource, query: string): Promise<{ plan: PlanNode; body: { data: unknown[]; links: { pagination: { total: number } } } }> {
  sent.length = 0;
  const res = await request(app).get(`/api/v1.0/${resource.apiPath}?${query}`).set('Authorization', `Bearer ${token}`);
  expect(res.status, res.text).toBe(200);
  // The statement that found the page (its ids limited and offset), not the EXPLAIN that chose how.
  const page = sent.filter((s) => !/^explain/i.test(s.text) && /offset (\$\d+|\d+)(\)|$)/.test(s.text));
  expect(page, query).toHaveLength(1);
  const { text, values } = page[0]!;
  const explained = await one.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${text}`, values);
  return { plan: explained.rows[0]!['QUERY PLAN'][0].Plan, body: res.body };
}

const overviews = [studentResource, contractResource, invoiceResource, invoicePaymentResource, scholarshipPaymentResource].flatMap((resource) =>
  viewsOf(resource).map((view) => ({ resource, view, label: view.title })),
);

describe('the overviews of the big tables', () => {
  it.each(overviews)('$label are found in every sort they offer by walking an index', async ({ resource, view, label }) => {
    const sorts = viewSortKeys(resource, view).filter((field) => !UNINDEXED[`${label} ${field}`]);
    expect(sorts.length).toBeGreaterThan(3);
    const sorted: string[] = [];
    for (const field of sorts) {
      for (const direction of ['asc', 'desc']) {
        const query = new URLSearchParams({ ...view.fixedFilter, sort: `${field}|${direction}` }).toString();
        const { plan } = await pageAndPlan(resource, query);
        // The page's ids: the first Limit, of the statement's subquery (the outer select orders only those 50 rows).
        const [limit] = nodes(plan).filter((n) => n['Node Type'] === 'Limit');
        expect(limit, query).toBeDefined();
        if (nodes(limit!).some((n) => unbounded(n, field, plan))) sorted.push(`${field}|${direction}`);
      }
    }
    expect(sorted, `${label}: sorts no index serves`).toEqual([]);
  });
});

describe('filters no row can meet together (emptyWhen)', () => {
  it.each([
    { resource: scholarshipPaymentResource, filters: 'planned=true&exported=true' },
    { resource: scholarshipPaymentResource, filters: 'planned=true&payment_date=2026-01-01' },
    { resource: invoiceResource, filters: 'planned=true&open=true' },
    { resource: invoiceResource, filters: 'creditnote=true&open=true' },
  ])('$resource.apiPath with $filters are answered as empty without reading a row', async ({ resource, filters }) => {
    const { plan, body } = await pageAndPlan(resource, `${filters}&sort=student_name|asc`);
    expect(body.data).toEqual([]);
    expect(body.links.pagination.total).toBe(0);
    // PostgreSQL's constant `false`: the plan stops at a Result whose one-time filter fails.
    expect(nodes(plan).some((n) => n['One-Time Filter'] === 'false'), filters).toBe(true);
  });
});
