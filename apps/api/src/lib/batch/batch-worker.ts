import { hostname } from 'node:os';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { AppError, batchErrorLine, findAction, roleHasLevel, type AnyAction, type SessionUser } from '@app/contracts';
import { batchRunRows, batchRuns, type Tx } from '@app/db';
import type { AppContext } from '../context.js';
import { findActiveUser } from '../auth/sessions.js';
import type { Actor } from '../crud/crud-service.js';
import { appErrorOfDatabase, isDatabaseUnavailable, isRetryable, pgErrorOf } from '../db-errors.js';
import { recordEvent } from '../events/record.js';
import { isImport, type ResourceModule } from '../actions/module.js';
import { runRecordAction } from '../actions/run.js';
import { enqueueRun, type ImportRunInput } from './batch-service.js';
import type { ActionOutcome, ImportRow } from '../actions/types.js';
import { withPreviewMemory } from '../preview-memory.js';
import { importRowLine, importRowWords } from '../imports/outcome.js';
import { recordTemplateFailure, TemplateRenderFailure } from '../templates/store.js';

/** The row of an import run that a batch row stands for (its record id is the row's index). */
function importRowOf(run: RunRecord, index: number): ImportRow {
  const row = (run.input as ImportRunInput).rows?.[index];
  if (!row) throw new AppError('NOT_FOUND', `Row ${index + 1} of the import is missing`);
  // Refused when the file was read (a repeat of an earlier row): the same in the preview and the import.
  if (row.refusal) throw new AppError('CONFLICT', row.refusal);
  return row;
}

/** An import row of a confirmed run, with when its preview tried it (its row's version) and when the run started. */
function withSeen(row: ImportRow, run: RunRecord, version: string | null): ImportRow {
  if (run.dry_run || version === null) return row;
  return { ...row, seen: { previewedAt: new Date(version), runStartedAt: run.created_timestamp } };
}

/** A refusal as a row's line says it: a 400's field messages ("Invalid input: x" says nothing), else the message. */
function reasonOf(err: AppError): string {
  const fields = Object.entries(err.errors ?? {});
  return fields.length > 0 ? fields.map(([field, messages]) => `${field}: ${messages.join(', ')}`).join('; ') : err.message;
}

/**
 * Whether a row's failure may pass, so that Retry failed rows does it again: a fault of the system (an error nobody
 * expected, a template that does not render, a service not available) may be mended. A refusal of the row itself
 * (4xx: its data, a duplicate, its record's state, a version seen before someone else's change) would be the same
 * again: the input and the version a retry works with are the run's.
 */
function mayPass(known: AppError | undefined): boolean {
  return known === undefined || known.status >= 500 || known.code === 'RATE_LIMITED';
}

/** Names the worker that did a row (shown to operators in the run's rows). */
export const WORKER_NAME = `${hostname()}:${process.pid}`;

/** Thrown inside a preview row's savepoint after the work was done, so that all of it is rolled back. */
class PreviewRollback extends Error {}

/**
 * How often a row's work may be broken off by the database before the row fails (decision 033). Until then it is
 * taken again at once; a row that met the statement timeout was taken again without end, and its run never finished.
 */
export const MAX_ROW_ATTEMPTS = 3;

/** The database broke off a row's work, which was rolled back: its row is counted and taken again, or fails. */
class RowBrokenOff extends Error {
  constructor(
    readonly rowId: number,
    readonly reference: string,
    readonly reason: string,
    readonly error: unknown,
  ) {
    super(reason);
  }
}

/**
 * Why the database broke off a row's work, when it did so for the work itself and might not the next time: a
 * statement timeout, or a race it broke off (a deadlock, a serialization failure). A connection gone or a database
 * shutting down is not the row's doing: its job is taken again later, the row not counted.
 */
function brokenOffReason(err: unknown): string | undefined {
  if (isRetryable(err)) return 'it clashed with other changes each time';
  if (pgErrorOf(err)?.code === QUERY_CANCELED) return 'it took longer than the database allows each time';
  return undefined;
}
/** PostgreSQL's code for a statement cancelled, by statement_timeout here. */
const QUERY_CANCELED = '57014';

