import { and, eq, inArray, isNotNull, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import { contracts, invoices } from '@app/db';
import type { SearchParts } from '../crud/crud-service.js';
import { columnsMatch, contractFound, contractIn, searchWords, trigramSearchable } from '../search.js';
import { invoiceMoney } from './money.js';

/**
 * The SQL of an invoice row that more than one place needs: its money (DESIGN §11, from money.ts), its quick
 * filter and the conditions of the invoice advanced filter (spec §2). The invoice overview filters with them, the contract filter's invoice fields ask whether one of the contract's invoices
 * meets them (issue 18 point 1), and the invoice choice lists take them as parameters: one definition each.
 * They read the `invoices` table by its own name, so they work in any query over it (not over an alias).
 */
const i = invoices;

/** An invoice row's money, the one definition of lib/invoicing/money.ts (credit notes and payments counted). */
export const { credited, paid, invoiced, open } = invoiceMoney(i);
/** An open invoice: numbered, not a credit note, something still to be paid. */
export const isOpen = and(isNotNull(i.number), not(i.is_creditnote), sql`${open} > 0`)!;

/** The invoices of the contracts that meet a condition on the contracts table. */
const byContract = (condition: SQL): SQL => inArray(i.contract_id, sql`(select ${contracts.id} from ${contracts} where ${condition})`);

/**
 * The quick filter of invoices: number, reference, or the contract's application number or student's name. Each
 * arm is an index search PostgreSQL combines in one bitmap (BitmapOr): the number and the reference through their
 * trigram indexes, the contracts found (lib/search.ts `contractFound`) as an array probed on
 * invoices_contract_idx. An OR with an `IN (subquery)` arm cannot be a bitmap: it read all million invoices
 * (2.2–3.6 s for one number); a union of ids fetched each found invoice again (0.6 s for a common name).
 */
export function invoiceSearch(term: string): SQL | undefined {
  return or(ownTextMatches(term), contractFound(i.contract_id, term));
}

/**
 * The invoice's own text matches: its number or reference (ILIKE, trigram indexes), or for a text of one or two
 * letters, their short-text indexes (migration 0025).
 */
const ownTextMatches = (term: string) => columnsMatch([i.number, i.document_reference], term);

/**
 * The invoices whose number starts with the search text come first (0, else 1). Numbers are upper case, so the
 * text's first word is compared upper-cased, with LIKE: `lower()` of a million-row search's every number cost
 * 17 ms. Ordering by it also keeps PostgreSQL from walking the number index for the matches of a number, which
 * all sit together in that order: "2022-314" walked 300k invoices (1.1 s) when the statistics guessed 1 % of
 * them match.
 */
export function invoiceSearchRank(term: string): SQL {
  return sql`(case when ${invoiceSearchFirst(term)} then 0 else 1 end)`;
}

/** The invoices `invoiceSearchRank` puts first: their number starts with the text's first word. */
function invoiceSearchFirst(term: string): SQL {
  const [first = ''] = searchWords(term);
  return sql`${i.number} like ${`${first.toUpperCase()}%`}`;
}

/**
 * The quick filter in parts for finding a page (crud `searchParts`): the invoice's own number and reference
 * (trigram searches that find few rows), and the invoices of the contracts found, as a semi-join PostgreSQL
 * plans by its estimate of those contracts — a common name's 4,150 contracts hold 37k numbered invoices, whose
 * first page is found by walking the view's number index and looking each invoice's contract up (its page 33 → 8 ms),
 * where one contract's handful of invoices is read through invoices_contract_idx.
 */
export function invoiceSearchParts(term: string): SearchParts {
  const own = ownTextMatches(term);
  const ofContracts = contractIn(i.contract_id, term);
  // A text too short for the trigram indexes can find nearly every number or reference ("a"): collecting and
  // ranking them all took 0.5 s, where walking the view's order finds the page's rows at once. It is walked when
  // the planner expects it to find many, collected when few ("zq": 0.75 s walked).
  const first = invoiceSearchFirst(term);
  return trigramSearchable(term) ? { own, walked: [ofContracts], first } : { walked: [own, ofContracts], first };
}

/** The conditions of the invoice filter fields that are the invoice's own (indexed columns of `invoices`). */
export const invoiceOwnFilters = {
  planned: (v: unknown) => (v === 'true' ? and(isNull(i.number), not(i.is_creditnote)) : or(isNotNull(i.number), i.is_creditnote)),
  numbered: (v: unknown) => (v === 'true' ? and(isNotNull(i.number), not(i.is_creditnote)) : or(isNull(i.number), i.is_creditnote)),
  // Written as the column, not compared with a parameter: a prepared statement's generic plan cannot tell that
  // `is_creditnote = $1` means the partial index of credit notes, and walked every number instead (0.7–0.9 s a page).
  creditnote: (v: unknown) => (v === 'true' ? sql`${i.is_creditnote}` : not(i.is_creditnote)),
  contract_id: (v: unknown) => eq(i.contract_id, Number(v)),
  document_type_id: (v: unknown) => eq(i.document_type_id, Number(v)),
  email_sent: (v: unknown) => (v === 'true' ? isNotNull(i.email_timestamp) : isNull(i.email_timestamp)),
  open: (v: unknown) => (v === 'true' ? isOpen : not(isOpen)),
  pro_forma: (v: unknown) => eq(i.pro_forma, v === 'true'),
  planned_before: (v: unknown) => sql`${i.planned_date} < ${String(v)}`,
  expired_after: (v: unknown) => sql`${i.expiration_date} > ${String(v)}`,
} satisfies Record<string, (value: unknown) => SQL | undefined>;

/** Every field of the invoice advanced filter (spec §2): the invoice's own, and the contract's through subqueries. */
export const invoiceFilters = {
  ...invoiceOwnFilters,
  student_id: (v: unknown) => byContract(eq(contracts.student_id, Number(v))),
  // The invoice's copy of its contract's intake (0028): the views by intake walk their own index.
  intake: (v: unknown) => eq(i.intake, Number(v)),
  application_round: (v: unknown) => byContract(eq(contracts.application_round, Number(v))),
  contract_status_id: (v: unknown) => byContract(eq(contracts.contract_status_id, Number(v))),
  instalments: (v: unknown) => byContract(eq(contracts.instalments, v === 'true')),
  program_id: (v: unknown) => byContract(eq(contracts.program_id, Number(v))),
} satisfies Record<string, (value: unknown) => SQL | undefined>;

export type InvoiceFilterField = keyof typeof invoiceFilters;

/** The invoice filter's conditions for the given values (fields without a value left out), all of them to hold. */
export function invoiceConditions(values: Partial<Record<InvoiceFilterField, unknown>>): SQL | undefined {
  return and(...Object.entries(values).flatMap(([field, v]) => (v === undefined || v === null ? [] : [invoiceFilters[field as InvoiceFilterField](v)])));
}
