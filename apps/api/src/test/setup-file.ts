// Runs before each test file (vitest `setupFiles`), in the process that runs it: several files share a process.
import { afterAll, expect } from 'vitest';

/**
 * pg warns when a query is queued on a connection behind others (queries of one transaction started together:
 * three at once, say); pg 9 refuses it. Node gives each deprecation once per process, so the listener is the
 * process's, and the file during which it first comes fails: the queue is a fault of the code that file runs.
 */
const QUEUED_ON_BUSY_CLIENT = Symbol.for('scholarship-office.test.queuedOnBusyClient');
const seen: string[] = ((globalThis as Record<symbol, string[] | undefined>)[QUEUED_ON_BUSY_CLIENT] ??= (() => {
  const warnings: string[] = [];
  process.on('warning', (w) => {
    if (w.message.includes('already executing a query')) warnings.push(w.stack ?? w.message);
  });
  return warnings;
})());
const before = seen.length;

afterAll(async () => {
  await new Promise((r) => setImmediate(r));
  expect(seen.slice(before), 'queries queued on a connection still running one (pg 9 refuses them)').toEqual([]);
});
