import { and, sql, type SQL } from 'drizzle-orm';
import { students } from '@app/db';

/** Every word of the text must occur in the key, whatever the accents and case: served by the key's trigram index. */
export function wordsMatch(key: SQL, text: string): SQL | undefined {
  const words = text.split(/\s+/).filter(Boolean).slice(0, 5);
  return and(...words.map((w) => sql`${key} like ('%' || f_unaccent(lower(${w.replace(/[\\%_]/g, (c) => `\\${c}`)})) || '%')`));
}

/** The expression the trigram index `students_name_trgm_idx` is built on. */
const studentNameKey = sql`f_unaccent(lower(${students.first_name} || ' ' || ${students.last_name}))`;

/** A student's name matches the text; students and contracts (by their student) are both searched this way. */
export const nameMatches = (text: string) => wordsMatch(studentNameKey, text);
