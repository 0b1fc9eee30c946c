/**
 * Invoice document types 1–10 (issue 13 point 2, spec §4 and §9): odd ids are what an invoice can be, each even
 * id the credit note of the odd id before it. The spec names 1–3 and the mapping 1→2, 5→6, 7→8, 9→10; that 4 is
 * the cancellation of the registration fee (3→4) is our reading (decision 018).
 */
export const DOCUMENT_TYPES = [
  { id: 1, name: 'Invoice' },
  { id: 2, name: 'Credit note for invoice' },
  { id: 3, name: 'Registration fee' },
  { id: 4, name: 'Registration fee cancellation' },
  { id: 5, name: 'Participation fee' },
  { id: 6, name: 'Credit note for participation fee' },
  { id: 7, name: 'Administration fee' },
  { id: 8, name: 'Credit note for administration fee' },
  { id: 9, name: 'Transaction fee' },
  { id: 10, name: 'Credit note for transaction fee' },
] as const;

export type DocumentTypeId = (typeof DOCUMENT_TYPES)[number]['id'];

export const DOCUMENT_TYPE_INVOICE = 1;
export const DOCUMENT_TYPE_REGISTRATION_FEE = 3;
export const DOCUMENT_TYPE_PARTICIPATION_FEE = 5;
export const DOCUMENT_TYPE_ADMINISTRATION_FEE = 7;
export const DOCUMENT_TYPE_TRANSACTION_FEE = 9;

/** Whether a document type is a credit note (the even ids). */
export function isCreditNoteType(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= 10 && id % 2 === 0;
}

/** The types an invoice (planned or numbered) may have: 1, 3, 5, 7, 9. */
export const INVOICE_DOCUMENT_TYPE_IDS: readonly number[] = DOCUMENT_TYPES.filter((t) => !isCreditNoteType(t.id)).map((t) => t.id);
/** The types a credit note may have: 2, 4, 6, 8, 10. */
export const CREDIT_NOTE_DOCUMENT_TYPE_IDS: readonly number[] = DOCUMENT_TYPES.filter((t) => isCreditNoteType(t.id)).map((t) => t.id);

/** The credit note type of an invoice type: 1→2, 3→4, 5→6, 7→8, 9→10; undefined for anything else. */
export function creditNoteTypeOf(invoiceType: number): number | undefined {
  return INVOICE_DOCUMENT_TYPE_IDS.includes(invoiceType) ? invoiceType + 1 : undefined;
}

export function documentTypeName(id: number): string {
  return DOCUMENT_TYPES.find((t) => t.id === id)?.name ?? `Document type ${id}`;
}

/**
 * The reference a planned invoice gets (decision 018): which contract, year, semester and fee it is, e.g.
 * `A000042-Y1-S2-T5`; a whole-year invoice (semester 0) has no `-S` part.
 */
export function documentReference(applicationNumber: string, values: { year: number; semester: number; document_type_id: number }): string {
  return `${applicationNumber}-Y${values.year}${values.semester > 0 ? `-S${values.semester}` : ''}-T${values.document_type_id}`;
}
