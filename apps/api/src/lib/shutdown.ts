/** How long closing the pool, and stopping the embedded PostgreSQL, may each take on shutdown. */
export const SHUTDOWN_STEP_MS = 3000;

/**
 * Waits for `work` at most `ms`: true when it settled (done or failed) in time, false when it is still going.
 * A shutdown must end even when the database it waits for is stalled or gone.
 */
export async function within(ms: number, work: Promise<unknown> | undefined): Promise<boolean> {
  if (!work) return true;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timedOut]).finally(() => clearTimeout(timer));
}

/** The latest a shutdown may end, after which the process exits whatever still hangs. */
export function shutdownDeadlineMs(graceMs: number): number {
  return graceMs + 2 * SHUTDOWN_STEP_MS + 1000;
}
