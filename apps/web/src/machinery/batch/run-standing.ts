import type { BatchRunSummary } from '@app/contracts';

/** Where a run stands, as the batch dialog and the list of one's runs say it. */
export function runStanding(run: BatchRunSummary): string {
  if (run.status === 'cancelled') return `Cancelled: ${run.done} of ${run.total} done`;
  if (run.status !== 'finished') return `${run.done} of ${run.total} done…`;
  return run.dry_run ? `Preview: ${run.total - run.failed} of ${run.total} would be done` : `Finished: ${run.done - run.failed} of ${run.total} done, ${run.failed} failed`;
}

