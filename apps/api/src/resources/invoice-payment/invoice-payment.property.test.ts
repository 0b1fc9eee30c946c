import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contracts, invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { contractMoneyOf, createContract, userWithToken } from '../../test/factories.js';
import { contractTotals } from '../../lib/invoicing/money.js';

/**
 * Issue 14 tests: over random payments, edits and deletes (through the API, overpayments allowed), every
 * contract keeps open = invoiced − credited − paid, where the figures are the model's own sums in cents, the
 * contract row's and the sum of its invoice rows' open amounts.
 */
const t = await setupTestApp();
let token: string;
beforeAll(async () => {
  token = (await userWithToken(t.app, t.db, 'User')).token;
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

type Op = { kind: 'pay'; invoice: number; cents: number } | { kind: 'edit'; payment: number; cents: number } | { kind: 'delete'; payment: number };
const cents = fc.integer({ min: 1, max: 200_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), invoice: fc.nat(5), cents }),
  fc.record({ kind: fc.constant('edit' as const), payment: fc.nat(20), cents }),
  fc.record({ kind: fc.constant('delete' as const), payment: fc.nat(20) }),
);
/** Per contract (2), three invoices (amounts in cents), the first with a credit note of some cents. */
const setup = fc.record({
  amounts: fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 6, maxLength: 6 }),
  credits: fc.array(fc.integer({ min: 0, max: 1_000 }), { minLength: 2, maxLength: 2 }),
});

let run = 0;
describe('contract money under random payments', () => {
  it('keeps open = invoiced − credited − paid for every contract, on the contract and over its invoices', async () => {
    await fc.assert(
      fc.asyncProperty(setup, fc.array(op, { minLength: 1, maxLength: 12 }), async ({ amounts, credits }, ops) => {
        run++;
        const cs = [await createContract(t.db), await createContract(t.db)];
        const invoiceIds: number[] = [];
        const model = cs.map(() => ({ invoiced: 0, credited: 0, paid: new Map<number, number>() }));
        const contractOfInvoice: number[] = [];
        for (let k = 0; k < 6; k++) {
          const ci = Math.floor(k / 3);
          const [inv] = await t.db
            .insert(invoices)
            .values({ contract_id: cs[ci]!.id, year: 1, semester: 0, amount: (amounts[k]! / 100).toFixed(2), description: 'Fee', number: `R${run}-${k}`, invoice_date: '2026-01-01', document_type_id: 5 })
            .returning();
          invoiceIds.push(inv!.id);
          contractOfInvoice.push(ci);
          model[ci]!.invoiced += amounts[k]!;
          if (k % 3 === 0 && credits[ci]! > 0) {
            await t.db.insert(invoices).values({ contract_id: cs[ci]!.id, year: 1, semester: 0, amount: (credits[ci]! / 100).toFixed(2), description: 'Credit', number: `CN-R${run}-${k}`, invoice_date: '2026-01-02', document_type_id: 6, linked_invoice_id: inv!.id });
            model[ci]!.credited += credits[ci]!;
          }
        }
        const payments: { id: number; contract: number }[] = [];
        for (const o of ops) {
          if (o.kind === 'pay') {
            const res = await api('post', '/invoice_payments').send({ invoice_id: invoiceIds[o.invoice], payment_date: '2026-02-01', amount_paid: o.cents / 100, allow_overpayment: true });
            expect(res.status, res.text).toBe(201);
            const contract = contractOfInvoice[o.invoice]!;
            payments.push({ id: res.body.id, contract });
            model[contract]!.paid.set(res.body.id, o.cents);
          } else if (payments.length > 0) {
            const p = payments[o.payment % payments.length]!;
            if (o.kind === 'edit') {
              const current = (await api('get', `/invoice_payments/${p.id}`)).body;
              const res = await api('put', `/invoice_payments/${p.id}`).set('If-Match', current.edit_timestamp).send({ id: p.id, amount_paid: o.cents / 100, allow_overpayment: true });
              expect(res.status, res.text).toBe(200);
              model[p.contract]!.paid.set(p.id, o.cents);
            } else {
              expect((await api('delete', `/invoice_payments/${p.id}`)).status).toBe(204);
              payments.splice(payments.indexOf(p), 1);
              model[p.contract]!.paid.delete(p.id);
            }
          }
        }
        for (const [ci, c] of cs.entries()) {
          const m = model[ci]!;
          const paid = [...m.paid.values()].reduce((a, b) => a + b, 0);
          const expectedOpen = m.invoiced - m.credited - paid;
          const row = await contractMoneyOf(t.db, c.id);
          const totals = contractTotals(contracts.id);
          const [parts] = await t.db
            .select({ gross: totals.invoiced_gross, credited: totals.credited, paid: totals.paid, open: totals.open })
            .from(contracts)
            .where(eq(contracts.id, c.id));
          // NUMERIC text from the database, compared in cents.
          const inCents = (v: unknown) => Math.round(Number(v) * 100);
          expect([inCents(parts!.gross), inCents(parts!.credited), inCents(parts!.paid), inCents(parts!.open)]).toEqual([m.invoiced, m.credited, paid, expectedOpen]);
          expect(inCents(row!.to_be_payed_amount)).toBe(expectedOpen);
          const list = (await api('get', `/invoices?contract_id=${c.id}&numbered=true&per_page=50`)).body.data as { to_be_payed_amount: number }[];
          expect(list.reduce((sum, r) => sum + inCents(r.to_be_payed_amount), 0)).toBe(expectedOpen);
        }
      }),
      { numRuns: 25 },
    );
  });
});
