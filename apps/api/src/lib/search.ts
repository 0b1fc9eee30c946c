import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { contracts, students } from '@app/db';
import { likeEscape, likePattern } from './crud/crud-service.js';

/** The words of a search text (at most five), each escaped for LIKE. */
export function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map(likeEscape);
}

/** Every word of the text must occur in the key, whatever the accents and case: served by the key's trigram index. */
export function wordsMatch(key: SQL, text: string): SQL | undefined {
  return and(...searchWords(text).map((w) => sql`${key} like ('%' || f_unaccent(lower(${w})) || '%')`));
}

/** 0 where one of the keys starts with the text's first word (accents and case aside), else 1: prefixes first. */
export function prefixRank(keys: readonly SQL[], text: string): SQL {
  const [first = ''] = searchWords(text);
  const pattern = sql`(f_unaccent(lower(${first})) || '%')`;
  return sql`(case when ${sql.join(
    keys.map((k) => sql`${k} like ${pattern}`),
    sql` or `,
  )} then 0 else 1 end)`;
}

/** The stored key the trigram index `students_name_trgm_idx` is built on (first and last name, unaccented). */
const studentNameKey = sql`${students.name_key}`;

/** A student's name matches the text (contracts search their own copy of the names: `contractMatches`). */
export const nameMatches = (text: string) => wordsMatch(studentNameKey, text);

/** The stored keys of a student's last and first name (unaccented), for prefix ranks. */
export const nameKeys: readonly SQL[] = [sql`${students.last_name_key}`, sql`${students.first_name_key}`];

/** Students whose first or last name starts with the text come first. */
export const nameRank = (text: string) => prefixRank(nameKeys, text);

/**
 * The contracts a quick filter's text finds: by application number, or by their student's name (the contract and
 * invoice quick filters). Both are the contract's own columns (the student's names are copied onto the contract,
 * migration 0021), so this is one condition on `contracts` whose two arms are trigram index searches PostgreSQL
 * combines in one bitmap (BitmapOr). Reaching the students first cost an index probe per match on
 * contracts_student_idx (100k contracts, "Yıl" finds 4,176: count 5 → 2.5 ms), and the contract page another
 * on students_pkey to rank and sort them.
 */
export function contractMatches(text: string): SQL {
  // The name first: PostgreSQL rechecks each row the trigram indexes found with the condition in its order, and an
  // ILIKE of a text with non-ASCII letters lower-cases every application number (count for "Yıl": 8.9 → 2.5 ms).
  return or(wordsMatch(sql`${contracts.name_key}`, text), ilike(contracts.application_number, likePattern(text)))!;
}

/** The contract's copies of its student's name keys, for prefix ranks. */
export const contractNameKeys: readonly SQL[] = [sql`${contracts.last_name_key}`, sql`${contracts.first_name_key}`];

/**
 * Whether the trigram indexes can find a text's matches: a LIKE pattern gives them something to search for only
 * from three letters on. With a shorter text every row is a candidate, and each index reads all of itself.
 */
export const trigramSearchable = (text: string): boolean => text.split(/\s+/).some((word) => word.length >= 3);

/**
 * The rows of another table (invoices, scholarship payments) whose contract the text finds. A text the trigram
 * indexes can search: the contracts as an array probed on that table's contract index, one arm PostgreSQL can put
 * in a BitmapOr beside the table's own. A shorter one finds most contracts (one letter: all 100k), and each row
 * of the table searched that array from its start (400k scholarship payments: 15 s for "a"); as `IN (subquery)`
 * the contracts found are hashed once and each row looked up in the hash (0.2 s).
 */
export function contractFound(contractId: AnyPgColumn, text: string): SQL {
  const found = sql`select ${contracts.id} from ${contracts} where ${contractMatches(text)}`;
  return trigramSearchable(text) ? sql`${contractId} = any(array(${found}))` : sql`${contractId} in (${found})`;
}
