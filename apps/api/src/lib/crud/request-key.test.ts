import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { invoicePayments, invoices, requestKeys } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
type U = Awaited<ReturnType<typeof userWithToken>>;
let user: U;
let other: U;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  other = await userWithToken(t.app, t.db, 'User');
});
const post = (path: string, body: object, key?: string, token = user.token) => {
  const req = t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
  return (key ? req.set('Idempotency-Key', key) : req).send(body);
};
let seq = 0;
const newKey = () => `test-key-${++seq}-${Date.now()}-abcdef`;
async function numberedInvoice(amount = '300.00') {
  const contract = await createContract(t.db);
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contract.id, year: 1, semester: 0, amount, description: 'Participation fee year 1', planned_date: '2026-03-01', number: `K-${++seq}-${Date.now()}`, invoice_date: '2026-03-05', expiration_date: '2026-04-04', document_type_id: 5 })
    .returning();
  return { contract, invoice: row! };
}
const paymentsOf = (invoiceId: number) => t.db.select().from(invoicePayments).where(eq(invoicePayments.invoice_id, invoiceId));

describe('a creating request sent again with its Idempotency-Key is done once (decision 050)', () => {
  it('books one payment for five identical requests sent at once, each answered with its id; the next payment takes the next number', async () => {
    const { invoice } = await numberedInvoice();
    const key = newKey();
    const body = { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 100 };
    const replies = await Promise.all([1, 2, 3, 4, 5].map(() => post('/invoice_payments', body, key)));
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    const booked = await paymentsOf(invoice.id);
    expect(booked).toHaveLength(1);
    // Without a key (or with a new one) a request is a new payment, numbered right after: no number was used up.
    const next = await post('/invoice_payments', body, newKey());
    const [second] = (await paymentsOf(invoice.id)).filter((p) => p.id === next.body.id);
    expect(Number(second!.number.slice(-5))).toBe(Number(booked[0]!.number.slice(-5)) + 1);
  });

  it('makes one credit note and one transaction fee for a request sent twice', async () => {
    const { contract, invoice } = await numberedInvoice();
    const note = { linked_invoice_id: invoice.id, amount: 10, description: 'Refund of a double charge' };
    const noteKey = newKey();
    const notes = await Promise.all([post('/invoices', note, noteKey), post('/invoices', note, noteKey)]);
    expect(notes.map((r) => r.status)).toEqual([201, 201]);
    expect(notes[0]!.body.id).toBe(notes[1]!.body.id);
    expect(await t.db.select().from(invoices).where(and(eq(invoices.linked_invoice_id, invoice.id), eq(invoices.is_creditnote, true)))).toHaveLength(1);

    const feeKey = newKey();
    const fee = { invoice_date: '2026-11-02', amount: 1.23 };
    const fees = await Promise.all([post(`/contracts/${contract.id}/create_transaction_fee`, fee, feeKey), post(`/contracts/${contract.id}/create_transaction_fee`, fee, feeKey)]);
    expect(fees.map((r) => r.status)).toEqual([200, 200]);
    expect(fees[0]!.body.message).toMatch(/^Transaction fee \d{4}-\d{5} created$/);
    expect(fees[1]!.body.message).toBe(fees[0]!.body.message);
    expect(await t.db.select().from(invoices).where(and(eq(invoices.contract_id, contract.id), eq(invoices.document_type_id, 9)))).toHaveLength(1);
  });

  it('does the work again when the first request failed: a refusal leaves the key unused', async () => {
    const { invoice } = await numberedInvoice('50.00');
    const key = newKey();
    const refused = await post('/invoice_payments', { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 80 }, key);
    expect(refused.status).toBe(409);
    expect(await t.db.select().from(requestKeys).where(eq(requestKeys.key, key))).toHaveLength(0);
    const corrected = await post('/invoice_payments', { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 50 }, key);
    expect(corrected.status).toBe(201);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it('refuses a key sent with another request (409) or shaped wrongly (400 naming the header); another user has keys of their own', async () => {
    const { invoice } = await numberedInvoice();
    const key = newKey();
    expect((await post('/invoice_payments', { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 10 }, key)).status).toBe(201);
    const elsewhere = await post('/invoices', { linked_invoice_id: invoice.id, amount: 5, description: 'x' }, key);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toBe(`Idempotency-Key ${key} was sent with another request (POST /api/v1.0/invoice_payments): send a new key`);
    const short = await post('/invoice_payments', { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 10 }, 'abc');
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ 'Idempotency-Key': ['Idempotency-Key must be 16 to 100 letters, digits, - or _'] });
    const theirs = await post('/invoice_payments', { invoice_id: invoice.id, payment_date: '2026-03-10', amount_paid: 10 }, key, other.token);
    expect(theirs.status).toBe(201);
    expect(await paymentsOf(invoice.id)).toHaveLength(2);
  });
});
