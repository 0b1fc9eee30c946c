import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { contracts, students } from '@app/db';
import { likeEscape, likePattern, type SearchParts } from './crud/crud-service.js';

/** The words of a search text (at most five), as typed. */
const textWords = (text: string): string[] => text.split(/\s+/).filter(Boolean).slice(0, 5);

/** The words of a search text (at most five), each escaped for LIKE. */
export function searchWords(text: string): string[] {
  return textWords(text).map(likeEscape);
}

/**
 * Whether the trigram indexes can find a text's matches: a LIKE pattern gives them something to search for only
 * from three letters on. With a shorter text every row is a candidate, and each index reads all of itself.
 */
export const trigramSearchable = (text: string): boolean => textWords(text).some((word) => word.length >= 3);

/** A text the short-text indexes find whole: one word of one or two letters ("a", "yi"). */
const shortWord = (text: string): boolean => !/\s/.test(text) && text.length <= 2;

/**
 * Words occur in the key, found through the key's short-text index (`f_short_grams`, migration 0025: every
 * letter and pair of letters of the key). Each word is given as the key holds its text (lower case, unaccented
 * where the key is) with the LIKE pattern of the same. A word of up to two letters occurs exactly when the array
 * holds it. One that the key's spelling makes longer (unaccented "æ" is "ae") must also pass the LIKE; for every
 * other word PostgreSQL folds that test to true as it plans the statement, so the index's statistics alone
 * estimate how many rows the words find. One array for all the words: a row walked past is split once.
 */
function gramsContain(key: SQL, words: readonly { word: SQL; pattern: SQL }[]): SQL {
  return sql`(f_short_grams(${key}) @> array[${sql.join(
    words.map(({ word }) => sql`left(${word}, 2)`),
    sql`, `,
  )}] and ${sql.join(
    words.map(({ word, pattern }) => sql`(length(${word}) <= 2 or ${key} like ${pattern})`),
    sql` and `,
  )})`;
}

/** Every word of the text must occur in the key, whatever the accents and case: served by the key's trigram index. */
export function wordsMatch(key: SQL, text: string): SQL | undefined {
  return and(...searchWords(text).map((w) => sql`${key} like ('%' || f_unaccent(lower(${w})) || '%')`));
}

/**
 * wordsMatch for a key that also has a short-text index (a name): a text too short for the trigram index — each
 * of its words of one or two letters — is found through that one.
 */
export function keyWordsMatch(key: SQL, text: string): SQL | undefined {
  if (trigramSearchable(text)) return wordsMatch(key, text);
  const words = textWords(text);
  if (words.length === 0) return undefined;
  return gramsContain(
    key,
    words.map((w) => ({ word: sql`f_unaccent(lower(${w}))`, pattern: sql`('%' || f_unaccent(lower(${likeEscape(w)})) || '%')` })),
  );
}

/**
 * The whole text occurs in one of `columns`, case aside (ILIKE, served by their trigram indexes). A text of one
 * or two letters is found through their short-text indexes, on `lower(column)`.
 */
export function columnsMatch(columns: readonly AnyPgColumn[], text: string): SQL {
  const short = shortWord(text);
  const word = { word: sql`lower(${text})`, pattern: sql`lower(${likePattern(text)})` };
  return or(...columns.map((c) => (short ? gramsContain(sql`lower(${c})`, [word]) : ilike(c, likePattern(text)))))!;
}

/** Where one of the keys starts with the text's first word (accents and case aside): the rows a search shows first. */
export function prefixFirst(keys: readonly SQL[], text: string): SQL {
  const [first = ''] = searchWords(text);
  const pattern = sql`(f_unaccent(lower(${first})) || '%')`;
  return sql`(${sql.join(
    keys.map((k) => sql`${k} like ${pattern}`),
    sql` or `,
  )})`;
}

/** 0 where one of the keys starts with the text's first word (accents and case aside), else 1: prefixes first. */
export function prefixRank(keys: readonly SQL[], text: string): SQL {
  return sql`(case when ${prefixFirst(keys, text)} then 0 else 1 end)`;
}

/** The stored key the trigram index `students_name_trgm_idx` is built on (first and last name, unaccented). */
const studentNameKey = sql`${students.name_key}`;

/** A student's name matches the text (contracts search their own copy of the names: `contractMatches`). */
export const nameMatches = (text: string) => keyWordsMatch(studentNameKey, text);

/** The stored keys of a student's last and first name (unaccented), for prefix ranks. */
export const nameKeys: readonly SQL[] = [sql`${students.last_name_key}`, sql`${students.first_name_key}`];

/**
 * A student's name as their contract holds it (copied, migration 0021): the lists of contracts, invoices and
 * payments show and sort by this one, which `contracts_student_name_idx` (0026) keeps in order. Sorted by the
 * student's own columns, every invoice was joined and sorted (numbered invoices: 0.5 s).
 */
export const contractStudentName = sql<string>`${contracts.first_name} || ' ' || ${contracts.last_name}`;

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
  return or(keyWordsMatch(sql`${contracts.name_key}`, text), columnsMatch([contracts.application_number], text))!;
}

/** The contract's copies of its student's name keys and its application number, for prefix ranks. */
export const contractPrefixKeys: readonly SQL[] = [sql`${contracts.last_name_key}`, sql`${contracts.first_name_key}`, sql`lower(${contracts.application_number})`];

/**
 * A list's search with a text too short for the trigram indexes, in parts (crud `searchParts`): each part walked
 * in the list's order, and with a rank its rows that start with the text (`first`, prefix indexes, 0025) too. The
 * short-text index's statistics tell the planner how many the text finds: "a" 85 % of the students, whose first
 * page is found by walking the sort's index (before: the whole search ranked and sorted, 50 ms); "yi" 4 %,
 * collected through the index and sorted (before: the whole table read, 32 ms). A text the trigram indexes can
 * search is one condition, as before.
 */
export function shortTextParts(text: string, walked: readonly (SQL | undefined)[], first?: SQL): SearchParts | undefined {
  return trigramSearchable(text) ? undefined : { walked: walked.filter((part): part is SQL => part !== undefined), first };
}

/**
 * The rows of another table (invoices, scholarship payments) whose contract the text finds. A text the trigram
 * indexes can search: the contracts as an array probed on that table's contract index, one arm PostgreSQL can put
 * in a BitmapOr beside the table's own. A shorter one finds most contracts (one letter: all 100k), and each row
 * of the table searched that array from its start (400k scholarship payments: 15 s for "a"); as `IN (subquery)`
 * the contracts found are hashed once and each row looked up in the hash (0.2 s).
 */
export const contractFound = (contractId: AnyPgColumn, text: string): SQL => idFound(contractId, contractsFound(text), text);

/**
 * The rows whose `key` is one of the ids `found` selects for the text, as `contractFound` says: an array probed on
 * the key's index for a text the trigram indexes can search, a semi-join for a shorter one.
 */
export const idFound = (key: AnyPgColumn, found: SQL, text: string): SQL =>
  trigramSearchable(text) ? sql`${key} = any(array(${found}))` : sql`${key} in (${found})`;

/** The ids of the contracts the text finds. */
const contractsFound = (text: string) => sql`select ${contracts.id} from ${contracts} where ${contractMatches(text)}`;

/** The rows whose contract the text finds, as a semi-join PostgreSQL plans by its estimate of those contracts. */
export const contractIn = (contractId: AnyPgColumn, text: string): SQL => sql`${contractId} in (${contractsFound(text)})`;
