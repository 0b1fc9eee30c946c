import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a preview's earlier rows did, for its later rows to see (decisions 040, 044). Every row of a preview is
 * rolled back, so a later row would see neither the numbers an earlier row took nor a student it created, where
 * the run, which commits each row, sees both. A preview is worked by one job in row order, so its rows can hand
 * these on in memory: a row reads what the rows before it left (`earlierRows`) and leaves what it did
 * (`leaveForLaterRows`), which counts only once the row succeeded.
 */
interface Memory {
  /** What the preview's earlier rows left, by key; kept by the caller for the run. */
  kept: Map<string, unknown>;
  /** What the row at work leaves, applied in order once it succeeded. */
  left: [string, (before: unknown) => unknown][];
}

const previewing = new AsyncLocalStorage<Memory>();

/** Runs one row of a preview with the memory of its earlier rows; a row that fails leaves nothing. */
export async function withPreviewMemory<T>(kept: Map<string, unknown>, work: () => Promise<T>): Promise<T> {
  const left: Memory['left'] = [];
  const result = await previewing.run({ kept, left }, work);
  for (const [key, update] of left) kept.set(key, update(kept.get(key)));
  return result;
}

/**
 * Whether the work at hand is a row of a preview, which is rolled back whatever it does. What it would make and
 * nobody could see before the rollback (a PDF laid out) it may leave out (decision 063); what it checks, it must
 * check as the run does.
 */
export function inPreview(): boolean {
  return previewing.getStore() !== undefined;
}

/** What the preview's earlier rows left under the key; undefined outside a preview and when none did. */
export function earlierRows<T>(key: string): T | undefined {
  return previewing.getStore()?.kept.get(key) as T | undefined;
}

/** Leaves for the preview's later rows what the row did (the value the key then holds); nothing outside a preview. */
export function leaveForLaterRows<T>(key: string, update: (before: T | undefined) => T): void {
  previewing.getStore()?.left.push([key, update as (before: unknown) => unknown]);
}
