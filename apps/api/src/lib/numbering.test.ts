import { describe, expect, it } from 'vitest';
import { creditNoteNumber, formatDocumentNumber } from '@app/contracts';
import { setupTestApp } from '../test/app.js';
import { nextNumber } from './numbering.js';

const t = await setupTestApp();

describe('document numbers', () => {
  it('gives 50 parallel callers 50 contiguous numbers, each once', async () => {
    const numbers = await Promise.all(Array.from({ length: 50 }, () => t.db.transaction((tx) => nextNumber(tx, 'invoice', 2031))));
    const values = numbers.map((n) => n.value).sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(numbers.map((n) => n.number)).size).toBe(50);
    expect(numbers.map((n) => n.number)).toContain('2031-00050');
  });

  it('gives the number of a rolled-back transaction back to the next caller', async () => {
    const first = await t.db.transaction((tx) => nextNumber(tx, 'invoice_payment', 2032));
    expect(first.number).toBe('P2032-00001');
    await expect(
      t.db.transaction(async (tx) => {
        expect((await nextNumber(tx, 'invoice_payment', 2032)).number).toBe('P2032-00002');
        throw new Error('the document could not be made');
      }),
    ).rejects.toThrow('could not be made');
    const next = await t.db.transaction((tx) => nextNumber(tx, 'invoice_payment', 2032));
    expect(next.number).toBe('P2032-00002');
  });

  it('counts each kind and calendar year on its own', async () => {
    const a = await t.db.transaction((tx) => nextNumber(tx, 'scholarship_payment', 2033));
    const b = await t.db.transaction((tx) => nextNumber(tx, 'scholarship_payment', 2034));
    const c = await t.db.transaction((tx) => nextNumber(tx, 'invoice', 2033));
    expect([a.number, b.number, c.number]).toEqual(['S2033-00001', 'S2034-00001', '2033-00001']);
  });

  it('formats numbers and credit notes as DESIGN §11 says', () => {
    expect(formatDocumentNumber('invoice', 2026, 1)).toBe('2026-00001');
    expect(formatDocumentNumber('invoice_payment', 2026, 123456)).toBe('P2026-123456');
    expect(creditNoteNumber('2026-00001', 1)).toBe('CN-2026-00001');
    expect(creditNoteNumber('2026-00001', 2)).toBe('CN-2026-00001-2');
  });
});
