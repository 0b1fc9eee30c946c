/**
 * Document numbers (DESIGN §11): gapless per kind and calendar year, taken inside the transaction that creates
 * the document. Credit notes are numbered after their invoice (`CN-` + its number), not from a counter.
 */
export const NUMBER_KINDS = {
  invoice: { prefix: '' },
  invoice_payment: { prefix: 'P' },
  scholarship_payment: { prefix: 'S' },
} as const;

export type NumberKind = keyof typeof NUMBER_KINDS;

/** `invoice`, 2026, 1 → `2026-00001`; `invoice_payment` → `P2026-00001`; `scholarship_payment` → `S2026-00001`. */
export function formatDocumentNumber(kind: NumberKind, year: number, value: number): string {
  return `${NUMBER_KINDS[kind].prefix}${year}-${String(value).padStart(5, '0')}`;
}

/** The credit note of an invoice: `CN-2026-00001`, a second one on the same invoice `CN-2026-00001-2`. */
export function creditNoteNumber(invoiceNumber: string, nth: number): string {
  return nth <= 1 ? `CN-${invoiceNumber}` : `CN-${invoiceNumber}-${nth}`;
}
