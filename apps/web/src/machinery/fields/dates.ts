import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import { DATE_FORMAT, formatDate } from '@app/contracts';

dayjs.extend(customParseFormat);

/** Dates travel as `YYYY-MM-DD` (spec §9 shows them as DD-MM-YYYY). */
export const WIRE_DATE = 'YYYY-MM-DD';

/** What a user may type for a date: DD-MM-YYYY, also with one-digit day or month, dots or slashes. */
const TYPED_FORMATS = ['DD-MM-YYYY', 'D-M-YYYY', 'DD.MM.YYYY', 'D.M.YYYY', 'DD/MM/YYYY', 'D/M/YYYY'];

/** A typed date → `YYYY-MM-DD`, or null when the text is not a real calendar date. */
export function parseTypedDate(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  for (const format of TYPED_FORMATS) {
    const d = dayjs(trimmed, format, true);
    if (d.isValid()) return d.format(WIRE_DATE);
  }
  return null;
}

/** A wire value → `YYYY-MM-DD`, or null (timestamps are cut to their date). */
export function wireDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.length < 10) return null;
  const d = dayjs(value.slice(0, 10), WIRE_DATE, true);
  return d.isValid() ? d.format(WIRE_DATE) : null;
}

export { DATE_FORMAT, formatDate };