export interface BatchWorkerOptions {
  /** A pause between two rows of a run (BATCH_ROW_PAUSE_MS), so a big run leaves room for interactive requests. */
  rowPauseMs: number;
  /**
   * How long a job works on a confirmed run before it queues itself again (BATCH_SLICE_MS): graphile-worker takes
   * jobs in the order they were queued, so the runs started meanwhile get their turn (decision 062). A preview
   * is not cut: what its earlier rows did is remembered in this process only (withPreviewMemory).
   */
  sliceMs: number;
  /** How often a working job says it is alive. */
  heartbeatMs: number;
  /**
   * Aborted when the process stops (SIGTERM): a run stops after the row at work and queues itself again, so the
   * next worker (this process restarted, or another) goes on with the rest. It went on row after row for the
   * whole grace period, and was then cut off.
   */
  stopping?: AbortSignal;
}

type RunRecord = typeof batchRuns.$inferSelect;

/**
 * What each running preview's rows did so far (`withPreviewMemory`: the numbers they took, the students they
 * created): a preview is worked by one job, in row order, so its later rows see what its earlier rows did. Dropped
 * when it finishes.
 */
const previewMemories = new WeakMap<AppContext['db'], Map<number, Map<string, unknown>>>();
/** The memory of a run's preview, by database: run ids are the database's (a test process serves several). */
function previewMemoryOf(ctx: AppContext, runId: number): Map<string, unknown> {
  const runs = previewMemories.get(ctx.db) ?? previewMemories.set(ctx.db, new Map()).get(ctx.db)!;
  return runs.get(runId) ?? runs.set(runId, new Map()).get(runId)!;
}

/**
 * Takes the next pending row of a run and does it, in one transaction with its outcome: either the row's work
 * and its `ok` commit together, or neither does (a crash rolls both back and the row is taken again). Rows
 * locked by another worker are skipped, so two processes share a run without doing a row twice. Answers false
 * when no row is left for this worker.
 */
async function doNextRow(ctx: AppContext, mod: ResourceModule, action: AnyAction, run: RunRecord, actor: Actor | undefined): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: batchRunRows.id, record_id: batchRunRows.record_id, reference: batchRunRows.reference, version: batchRunRows.version })
      .from(batchRunRows)
      .where(and(eq(batchRunRows.run_id, run.id), eq(batchRunRows.status, 'pending')))
      .orderBy(asc(batchRunRows.position))
      .limit(1)
      // Rows that take numbers are done in row order (decision 051): the next row waits for the one before it,
      // which holds the number counter until it commits. Other rows are shared out, passing over locked ones.
      .for('update', action.batch?.inOrder ? undefined : { skipLocked: true });
    if (!row) return false;
    let ok = true;
    let message: string | null = null;
    let amount: string | null = null;
    let group: string | null = null;
    let retryable = false;
    try {
      if (!actor) throw new AppError('FORBIDDEN', 'The user who started this run may no longer run it');
      await tx.transaction(async (work) => {
        const impl = mod.actions.get(action.name);
        const doRow = async (): Promise<ActionOutcome> =>
          impl?.kind === 'import'
            ? { message: importRowLine(await impl.row(work as Tx, actor, withSeen(importRowOf(run, row.record_id), run, row.version), { ctx, service: mod.service }), run.dry_run) }
            : runRecordAction(ctx, work as Tx, mod, action, {
                id: row.record_id,
                input: run.input as Record<string, unknown>,
                actor,
                version: row.version ?? undefined,
              });
        const outcome = run.dry_run ? await withPreviewMemory(previewMemoryOf(ctx, run.id), doRow) : await doRow();
        message = outcome.message ?? 'Done';
        amount = outcome.amount === undefined ? null : String(outcome.amount);
        group = outcome.group ?? null;
        if (run.dry_run) throw new PreviewRollback();
      });
    } catch (err) {
      if (!(err instanceof PreviewRollback)) {
        // Broken off by the database, or a database gone or stalled: the whole row is rolled back and taken again
        // (it is still pending); one broken off is counted (`countBrokenOff`).
        const reason = brokenOffReason(err);
        if (reason) throw new RowBrokenOff(row.id, row.reference, reason, err);
        if (isDatabaseUnavailable(err)) throw err;
        const known = err instanceof AppError ? err : appErrorOfDatabase(err);
        if (!known) ctx.logger.error({ err, runId: run.id, recordId: row.record_id }, 'batch row failed');
        // Kept with the row's result (the row's own work was rolled back), for the Administrators.
        if (err instanceof TemplateRenderFailure && !run.dry_run) await recordTemplateFailure(tx, err, actor?.user.id ?? null, `batch run ${run.id} (${run.resource} ${run.action}), row ${row.reference}`);
        ok = false;
        retryable = mayPass(known);
        message = batchErrorLine(row.reference, known ? reasonOf(known) : 'an unexpected error (see the server log)');
        amount = null;
        group = null;
      }
    }
    // A previewed import row keeps when it was tried, as its version: the confirmed run's row compares with it.
    const previewed = run.dry_run && isImport(mod, action) ? { version: sql`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` } : {};
    await tx
      .update(batchRunRows)
      .set({ status: ok ? 'ok' : 'failed', message, amount, total_group: group, retryable, worker: WORKER_NAME, finished_timestamp: sql`clock_timestamp()`, ...previewed })
      .where(eq(batchRunRows.id, row.id));
    return true;
  });
}

