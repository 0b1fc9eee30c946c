import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { contracts, invoicePayments, invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { contractMoneyOf, createContract } from '../../test/factories.js';
import { contractMoney, contractTotals, invoiceFiguresOf } from './money.js';

const t = await setupTestApp();
const moneyOf = async (id: number) => contractMoneyOf(t.db, id);
/** The same figures as the export reads them: every contract's sums at once (joinAll), not per row. */
async function exportMoneyOf(id: number) {
  const money = contractMoney(t.db, contracts.id);
  const [row] = await money.joinAll(t.db.select(money.columns).from(contracts).$dynamic()).where(eq(contracts.id, id));
  return row;
}
const paymentContractOf = async (id: number) =>
  (await t.db.select({ contract_id: invoicePayments.contract_id }).from(invoicePayments).where(eq(invoicePayments.id, id)))[0]?.contract_id;

describe('contract money in SQL (DESIGN §11)', () => {
  it('is 0 without invoices', async () => {
    const c = await createContract(t.db);
    expect(await moneyOf(c.id)).toEqual({ invoiced_amount: 0, payed_amount: 0, to_be_payed_amount: 0, planned_amount: 0 });
  });

  it('sums numbered invoices less their credit notes, and planned invoices apart, exact to the cent', async () => {
    const c = await createContract(t.db);
    const base = { contract_id: c.id, year: 1, semester: 0, description: 'Fee', planned_date: '2026-03-01', document_reference: 'REF' };
    const [n] = await t.db.insert(invoices).values({ ...base, amount: '0.10', number: `M-${c.id}-1`, invoice_date: '2026-01-01' }).returning();
    await t.db.insert(invoices).values({ ...base, amount: '0.20', number: `M-${c.id}-2`, invoice_date: '2026-01-01' });
    await t.db.insert(invoices).values({ ...base, amount: '0.05', number: `CN-M-${c.id}-1`, invoice_date: '2026-01-02', document_type_id: 2, linked_invoice_id: n!.id });
    await t.db.insert(invoices).values([{ ...base, amount: '1000.01' }, { ...base, amount: '0.02' }]);
    expect(await moneyOf(c.id)).toEqual({ invoiced_amount: 0.25, payed_amount: 0, to_be_payed_amount: 0.25, planned_amount: 1000.03 });
  });

  it('invoiceFiguresOf answers what is still open on one invoice and what may still be credited, as exact text, after its credit notes', async () => {
    const c = await createContract(t.db);
    const base = { contract_id: c.id, year: 1, semester: 0, description: 'Fee', planned_date: '2026-03-01', document_reference: 'REF' };
    const [n] = await t.db.insert(invoices).values({ ...base, amount: '0.30', number: `O-${c.id}-1`, invoice_date: '2026-01-01' }).returning();
    expect(await invoiceFiguresOf(t.db, n!.id)).toEqual({ open: '0.30', creditable: '0.30' });
    await t.db.insert(invoices).values({ ...base, amount: '0.10', number: `CN-O-${c.id}-1`, invoice_date: '2026-01-02', document_type_id: 2, linked_invoice_id: n!.id });
    await t.db.insert(invoices).values({ ...base, amount: '0.20', number: `CN-O-${c.id}-1-2`, invoice_date: '2026-01-02', document_type_id: 2, linked_invoice_id: n!.id });
    expect(await invoiceFiguresOf(t.db, n!.id)).toEqual({ open: '0.00', creditable: '0.00' });
  });

  it('subtracts the payments, and as of a date counts only what was booked by then', async () => {
    const c = await createContract(t.db);
    const base = { contract_id: c.id, year: 1, semester: 0, description: 'Fee', planned_date: '2026-03-01', document_reference: 'REF' };
    const [n] = await t.db.insert(invoices).values({ ...base, amount: '1234.56', number: `Q-${c.id}-1`, invoice_date: '2026-01-01' }).returning();
    await t.db.insert(invoicePayments).values([
      { number: `QP-${c.id}-1`, invoice_id: n!.id, payment_date: '2026-01-10', amount_paid: '0.30', commission: '0.10' },
      { number: `QP-${c.id}-2`, invoice_id: n!.id, payment_date: '2026-02-10', amount_paid: '1234.56' },
    ]);
    // Amount paid counts, not the net amount: the commission is the shop's, the student paid it all.
    expect(await moneyOf(c.id)).toMatchObject({ invoiced_amount: 1234.56, payed_amount: 1234.86, to_be_payed_amount: -0.3 });
    const asOf = contractTotals(contracts.id, '2026-01-31');
    const [row] = await t.db.select({ paid: sql<string>`${asOf.paid}::text`, open: sql<string>`${asOf.open}::text` }).from(contracts).where(eq(contracts.id, c.id));
    expect(row).toEqual({ paid: '0.30', open: '1234.26' });
    // Paid beyond its amount: nothing open, and a credit note may still credit all of it.
    expect(await invoiceFiguresOf(t.db, n!.id)).toEqual({ open: '-0.30', creditable: '1234.56' });
  });

  it('reads the same figures for all contracts at once (the export) as per row, 0 without invoices', async () => {
    const empty = await createContract(t.db);
    const c = await createContract(t.db);
    const base = { contract_id: c.id, year: 1, semester: 0, description: 'Fee', planned_date: '2026-03-01', document_reference: 'REF' };
    const [n] = await t.db.insert(invoices).values({ ...base, amount: '700.10', number: `E-${c.id}-1`, invoice_date: '2026-01-01' }).returning();
    await t.db.insert(invoices).values({ ...base, amount: '0.10', number: `CN-E-${c.id}-1`, invoice_date: '2026-01-02', document_type_id: 2, linked_invoice_id: n!.id });
    await t.db.insert(invoices).values({ ...base, amount: '50.00' });
    await t.db.insert(invoicePayments).values([
      { number: `EP-${c.id}-1`, invoice_id: n!.id, payment_date: '2026-01-10', amount_paid: '300.01' },
      { number: `EP-${c.id}-2`, invoice_id: n!.id, payment_date: '2026-01-11', amount_paid: '0.02' },
    ]);
    const expected = { invoiced_amount: 700, payed_amount: 300.03, to_be_payed_amount: 399.97, planned_amount: 50 };
    expect(await moneyOf(c.id)).toEqual(expected);
    expect(await exportMoneyOf(c.id)).toEqual(expected);
    expect(await exportMoneyOf(empty.id)).toEqual({ invoiced_amount: 0, payed_amount: 0, to_be_payed_amount: 0, planned_amount: 0 });
  });

  it("a payment carries its invoice's contract and number, follows the invoice, and cannot be given others", async () => {
    const a = await createContract(t.db);
    const b = await createContract(t.db);
    const base = { contract_id: a.id, year: 1, semester: 0, description: 'Fee', planned_date: '2026-03-01', document_reference: 'REF' };
    const [n] = await t.db.insert(invoices).values({ ...base, amount: '100.00', number: `K-${a.id}-1`, invoice_date: '2026-01-01' }).returning();
    const [p] = await t.db.insert(invoicePayments).values({ number: `KP-${a.id}-1`, invoice_id: n!.id, payment_date: '2026-01-10', amount_paid: '40.00' }).returning();
    const numberOf = async (id: number) => (await t.db.select({ n: invoicePayments.invoice_number }).from(invoicePayments).where(eq(invoicePayments.id, id)))[0]!.n;
    expect(await paymentContractOf(p!.id)).toBe(a.id);
    expect(await numberOf(p!.id)).toBe(`K-${a.id}-1`);
    // Written by hand, the keys still come from the invoice.
    await t.db.update(invoicePayments).set({ contract_id: b.id, invoice_number: 'X-1' }).where(eq(invoicePayments.id, p!.id));
    expect(await paymentContractOf(p!.id)).toBe(a.id);
    expect(await numberOf(p!.id)).toBe(`K-${a.id}-1`);
    await t.db.update(invoices).set({ contract_id: b.id, number: `K-${b.id}-1` }).where(eq(invoices.id, n!.id));
    expect(await paymentContractOf(p!.id)).toBe(b.id);
    expect(await numberOf(p!.id)).toBe(`K-${b.id}-1`);
    expect(await exportMoneyOf(a.id)).toMatchObject({ invoiced_amount: 0, payed_amount: 0 });
    expect(await exportMoneyOf(b.id)).toMatchObject({ invoiced_amount: 100, payed_amount: 40, to_be_payed_amount: 60 });
    expect(await moneyOf(b.id)).toMatchObject({ invoiced_amount: 100, payed_amount: 40, to_be_payed_amount: 60 });
  });
});
