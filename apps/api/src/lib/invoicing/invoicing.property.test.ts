import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, inArray } from 'drizzle-orm';
import { INVOICE_FROZEN_FIELDS } from '@app/contracts';
import { documentCounters, invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';

/**
 * Issue 13 "Tests": random sequences of plan, create, credit, bulk edit and delete, through the API against the
 * real database; after every step, per contract open = invoiced − credited − paid (the API's figures against
 * the documents, summed here in integer cents), invoice numbers unique and gapless per year, and no numbered
 * invoice changed in a frozen field.
 */
const t = await setupTestApp();
await startTestWorkers(t);
let admin: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  admin = await userWithToken(t.app, t.db, 'Administrator');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${admin.token}`);

/** "1234.56" → 123456, exactly. */
const cents = (text: string): number => {
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return text.startsWith('-') ? -value : value;
};
/** The API's float8 figure in cents (it has at most two decimals). */
const apiCents = (value: number): number => Math.round(value * 100);

type Step =
  | { kind: 'plan'; contract: number; cents: number }
  | { kind: 'create'; pick: number; year: number }
  /** A credit of `percent` % of what is open (over 100: more than open, refused). */
  | { kind: 'credit'; pick: number; percent: number }
  | { kind: 'bulk'; picks: number[]; withDate: boolean }
  | { kind: 'delete'; pick: number };

const YEARS = [2041, 2042];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('plan' as const), contract: fc.nat(1), cents: fc.integer({ min: 1, max: 500_000 }) }),
  fc.record({ kind: fc.constant('create' as const), pick: fc.nat(), year: fc.constantFrom(...YEARS) }),
  fc.record({ kind: fc.constant('credit' as const), pick: fc.nat(), percent: fc.integer({ min: 1, max: 130 }) }),
  fc.record({ kind: fc.constant('bulk' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), withDate: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

/** What the runs did, so the test shows it was not vacuous. */
const done = { created: 0, credited: 0, refusedCredits: 0, bulk: 0, deleted: 0 };

const frozenOf = (row: typeof invoices.$inferSelect) => JSON.stringify([...INVOICE_FROZEN_FIELDS, 'number', 'invoice_date', 'pdf_file_id'].map((f) => row[f as keyof typeof row]));

async function runSequence(steps: Step[]) {
  const contractIds = [(await createContract(t.db)).id, (await createContract(t.db)).id];
  const frozen = new Map<number, string>();
  const rowsOf = () => t.db.select().from(invoices).where(inArray(invoices.contract_id, contractIds)).orderBy(invoices.id);

  for (const s of steps) {
    const rows = await rowsOf();
    const planned = rows.filter((r) => r.number === null);
    const numbered = rows.filter((r) => r.number !== null && !r.is_creditnote);
    const pick = <R>(list: R[], n: number) => (list.length === 0 ? undefined : list[n % list.length]);

    if (s.kind === 'plan') {
      const res = await api('post', '/invoices').send({ contract_id: contractIds[s.contract], year: 1, semester: 0, description: 'Fee', amount: s.cents / 100, planned_date: '2041-01-01', document_type_id: 5 });
      expect(res.status, res.text).toBe(201);
    } else if (s.kind === 'create') {
      const target = pick(planned, s.pick);
      if (target) {
        const res = await api('post', `/invoices/${target.id}/create_pdf`).send({ invoice_date: `${s.year}-06-01` });
        expect(res.status, res.text).toBe(200);
        done.created++;
      }
    } else if (s.kind === 'credit') {
      const target = pick(numbered, s.pick);
      if (target) {
        const credited = rows.filter((r) => r.linked_invoice_id === target.id && r.is_creditnote).reduce((sum, r) => sum + cents(r.amount), 0);
        const open = cents(target.amount) - credited;
        const amount = Math.max(1, Math.floor((open * s.percent) / 100));
        const res = await api('post', '/invoices').send({ linked_invoice_id: target.id, amount: amount / 100, description: 'Credit' });
        expect(res.status, res.text).toBe(amount <= open ? 201 : 409);
        if (res.status === 201) done.credited++;
        else done.refusedCredits++;
      }
    } else if (s.kind === 'bulk') {
      const ids = [...new Set(s.picks.map((p) => pick(rows, p)?.id).filter((id): id is number => id !== undefined))];
      if (ids.length > 0) {
        const versions = Object.fromEntries(rows.filter((r) => ids.includes(r.id)).map((r) => [String(r.id), r.edit_timestamp.toISOString()]));
        const changes = s.withDate ? { planned_date: '2041-02-02', comments: 'bulk' } : { comments: `bulk ${Math.random()}` };
        const res = await api('post', '/invoices/bulk_edit').send({ ids, versions, changes });
        expect(res.status, res.text).toBe(202);
        const run = await waitForRun(t, admin.token, res.body.run_id);
        // A numbered invoice keeps its planned date: exactly those rows fail whose date the change would move.
        const refused = rows.filter((r) => ids.includes(r.id) && r.number !== null && s.withDate && r.planned_date !== '2041-02-02').length;
        expect(run.failed).toBe(refused);
        done.bulk++;
      }
    } else {
      const target = pick(rows, s.pick);
      if (target) {
        const res = await api('delete', `/invoices/${target.id}`);
        expect(res.status, res.text).toBe(target.number === null ? 204 : 409);
        done.deleted++;
      }
    }
    await checkInvariants(contractIds, frozen, await rowsOf());
  }
}

async function checkInvariants(contractIds: number[], frozen: Map<number, string>, rows: (typeof invoices.$inferSelect)[]) {
  // No numbered invoice (or credit note) changed in a frozen field, nor went away.
  for (const r of rows.filter((x) => x.number !== null)) {
    const seen = frozen.get(r.id);
    if (seen === undefined) frozen.set(r.id, frozenOf(r));
    else expect(frozenOf(r), `invoice ${r.number}`).toBe(seen);
  }
  for (const id of frozen.keys()) expect(rows.some((r) => r.id === id), `numbered invoice ${id} is still there`).toBe(true);

  // open = invoiced − credited − paid, per contract and per invoice (paid is 0 until invoice payments exist).
  for (const contractId of contractIds) {
    const mine = rows.filter((r) => r.contract_id === contractId);
    const invoiced = mine.filter((r) => r.number !== null && !r.is_creditnote).reduce((s, r) => s + cents(r.amount), 0);
    const credited = mine.filter((r) => r.is_creditnote).reduce((s, r) => s + cents(r.amount), 0);
    const contract = (await api('get', `/contracts/${contractId}`)).body as Record<string, number>;
    const paid = apiCents(contract.payed_amount!);
    expect(paid).toBe(0);
    expect(apiCents(contract.invoiced_amount!)).toBe(invoiced - credited);
    expect(apiCents(contract.to_be_payed_amount!)).toBe(invoiced - credited - paid);
    const list = (await api('get', `/invoices?numbered=true&contract_id=${contractId}&per_page=100`)).body.data as { id: number; to_be_payed_amount: number; payed_amount: number }[];
    for (const inv of list) {
      const own = mine.find((r) => r.id === inv.id)!;
      const ownCredited = mine.filter((r) => r.linked_invoice_id === inv.id && r.is_creditnote).reduce((s, r) => s + cents(r.amount), 0);
      expect(apiCents(inv.to_be_payed_amount), `open of ${own.number}`).toBe(cents(own.amount) - ownCredited - apiCents(inv.payed_amount));
      expect(apiCents(inv.to_be_payed_amount)).toBeGreaterThanOrEqual(0);
    }
  }

  // Numbers unique and gapless per year: every invoice number of the year is 1..counter, once each.
  const all = await t.db.select({ number: invoices.number, linked: invoices.linked_invoice_id, is_creditnote: invoices.is_creditnote }).from(invoices);
  for (const year of YEARS) {
    const values = all
      .filter((r) => !r.is_creditnote && r.number?.startsWith(`${year}-`))
      .map((r) => Number(r.number!.slice(5)))
      .sort((a, b) => a - b);
    const [counter] = await t.db.select().from(documentCounters).where(and(eq(documentCounters.kind, 'invoice'), eq(documentCounters.year, year)));
    expect(values).toEqual(Array.from({ length: counter?.last_value ?? 0 }, (_, i) => i + 1));
  }
  const numbers = all.map((r) => r.number).filter((n) => n !== null);
  expect(new Set(numbers).size).toBe(numbers.length);
}

describe('invoicing invariants over random sequences (fast-check)', () => {
  it('after every step of plan, create, credit, bulk edit and delete: open = invoiced − credited − paid, numbers gapless per year, numbered invoices frozen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (steps) => {
        await runSequence(steps);
      }),
      {
        numRuns: 12,
        // One sequence that surely does each kind of step, the refusals included, besides the random ones.
        examples: [
          [
            [
              { kind: 'plan', contract: 0, cents: 10_000 },
              { kind: 'plan', contract: 0, cents: 2_550 },
              { kind: 'create', pick: 0, year: 2041 },
              { kind: 'credit', pick: 0, percent: 50 },
              { kind: 'credit', pick: 0, percent: 130 },
              { kind: 'bulk', picks: [0, 1], withDate: true },
              { kind: 'delete', pick: 0 },
              { kind: 'delete', pick: 1 },
            ],
          ],
        ],
      },
    );
    expect(Object.values(done).every((n) => n > 0), JSON.stringify(done)).toBe(true);
  }, 240_000);
});