/**
 * Counts a row whose work the database broke off, in a transaction of its own (the row's was rolled back), and
 * fails it at MAX_ROW_ATTEMPTS with the reason. When even that fails (the database is gone), the error ends the
 * run's job, which is taken again later.
 */
async function countBrokenOff(ctx: AppContext, broken: RowBrokenOff): Promise<void> {
  ctx.logger.warn({ err: broken.error, rowId: broken.rowId }, 'batch row broken off by the database');
  await ctx.db.transaction(async (tx) => {
    const [counted] = await tx
      .update(batchRunRows)
      .set({ attempts: sql`${batchRunRows.attempts} + 1` })
      .where(and(eq(batchRunRows.id, broken.rowId), eq(batchRunRows.status, 'pending')))
      .returning({ attempts: batchRunRows.attempts });
    if (!counted || counted.attempts < MAX_ROW_ATTEMPTS) return;
    await tx
      .update(batchRunRows)
      .set({
        status: 'failed',
        message: batchErrorLine(broken.reference, `given up after ${counted.attempts} attempts: ${broken.reason}`),
        // A clash or a slow moment: once the other work is over, the row may go through.
        retryable: true,
        worker: WORKER_NAME,
        finished_timestamp: sql`clock_timestamp()`,
      })
      .where(eq(batchRunRows.id, broken.rowId));
  });
}

/** Marks the run finished once no row is pending, exactly once, with its outcome in the event log. */
async function finishIfDone(ctx: AppContext, run: RunRecord, importing: boolean): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [finished] = await tx
      .update(batchRuns)
      .set({ status: 'finished', finished_timestamp: sql`now()` })
      .where(
        and(
          eq(batchRuns.id, run.id),
          inArray(batchRuns.status, ['queued', 'running']),
          sql`not exists (select 1 from ${batchRunRows} where ${batchRunRows.run_id} = ${run.id} and ${batchRunRows.status} = 'pending')`,
        ),
      )
      .returning({ id: batchRuns.id });
    if (!finished) return;
    previewMemories.get(ctx.db)?.delete(run.id);
    const counts = await tx
      .select({ status: batchRunRows.status, n: sql<number>`count(*)::int` })
      .from(batchRunRows)
      .where(eq(batchRunRows.run_id, run.id))
      .groupBy(batchRunRows.status);
    const n = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
    if (importing) {
      // An import is one entry in the event log with its counts (issue 16): what was created, updated, left alone,
      // refused, counted by the words its rows' lines begin with (importRowLine).
      const w = importRowWords(run.dry_run);
      const begins = (words: string) => sql<number>`(count(*) filter (where ${batchRunRows.message} like ${`${words} %`}))::int`;
      const [k] = await tx
        .select({ created: begins(w.created), updated: begins(w.updated), unchanged: sql<number>`(count(*) filter (where ${batchRunRows.message} = ${w.unchanged}))::int` })
        .from(batchRunRows)
        .where(and(eq(batchRunRows.run_id, run.id), eq(batchRunRows.status, 'ok')));
      const input = run.input as ImportRunInput;
      await recordEvent(tx, {
        type: 'batchRun',
        userId: run.created_user,
        message: `${run.label} of ${input.filename}${run.dry_run ? ' (preview)' : ''} finished (run ${run.id}): ${k?.created ?? 0} created, ${k?.updated ?? 0} updated, ${k?.unchanged ?? 0} unchanged, ${n('failed')} refused`,
      });
      return;
    }
    await recordEvent(tx, {
      type: 'batchRun',
      userId: run.created_user,
      message: `Batch "${run.label}"${run.dry_run ? ' (preview)' : ''} finished (run ${run.id}): ${n('ok')} ok, ${n('failed')} failed`,
    });
  });
}

