import { and, sql, type SQL } from 'drizzle-orm';
import { students } from '@app/db';

/** The words of a search text (at most five), each escaped for LIKE. */
function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((w) => w.replace(/[\\%_]/g, (c) => `\\${c}`));
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

/** A student's name matches the text; students and contracts (by their student) are both searched this way. */
export const nameMatches = (text: string) => wordsMatch(studentNameKey, text);

/** The stored keys of a student's last and first name (unaccented), for prefix ranks. */
export const nameKeys: readonly SQL[] = [sql`${students.last_name_key}`, sql`${students.first_name_key}`];

/** Students whose first or last name starts with the text come first. */
export const nameRank = (text: string) => prefixRank(nameKeys, text);
