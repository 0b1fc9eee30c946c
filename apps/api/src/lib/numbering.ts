import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { formatDocumentNumber, type NumberKind } from '@app/contracts';
import { documentCounters, type Tx } from '@app/db';

/**
 * The next number of a kind and year, taken in the caller's transaction (DESIGN §11). The counter row stays
 * locked until that transaction ends, so concurrent callers take turns and get contiguous numbers; a rollback
 * gives the number back, because the counter's advance is rolled back with it.
 */
export async function nextNumber(tx: Tx, kind: NumberKind, year: number): Promise<{ value: number; number: string }> {
  const preview = previewing.getStore();
  const key = `${kind}:${year}`;
  const [row] = await tx
    .insert(documentCounters)
    .values({ kind, year, last_value: 1 })
    .onConflictDoUpdate({ target: [documentCounters.kind, documentCounters.year], set: { last_value: sql`${documentCounters.last_value} + 1` } })
    .returning({ value: documentCounters.last_value });
  // In a preview the counter's advance is rolled back with the row: the rows before it took their numbers too.
  const value = row!.value + (preview?.taken.get(key) ?? 0);
  preview?.took.push(key);
  return { value, number: formatDocumentNumber(kind, year, value) };
}

/** The numbers a preview's earlier rows took, per kind and year, and those the row at work takes. */
interface PreviewNumbers {
  taken: Map<string, number>;
  took: string[];
}

const previewing = new AsyncLocalStorage<PreviewNumbers>();

/**
 * Runs one row of a preview so that the numbers it shows are those the run will give (decision 040): every preview
 * row is rolled back, so each would see the same next number; here each sees the counter plus the numbers of its
 * kind and year the preview's earlier rows took (`taken`, kept by the caller for the run, in row order). A row that
 * fails takes none.
 */
export async function previewNumbering<T>(taken: Map<string, number>, work: () => Promise<T>): Promise<T> {
  const took: string[] = [];
  const result = await previewing.run({ taken, took }, work);
  for (const key of took) taken.set(key, (taken.get(key) ?? 0) + 1);
  return result;
}
