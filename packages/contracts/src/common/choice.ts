import { z } from 'zod';

export const ChoiceSchema = z.object({ id: z.union([z.number(), z.string()]), name: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;
export interface ChoiceChecksum {
  checksum: string;
}

/**
 * The choice lists (spec §7) served so far: `GET /{name}/choice` and `/{name}/choice_checksum`, for everyone.
 * Declared here once; the API must give each a source (its type makes a missing one a compile error).
 */
export const CHOICE_LISTS = [
  'countries',
  'logging_types',
  'userroles',
  'users',
  'programs',
  'universities',
  'scholarships',
  'scholarships_type',
  'scholarships_region',
  'students',
  'contracts',
  'contract_status',
  'contracts_intake',
  'contracts_round',
  'contracts_year',
  'file_types',
  'document_types_invoices',
  'document_types_creditnotes',
  'invoices',
  'invoices_credit_notes',
  'scholarship_payment_types',
  'scholarship_payment_exports',
] as const;
export type ChoiceListName = (typeof CHOICE_LISTS)[number];

/**
 * The lists too long to send whole to a form (a row per student, per contract): they are also searched on the
 * server, `GET /{name}/choice/search?search=…&id=…` answering at most `SEARCHED_CHOICE_LIMIT` matches (and the
 * choice with `id`, so a form can name the value it holds). Issue 11: 100k options were megabytes per form.
 * The invoice lists (a million rows) also take the optional parameters of spec §7 on `GET /{name}/choice/`
 * (`contract_id`, …: `InvoiceChoiceParamsSchema`) and answer their first matches there too (decision 020).
 */
export const SEARCHED_CHOICE_LISTS = ['students', 'contracts', 'invoices', 'invoices_credit_notes'] as const satisfies readonly ChoiceListName[];
export type SearchedChoiceListName = (typeof SEARCHED_CHOICE_LISTS)[number];
export const SEARCHED_CHOICE_LIMIT = 50;

export function isSearchedChoiceList(name: string): name is SearchedChoiceListName {
  return (SEARCHED_CHOICE_LISTS as readonly string[]).includes(name);
}
