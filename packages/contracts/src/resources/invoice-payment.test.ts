import { describe, expect, it } from 'vitest';
import { COMMISSION_ABOVE_AMOUNT, InvoicePaymentCreateSchema, InvoicePaymentUpdateSchema } from './invoice-payment.js';

const valid = { invoice_id: 1, payment_date: '2026-03-10', amount_paid: 10 };
const issuesOf = (schema: typeof InvoicePaymentCreateSchema | typeof InvoicePaymentUpdateSchema, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};
const ABOVE = ['commission', COMMISSION_ABOVE_AMOUNT];

describe('invoice payment schemas: the commission comes out of the amount paid', () => {
  it('refuses a commission above the amount paid on create, naming commission; up to all of it is fine', () => {
    expect(issuesOf(InvoicePaymentCreateSchema, { ...valid, commission: 10.01 })).toEqual([ABOVE]);
    expect(issuesOf(InvoicePaymentCreateSchema, { ...valid, commission: 10 })).toEqual([]);
    expect(issuesOf(InvoicePaymentCreateSchema, valid)).toEqual([]);
  });

  it('on update compares the two when both are sent (one alone is compared with the stored other by the API)', () => {
    expect(issuesOf(InvoicePaymentUpdateSchema, { id: 1, amount_paid: 5, commission: 6 })).toEqual([ABOVE]);
    expect(issuesOf(InvoicePaymentUpdateSchema, { id: 1, commission: 6 })).toEqual([]);
    expect(issuesOf(InvoicePaymentUpdateSchema, { id: 1, amount_paid: 5 })).toEqual([]);
  });

  it('says nothing of it while either amount is itself wrong, or the body is no object', () => {
    expect(issuesOf(InvoicePaymentCreateSchema, { ...valid, amount_paid: -1, commission: 3 }).map(([path]) => path)).toEqual(['amount_paid']);
    expect(issuesOf(InvoicePaymentCreateSchema, { ...valid, commission: 'x' }).map(([path]) => path)).toEqual(['commission']);
    for (const body of [undefined, null, 'text', 7]) expect(issuesOf(InvoicePaymentCreateSchema, body).map(([path]) => path)).toEqual(['']);
  });
});
