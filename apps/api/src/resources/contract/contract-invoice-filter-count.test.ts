import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedCountries, seedScale } from '@app/db';
import { ESTIMATE_FROM_ROWS } from '../../lib/crud/crud-service.js';
import { setupTestApp } from '../../test/app.js';
import { userWithToken } from '../../test/factories.js';

/**
 * The count of a list filtered by invoices (issue 18 point 1 at scale): a probe of every contract's invoices,
 * so a big one is the planner's estimate, marked as such, and exact on request or when it is small.
 */
const t = await setupTestApp();
let token = '';
beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'Reader'));
  await seedCountries(t.db);
  await seedScale(t.db, ESTIMATE_FROM_ROWS + 500);
});
const list = async (query: string) => {
  const res = await t.http().get(`/api/v1.0${query}`).set('Authorization', `Bearer ${token}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: { id: number }[]; links: { pagination: { total: number; estimated?: boolean } } };
};
/** Contracts with an open invoice, counted here from the documents and payments (the scale data pays most). */
const exactOpenContracts = async () =>
  (
    await t.db.execute<{ n: number }>(sql`
      select count(distinct i.contract_id)::int as n from invoices i
      where i.number is not null and not i.is_creditnote
        and i.amount - coalesce((select sum(cn.amount) from invoices cn where cn.linked_invoice_id = i.id and cn.is_creditnote), 0)
          - coalesce((select sum(p.amount_paid) from invoice_payments p where p.invoice_id = i.id), 0) > 0`)
  ).rows[0]!.n;

describe('contracts filtered by an invoice field, counted', () => {
  it('a filter that finds many contracts is counted by the planner\'s estimate, marked as such and close', async () => {
    const exact = await exactOpenContracts();
    expect(exact).toBeGreaterThan(ESTIMATE_FROM_ROWS);
    const { pagination } = (await list('/contracts?open=true')).links;
    expect(pagination.estimated).toBe(true);
    expect(Math.abs(pagination.total - exact) / exact).toBeLessThan(0.1);
  });

  it('is exact on request, and when the estimate is small', async () => {
    const counted = (await list('/contracts?open=true&count=exact')).links.pagination;
    expect(counted.total).toBe(await exactOpenContracts());
    expect(counted).not.toHaveProperty('estimated');
    const [one] = (await list('/contracts?open=true&per_page=1')).data;
    const narrowed = (await list(`/contracts?open=true&contract_id=${one!.id}`)).links.pagination;
    expect(narrowed).toEqual(expect.objectContaining({ total: 1 }));
    expect(narrowed).not.toHaveProperty('estimated');
  });

  it('open invoices are counted the same way on the invoice overview', async () => {
    const estimated = (await list('/invoices?numbered=true&open=true')).links.pagination;
    expect(estimated.estimated).toBe(true);
    const exact = (await list('/invoices?numbered=true&open=true&count=exact')).links.pagination;
    expect(exact).not.toHaveProperty('estimated');
    const [counted] = (
      await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from invoices i where i.number is not null and not i.is_creditnote
          and i.amount - coalesce((select sum(cn.amount) from invoices cn where cn.linked_invoice_id = i.id and cn.is_creditnote), 0)
          - coalesce((select sum(p.amount_paid) from invoice_payments p where p.invoice_id = i.id), 0) > 0`)
    ).rows;
    expect(exact.total).toBe(counted!.n);
  });

  it('an invoice view with many rows is counted by estimate, like an unfiltered big list; exact on request', async () => {
    const [exact] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from invoices where number is not null and not is_creditnote`)).rows;
    expect(exact!.n).toBeGreaterThan(ESTIMATE_FROM_ROWS);
    const estimated = (await list('/invoices?numbered=true')).links.pagination;
    expect(estimated.estimated).toBe(true);
    expect(Math.abs(estimated.total - exact!.n) / exact!.n).toBeLessThan(0.1);
    expect((await list('/invoices?numbered=true&count=exact')).links.pagination).toEqual(expect.objectContaining({ total: exact!.n }));
  });
});

describe('scholarship payment views, counted (the same scale data)', () => {
  it('a view with many rows is counted by estimate, like an unfiltered big list; exact on request and when narrowed', async () => {
    const [exact] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from scholarship_payments where number is null`)).rows;
    expect(exact!.n).toBeGreaterThan(ESTIMATE_FROM_ROWS);
    const estimated = (await list('/scholarship_payments?planned=true')).links.pagination;
    expect(estimated.estimated).toBe(true);
    expect(Math.abs(estimated.total - exact!.n) / exact!.n).toBeLessThan(0.1);
    expect((await list('/scholarship_payments?planned=true&count=exact')).links.pagination).toEqual(expect.objectContaining({ total: exact!.n }));
    const [one] = (await list('/scholarship_payments?planned=true&per_page=1')).data;
    const narrowed = (await list(`/scholarship_payments?planned=true&contract_id=${(one as { contract_id?: number }).contract_id}`)).links.pagination;
    expect(narrowed).not.toHaveProperty('estimated');
  });
});

describe('the kinds of invoice the planner knows occur together (migration 0027)', () => {
  /** The planner's estimate of the invoices a condition finds. */
  const planned = async (condition: string) =>
    (await t.db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(sql.raw(`explain (format json) select id from invoices where ${condition}`))).rows[0]![
      'QUERY PLAN'
    ][0].Plan['Plan Rows'];
  const counted = async (condition: string) => (await t.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from invoices where ${condition}`))).rows[0]!.n;

  it('expects no numbered invoice of a credit note\'s type, and no pro-forma credit note, yet many numbered participation fees', async () => {
    await t.db.execute(sql`analyze invoices`);
    // Combinations that never occur: a filter of the numbered view by type 6, or of the credit notes by pro forma,
    // was taken for thousands of rows, and its page walked a sort's index through every invoice for them.
    for (const never of ['number is not null and not is_creditnote and document_type_id = 6', 'is_creditnote and pro_forma']) {
      expect(await counted(never), never).toBe(0);
      expect(await planned(never), never).toBeLessThan(10);
    }
    const many = 'number is not null and not is_creditnote and document_type_id = 5';
    const found = await counted(many);
    expect(found).toBeGreaterThan(ESTIMATE_FROM_ROWS);
    expect(Math.abs((await planned(many)) - found) / found).toBeLessThan(0.25);
  });
});
