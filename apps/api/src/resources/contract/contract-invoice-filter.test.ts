import { beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';

/**
 * Issue 18 point 1: the contract advanced filter's invoice fields. A contract matches when one of its invoices
 * matches, each field with the meaning it has on the invoice overview.
 */
const t = await setupTestApp();
const student = await createStudent(t.db);
const [a, b, c, d] = [
  await createContract(t.db, { student_id: student.id }),
  await createContract(t.db, { student_id: student.id }),
  await createContract(t.db, { student_id: student.id }),
  await createContract(t.db, { student_id: student.id }),
];
let token: string;
beforeAll(async () => {
  token = (await userWithToken(t.app, t.db, 'Reader')).token;
});
const get = (path: string) => t.http().get(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const row = (values: Partial<typeof invoices.$inferInsert> & { contract_id: number }) => ({
  year: 1,
  semester: 0,
  amount: '500.00',
  description: 'Fee',
  planned_date: '2026-03-01',
  document_type_id: 1,
  document_reference: 'REF',
  ...values,
});
// A: an open participation fee, e-mailed, due 2026-04-01.
// B: an invoice settled by its credit note (nothing open), never e-mailed, due 2026-02-01, planned in May.
// C: a planned pro-forma registration fee, planned in January. D: no invoices at all.
await t.db.insert(invoices).values([
  row({ contract_id: a.id, number: '2026-00001', invoice_date: '2026-03-02', expiration_date: '2026-04-01', document_type_id: 5, email_timestamp: new Date('2026-03-02T10:00:00Z') }),
  row({ contract_id: c.id, document_type_id: 3, pro_forma: true, planned_date: '2026-01-15' }),
]);
const [billed] = await t.db
  .insert(invoices)
  .values(row({ contract_id: b.id, number: '2026-00002', invoice_date: '2026-01-02', expiration_date: '2026-02-01', planned_date: '2026-05-01' }))
  .returning();
await t.db
  .insert(invoices)
  .values(row({ contract_id: b.id, number: 'CN-2026-00002', invoice_date: '2026-01-10', document_type_id: 2, linked_invoice_id: billed!.id, planned_date: '2026-05-01' }));

const mine = new Set([a.id, b.id, c.id, d.id]);
const name = new Map([[a.id, 'A'], [b.id, 'B'], [c.id, 'C'], [d.id, 'D']]);
async function contractsWhere(query: string): Promise<string[]> {
  const res = await get(`/contracts?per_page=100&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { id: number }[]).filter((r) => mine.has(r.id)).map((r) => name.get(r.id)!).sort();
}

describe('contracts filtered by their invoices', () => {
  const cases: [string, string[]][] = [
    ['document_type_id=5', ['A']],
    ['document_type_id=3', ['C']],
    ['document_type_id=2', ['B']],
    ['email_sent=true', ['A']],
    ['email_sent=false', ['B', 'C']],
    ['open=true', ['A']],
    ['open=false', ['B', 'C']],
    ['pro_forma=true', ['C']],
    ['pro_forma=false', ['A', 'B']],
    ['planned_before=2026-02-01', ['C']],
    ['planned_before=2026-06-01', ['A', 'B', 'C']],
    ['expired_after=2026-03-01', ['A']],
    ['expired_after=2026-01-01', ['A', 'B']],
  ];
  for (const [query, expected] of cases) {
    it(`${query}: a contract with a matching invoice is in, one without is out`, async () => {
      expect(await contractsWhere(query)).toEqual(expected);
    });
  }

  it('means what the invoice overview means: the contracts of the invoices it lists for the same field', async () => {
    for (const [query] of cases) {
      const listed = (await get(`/invoices?per_page=100&${query}`)).body.data as { contract_id: number }[];
      const fromInvoices = [...new Set(listed.map((r) => r.contract_id))].map((id) => name.get(id)!).sort();
      expect(await contractsWhere(query), query).toEqual(fromInvoices);
    }
  });

  it('needs one invoice that meets all the invoice fields given, and counts only those contracts', async () => {
    // B has a type-1 invoice and A an open one, but no contract has an open type-1 invoice.
    expect(await contractsWhere('open=true&document_type_id=1')).toEqual([]);
    expect(await contractsWhere('open=true&document_type_id=5&email_sent=true')).toEqual(['A']);
    expect(await contractsWhere('pro_forma=false&expired_after=2026-03-01&open=true')).toEqual(['A']);
    const res = await get(`/contracts?open=true&count=exact`);
    expect(res.body.links.pagination.total).toBe(1);
    // Combined with the contract's own fields.
    expect(await contractsWhere(`open=false&contract_id=${b.id}`)).toEqual(['B']);
  });

  it('refuses a bad value with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['open=maybe', 'open'],
      ['email_sent=1', 'email_sent'],
      ['pro_forma=yes', 'pro_forma'],
      ['document_type_id=x', 'document_type_id'],
      ['planned_before=2026-13-01', 'planned_before'],
      ['expired_after=soon', 'expired_after'],
    ] as const) {
      const res = await get(`/contracts?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors, query).toHaveProperty(field);
    }
  });
});
