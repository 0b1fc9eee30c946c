import { sql } from 'drizzle-orm';
import { AppError, formatDocumentNumber, type NumberKind } from '@app/contracts';
import { documentCounters, type Tx } from '@app/db';
import { earlierRows, leaveForLaterRows } from './preview-memory.js';

/**
 * The next number of a kind and year, taken in the caller's transaction (DESIGN §11). The counter row stays
 * locked until that transaction ends, so concurrent callers take turns and get contiguous numbers; a rollback
 * gives the number back, because the counter's advance is rolled back with it.
 */
export async function nextNumber(tx: Tx, kind: NumberKind, year: number): Promise<{ value: number; number: string }> {
  const key = `number:${kind}:${year}`;
  const [row] = await tx
    .insert(documentCounters)
    .values({ kind, year, last_value: 1 })
    .onConflictDoUpdate({ target: [documentCounters.kind, documentCounters.year], set: { last_value: sql`${documentCounters.last_value} + 1` } })
    .returning({ value: documentCounters.last_value });
  // In a preview the counter's advance is rolled back with the row: the rows before it took their numbers too
  // (decision 040), and the run will give this one the number after theirs.
  const value = row!.value + (earlierRows<number>(key) ?? 0);
  leaveForLaterRows<number>(key, (taken = 0) => taken + 1);
  return { value, number: formatDocumentNumber(kind, year, value) };
}

/**
 * Refuses (400, naming `field`) a date in another year than the number it decided (decision 021): `P2026-00001`
 * paid on 2027-01-15 would contradict its own number. `remedy` says what to do instead.
 */
export function checkDateInNumberYear(number: unknown, date: unknown, what: { field: string; label: string; dateLabel: string; remedy: string }): void {
  const numberYear = /^[A-Z]*(\d{4})-/.exec(String(number ?? ''))?.[1];
  const dateYear = String(date).slice(0, 4);
  if (!numberYear || numberYear === dateYear) return;
  const why = `${what.label} ${String(number)} is numbered in ${numberYear}: a ${what.dateLabel} in ${dateYear} needs a number of ${dateYear}; ${what.remedy}`;
  throw new AppError('BAD_REQUEST', `Invalid input: ${what.field}`, { [what.field]: [why] });
}