async function actorOf(ctx: AppContext, run: RunRecord, action: AnyAction): Promise<Actor | undefined> {
  const user: SessionUser | undefined = await findActiveUser(ctx.db, run.created_user);
  return user && roleHasLevel(user.userrole_name, action.level) ? { user } : undefined;
}

/** Waits `ms`, or less when the process stops meanwhile. */
function pause(ms: number, stopping: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    stopping?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * The queue task of a run: works through its pending rows one at a time until none is left for it, or until its
 * slice is over (then it queues itself again), touching the run's heartbeat meanwhile, then finishes the run if
 * it was the last to work on it.
 */
export function batchRunTask(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>, options: BatchWorkerOptions) {
  return async (payload: unknown): Promise<void> => {
    const runId = Number((payload as { runId?: unknown } | null)?.runId);
    if (!Number.isInteger(runId)) return;
    const [run] = await ctx.db.select().from(batchRuns).where(eq(batchRuns.id, runId));
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    const mod = modules.get(run.resource);
    const action = mod && findAction(mod.resource, run.action);
    if (!mod || !action) {
      ctx.logger.error({ runId }, `batch run of an unknown action ${run.resource}.${run.action}`);
      return;
    }
    await ctx.db.update(batchRuns).set({ status: 'running', heartbeat_timestamp: sql`now()` }).where(and(eq(batchRuns.id, runId), eq(batchRuns.status, 'queued')));
    const heartbeat = setInterval(() => {
      ctx.db
        .update(batchRuns)
        .set({ heartbeat_timestamp: sql`now()` })
        .where(eq(batchRuns.id, runId))
        .catch((err: unknown) => ctx.logger.warn({ err, runId }, 'batch heartbeat failed'));
    }, options.heartbeatMs);
    const sliceEnds = performance.now() + options.sliceMs;
    try {
      for (;;) {
        if (options.stopping?.aborted) {
          await enqueueRun(ctx.db, runId, 1);
          ctx.logger.info({ runId }, 'batch run handed on: the process stops');
          return;
        }
        if (!run.dry_run && performance.now() >= sliceEnds) {
          // Behind the jobs queued meanwhile (another user's run); this job's slot is free for them now.
          await enqueueRun(ctx.db, runId, 1);
          return;
        }
        let done: boolean;
        try {
          // Who started the run is asked again for each row: a user deactivated, or no longer of the action's
          // role, while the run works has the rest of its rows refused (decision 033).
          done = !(await doNextRow(ctx, mod, action, run, await actorOf(ctx, run, action)));
        } catch (err) {
          if (!(err instanceof RowBrokenOff)) throw err;
          await countBrokenOff(ctx, err);
          continue;
        }
        if (done) break;
        if (options.rowPauseMs > 0) await pause(options.rowPauseMs, options.stopping);
      }
    } finally {
      clearInterval(heartbeat);
    }
    await finishIfDone(ctx, run, isImport(mod, action));
  };
}

/**
 * Takes up runs whose workers died (a crash, a kill): an unfinished run whose heartbeat is older than
 * `staleSeconds` gets new jobs, which do its pending rows and finish it. Its in-flight row was rolled back with
 * the dead connection, so it is done again, once. Marking the heartbeat in the same statement keeps two
 * sweepers from both taking it up.
 */
export async function resumeStaleRuns(ctx: AppContext, staleSeconds: number): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    const stale = await tx
      .update(batchRuns)
      .set({ heartbeat_timestamp: sql`now()` })
      .where(
        and(
          inArray(batchRuns.status, ['queued', 'running']),
          sql`coalesce(${batchRuns.heartbeat_timestamp}, ${batchRuns.created_timestamp}) < now() - make_interval(secs => ${staleSeconds})`,
        ),
      )
      .returning({ id: batchRuns.id });
    for (const { id } of stale) await enqueueRun(tx, id, 2);
    return stale.map((r) => r.id);
  });
}
