import { describe, expect, it } from 'vitest';
import { CREDIT_NOTE_DOCUMENT_TYPE_IDS, creditNoteTypeOf, DOCUMENT_TYPES, INVOICE_DOCUMENT_TYPE_IDS, isCreditNoteType } from './document-types.js';

describe('invoice document types (spec §4, §9; decision 018)', () => {
  it('has the ten types 1–10, invoices odd and credit notes even', () => {
    expect(DOCUMENT_TYPES.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(INVOICE_DOCUMENT_TYPE_IDS).toEqual([1, 3, 5, 7, 9]);
    expect(CREDIT_NOTE_DOCUMENT_TYPE_IDS).toEqual([2, 4, 6, 8, 10]);
    expect(DOCUMENT_TYPES.slice(0, 3).map((t) => t.name)).toEqual(['Invoice', 'Credit note for invoice', 'Registration fee']);
  });

  it('maps the spec pairs 1→2, 5→6, 7→8, 9→10, and our reading 3→4', () => {
    expect([1, 3, 5, 7, 9].map(creditNoteTypeOf)).toEqual([2, 4, 6, 8, 10]);
  });

  it('gives no credit note type for a credit note or an unknown type', () => {
    for (const t of [0, 2, 4, 6, 8, 10, 11, 1.5]) expect(creditNoteTypeOf(t)).toBeUndefined();
    expect(isCreditNoteType(4)).toBe(true);
    expect(isCreditNoteType(3)).toBe(false);
    expect(isCreditNoteType(12)).toBe(false);
  });
});
