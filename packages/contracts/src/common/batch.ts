import { z } from 'zod';

/** A batch run's life: queued → running → finished, or cancelled on the way (DESIGN §10). */
export const BATCH_RUN_STATUSES = ['queued', 'running', 'finished', 'cancelled'] as const;
export type BatchRunStatus = (typeof BATCH_RUN_STATUSES)[number];

/** A row's outcome: pending until its transaction commits, then ok or failed; cancelled if the run was. */
export const BATCH_ROW_STATUSES = ['pending', 'ok', 'failed', 'cancelled'] as const;
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number];

export const BatchRowSchema = z.object({
  id: z.number().int().describe('the record the row is about'),
  reference: z.string(),
  status: z.enum(BATCH_ROW_STATUSES),
  /** True when the row was done (or, in a dry run, would be). */
  ok: z.boolean(),
  /** What was done, or `Error for {reference}: {reason}`. */
  message: z.string().nullable(),
  /** Figures a preview totals (an amount, a count). */
  amount: z.number().nullable(),
  /** A failed row whose failure may pass: Retry failed rows does it again (a row refused for itself would be refused again). */
  retryable: z.boolean(),
});

export const BatchRunSchema = z.object({
  id: z.number().int(),
  resource: z.string(),
  action: z.string(),
  label: z.string(),
  dry_run: z.boolean(),
  status: z.enum(BATCH_RUN_STATUSES),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /**
   * Of the failed rows, those whose failure may pass (the database broke their work off, a fault of the system):
   * what Retry failed rows does again. The others were refused for themselves (their data, their record's state)
   * and would be refused again.
   */
  retryable: z.number().int(),
  /** Sum of the rows' amounts, where the action reports one (how much a preview would invoice). */
  amount: z.number().nullable(),
  created_user: z.string().nullable(),
  created_timestamp: z.string(),
  finished_timestamp: z.string().nullable(),
  /** The rows done (or, in a preview, to be done) and their amounts, per group where the action names one (a payment type). */
  totals: z.array(z.object({ group: z.string(), count: z.number().int(), amount: z.number() })),
  /** The dry run this run confirmed, if any. */
  source_run_id: z.number().int().nullable(),
  /** What an import's preview says about its file as a whole (columns not imported). */
  notes: z.array(z.string()).optional(),
  rows: z.array(BatchRowSchema),
});

/**
 * `GET /batch_runs/{id}?rows=failed`: the counts of every row, but only the refused rows themselves — what a
 * dialog following a run of thousands of rows asks while it works (every row, answered a few times a second,
 * was hundreds of kB each time).
 */
export const BatchRunQuerySchema = z.strictObject({
  rows: z.enum(['all', 'failed'], { error: 'rows must be all or failed' }).default('all'),
});

export type BatchRow = z.infer<typeof BatchRowSchema>;
export type BatchRun = z.infer<typeof BatchRunSchema>;

/** How many of one's runs `GET /batch_runs` lists, newest first. */
export const MY_BATCH_RUNS_LISTED = 20;

/** A run as `GET /batch_runs` lists it: what and how far, without its rows. */
export const BatchRunSummarySchema = BatchRunSchema.pick({
  id: true,
  label: true,
  dry_run: true,
  status: true,
  total: true,
  done: true,
  failed: true,
  created_timestamp: true,
  finished_timestamp: true,
});
export type BatchRunSummary = z.infer<typeof BatchRunSummarySchema>;
export const BatchRunListSchema = z.object({ data: z.array(BatchRunSummarySchema) });

/** `202 {run_id}`: a batch run was started; follow it at `GET /batch_runs/{run_id}`. */
export const BatchStartedSchema = z.object({ run_id: z.number().int() });
export type BatchStarted = z.infer<typeof BatchStartedSchema>;

/** The line a failed row shows (spec §8: "Batch row failures add 'Error for {reference}'"). */
export function batchErrorLine(reference: string, reason: string): string {
  return `Error for ${reference}: ${reason}`;
}

export function isRunOver(status: BatchRunStatus): boolean {
  return status === 'finished' || status === 'cancelled';
}
