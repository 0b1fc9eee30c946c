import type { Response } from 'express';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  AppError,
  batchLabelOf,
  batchRequestSchema,
  findAction,
  MAX_BATCH_ROWS,
  MY_BATCH_RUNS_LISTED,
  roleHasLevel,
  type AnyAction,
  type BatchRow,
  type BatchRun,
  type BatchRunStatus,
  type BatchRunSummary,
  type BatchRowStatus,
} from '@app/contracts';
import { batchRunRows, batchRuns, users, type DbOrTx, type Tx } from '@app/db';
import type { AppContext } from '../context.js';
import type { Actor } from '../crud/crud-service.js';
import { parseInput } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { sendXlsx } from '../files/xlsx.js';
import { addJob } from '../jobs/queue.js';
import { isImport, type ResourceModule } from '../actions/module.js';
import type { ImportSource } from '../actions/types.js';

/** The queue task that works through a run's rows. */
export const BATCH_TASK = 'batch_run';

/**
 * Jobs started per run: each takes pending rows one at a time (SKIP LOCKED), so a run is shared by the
 * workers of every process and a large one is not held up by one slow row.
 */
const JOBS_PER_RUN = 2;

type RunRecord = typeof batchRuns.$inferSelect;

const isAdministrator = (actor: Actor) => roleHasLevel(actor.user.userrole_name, 'administrator');

/** Enqueues the jobs that work on a run, in the caller's transaction. */
export async function enqueueRun(tx: DbOrTx, runId: number, rows: number): Promise<void> {
  for (let i = 0; i < Math.min(JOBS_PER_RUN, Math.max(1, rows)); i++) await addJob(tx, BATCH_TASK, { runId }, { maxAttempts: 10 });
}

async function createRun(
  tx: Tx,
  mod: ResourceModule,
  action: AnyAction,
  spec: {
    ids: number[];
    input: Record<string, unknown>;
    dryRun: boolean;
    versions?: Record<string, string>;
    sourceRunId?: number;
    label: string;
    /** Rows refused already (by the preview an import confirms), with their line: kept as failed, not done. */
    refused?: ReadonlyMap<number, string | null>;
  },
  actor: Actor,
): Promise<number> {
  const ids = [...new Set(spec.ids)];
  const references = isImport(mod, action) ? importReferences(spec.input) : await mod.service.references(ids, tx);
  const [run] = await tx
    .insert(batchRuns)
    .values({
      resource: mod.resource.key,
      action: action.name,
      label: spec.label,
      input: spec.input,
      dry_run: spec.dryRun,
      source_run_id: spec.sourceRunId ?? null,
      created_user: actor.user.id,
    })
    .returning({ id: batchRuns.id });
  const runId = run!.id;
  await tx.insert(batchRunRows).values(
    ids.map((id, position) => ({
      run_id: runId,
      position,
      record_id: id,
      // A record that is gone is still a row: it fails with "not found" when its turn comes.
      reference: references.get(id) ?? `#${id}`,
      version: spec.versions?.[String(id)] ?? null,
      ...(spec.refused?.has(id) ? { status: 'failed' as const, message: spec.refused.get(id) ?? null, finished_timestamp: sql`now()` } : {}),
    })),
  );
  const what = isImport(mod, action) ? `${ids.length} row(s) of ${String(spec.input.filename)}` : `${ids.length} ${ids.length === 1 ? mod.resource.title : mod.resource.titlePlural}`;
  await recordEvent(tx, {
    type: 'batchRun',
    userId: actor.user.id,
    message: `Batch "${spec.label}"${spec.dryRun ? ' (preview)' : ''} started on ${what} (run ${runId})`,
  });
  // A preview is worked by one job, in row order: its rows see what the rows before them did (withPreviewMemory).
  // So is a run whose rows are done in order (they take numbers): a second job would only wait on the first's row.
  await enqueueRun(tx, runId, spec.dryRun || action.batch?.inOrder ? 1 : ids.length - (spec.refused?.size ?? 0));
  return runId;
}

/**
 * The input an import run keeps: the action's own input, the name of the file it read, its columns and its
 * rows (a row's record id in the run is its index here). Kept with the run, so confirming the preview or taking
 * up the run after a crash reads exactly what the preview read.
 */
export interface ImportRunInput extends Record<string, unknown> {
  filename: string;
  columns: ImportSource['columns'];
  rows: ImportSource['rows'];
  notes?: string[];
}

function importReferences(input: Record<string, unknown>): Map<number, string> {
  const rows = (input as ImportRunInput).rows ?? [];
  return new Map(rows.map((r, i) => [i, r.reference.slice(0, 300)]));
}

/**
 * Starts an import: the rows read from the upload become a preview run (every import previews first; its
 * confirmation does the rows for real). Answers the spec's `{filename}` and the run.
 */
export async function startImport(ctx: AppContext, mod: ResourceModule, action: AnyAction, source: ImportSource, input: Record<string, unknown>, actor: Actor): Promise<{ filename: string; run_id: number }> {
  if (source.rows.length === 0) throw new AppError('BAD_REQUEST', 'file: the file has no rows to import', { file: ['The file has no rows to import'] });
  if (source.rows.length > MAX_BATCH_ROWS) {
    throw new AppError('BAD_REQUEST', `file: at most ${MAX_BATCH_ROWS} rows can be imported at once`, { file: [`At most ${MAX_BATCH_ROWS} rows can be imported at once`] });
  }
  const runInput: ImportRunInput = { ...input, filename: source.filename, columns: source.columns, rows: source.rows, notes: source.notes ?? [] };
  const runId = await ctx.db.transaction((tx) =>
    createRun(tx, mod, action, { ids: source.rows.map((_r, i) => i), input: runInput, dryRun: true, label: `Import ${batchLabel(action)}` }, actor),
  );
  return { filename: source.filename, run_id: runId };
}

/**
 * `POST /contracts/get_import_results {filename, type}`: the latest run of that import over a file of that name
 * (the confirmed one once there is one, else its preview) as an xlsx: every input row with its outcome.
 */
export async function sendImportResults(ctx: AppContext, mod: ResourceModule, actionName: string, filename: string, actor: Actor, res: Response): Promise<void> {
  const mine = isAdministrator(actor) ? sql`true` : eq(batchRuns.created_user, actor.user.id);
  const [run] = await ctx.db
    .select()
    .from(batchRuns)
    .where(and(eq(batchRuns.resource, mod.resource.key), eq(batchRuns.action, actionName), sql`${batchRuns.input}->>'filename' = ${filename}`, mine))
    .orderBy(desc(batchRuns.id))
    .limit(1);
  if (!run) throw new AppError('NOT_FOUND', `No import of ${filename} found`);
  const input = run.input as ImportRunInput;
  const rows = await ctx.db
    .select({ index: batchRunRows.record_id, status: batchRunRows.status, message: batchRunRows.message })
    .from(batchRunRows)
    .where(eq(batchRunRows.run_id, run.id))
    .orderBy(asc(batchRunRows.position));
  async function* lines() {
    for (const r of rows) {
      const values = input.rows[r.index]?.values ?? {};
      yield [...input.columns.map((c) => values[c.key] ?? null), run!.dry_run && r.status === 'ok' ? 'Preview' : STATUS_TEXT[r.status as BatchRowStatus], r.message];
    }
  }
  await sendXlsx(
    res,
    `Import_results_${filename.replace(/\.[^.]*$/, '')}.xlsx`,
    run.dry_run ? 'Preview' : 'Result',
    [
      ...input.columns.map((c) => ({ field: c.key, title: c.title, width: 140 })),
      { field: 'result', title: 'Result', width: 84 },
      { field: 'message', title: 'Message', width: 420 },
    ],
    lines(),
  );
}

/** The label of a run: the batch label of a record action, the action's label otherwise. */
export function batchLabel(action: AnyAction, input: Record<string, unknown> = {}): string {
  return batchLabelOf(action, input);
}

/**
 * `POST /{resource}/batch/{action}`: `{ids, dry_run?, versions?, …input}` → a queued run (202 `{run_id}`).
 * The input is validated here, once, so every row runs with the same checked input.
 */
export async function startBatch(ctx: AppContext, mod: ResourceModule, action: AnyAction, body: unknown, actor: Actor): Promise<{ run_id: number }> {
  const { ids, dry_run, versions, ...input } = parseInput(batchRequestSchema(action.input), body ?? {}, action.label.toLowerCase()) as {
    ids: number[];
    dry_run?: boolean;
    versions?: Record<string, string>;
  } & Record<string, unknown>;
  if (action.versioned) {
    const missing = ids.filter((id) => versions?.[String(id)] === undefined);
    if (missing.length > 0) {
      throw new AppError('PRECONDITION_REQUIRED', `versions is required: send the edit_timestamp you read of every selected record (missing for ${missing.length})`, {
        versions: [`No version for record${missing.length === 1 ? '' : 's'} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ' …' : ''}`],
      });
    }
  }
  const runId = await ctx.db.transaction((tx) =>
    createRun(tx, mod, action, { ids, input, dryRun: dry_run === true, versions, label: batchLabel(action, input) }, actor),
  );
  return { run_id: runId };
}

/** A run the caller may see: their own, or any for an Administrator (others are not found). */
async function loadRun(db: DbOrTx, id: number, actor: Actor, lock = false): Promise<RunRecord> {
  const query = db.select().from(batchRuns).where(eq(batchRuns.id, id));
  const [run] = await (lock ? query.for('update') : query);
  if (!run || (run.created_user !== actor.user.id && !isAdministrator(actor))) throw new AppError('NOT_FOUND', `Batch run ${id} not found`);
  return run;
}

function actionOfRun(modules: ReadonlyMap<string, ResourceModule>, run: RunRecord): { mod: ResourceModule; action: AnyAction } {
  const mod = modules.get(run.resource);
  const action = mod && findAction(mod.resource, run.action);
  if (!mod || !action) throw new AppError('CONFLICT', `The action of batch run ${run.id} no longer exists`);
  return { mod, action };
}

const asNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

async function rowsOf(db: DbOrTx, runId: number, which: 'all' | 'failed' = 'all'): Promise<BatchRow[]> {
  const rows = await db
    .select({ id: batchRunRows.record_id, reference: batchRunRows.reference, status: batchRunRows.status, message: batchRunRows.message, amount: batchRunRows.amount, retryable: batchRunRows.retryable })
    .from(batchRunRows)
    .where(and(eq(batchRunRows.run_id, runId), which === 'failed' ? eq(batchRunRows.status, 'failed') : undefined))
    .orderBy(asc(batchRunRows.position));
  return rows.map((r) => ({ ...r, status: r.status as BatchRowStatus, ok: r.status === 'ok', amount: asNumber(r.amount) }));
}

/**
 * `GET /batch_runs/{id}`: status, counts and totals of all its rows (summed in SQL), and the rows' outcomes so far:
 * all of them, or only the refused ones (`rows=failed`, what its dialog asks while the run works).
 */
export async function getRun(ctx: AppContext, id: number, actor: Actor, which: 'all' | 'failed' = 'all'): Promise<BatchRun> {
  const run = await loadRun(ctx.db, id, actor);
  const [rows, [creator], [counts], totals] = await Promise.all([
    rowsOf(ctx.db, id, which),
    ctx.db.select({ name: users.usr_name }).from(users).where(eq(users.id, run.created_user)),
    ctx.db
      .select({
        total: sql<number>`count(*)::int`,
        done: sql<number>`(count(*) filter (where ${batchRunRows.status} in ('ok', 'failed')))::int`,
        failed: sql<number>`(count(*) filter (where ${batchRunRows.status} = 'failed'))::int`,
        retryable: sql<number>`(count(*) filter (where ${batchRunRows.status} = 'failed' and ${batchRunRows.retryable}))::int`,
        amount: sql<string | null>`(sum(${batchRunRows.amount}) filter (where ${batchRunRows.status} = 'ok'))::text`,
      })
      .from(batchRunRows)
      .where(eq(batchRunRows.run_id, id)),
    // Per group, over the rows done or to be done.
    ctx.db
      .select({ group: batchRunRows.total_group, count: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${batchRunRows.amount}), 0)::text` })
      .from(batchRunRows)
      .where(and(eq(batchRunRows.run_id, id), eq(batchRunRows.status, 'ok'), sql`${batchRunRows.total_group} is not null`))
      .groupBy(batchRunRows.total_group)
      .orderBy(asc(batchRunRows.total_group)),
  ]);
  return {
    id: run.id,
    resource: run.resource,
    action: run.action,
    label: run.label,
    dry_run: run.dry_run,
    status: run.status as BatchRunStatus,
    total: counts?.total ?? 0,
    done: counts?.done ?? 0,
    failed: counts?.failed ?? 0,
    retryable: counts?.retryable ?? 0,
    amount: asNumber(counts?.amount),
    created_user: creator?.name ?? null,
    created_timestamp: run.created_timestamp.toISOString(),
    finished_timestamp: run.finished_timestamp?.toISOString() ?? null,
    source_run_id: run.source_run_id,
    notes: (run.input as Partial<ImportRunInput>).notes ?? [],
    totals: totals.map((t) => ({ group: t.group!, count: t.count, amount: Number(t.amount) })),
    rows,
  };
}

/**
 * `GET /batch_runs`: the caller's own runs, newest first (MY_BATCH_RUNS_LISTED), each with its counts: what a
 * user who closed a run's dialog while it worked opens it again from.
 */
export async function listMyRuns(ctx: AppContext, actor: Actor): Promise<BatchRunSummary[]> {
  const runs = await ctx.db
    .select({
      id: batchRuns.id,
      label: batchRuns.label,
      dry_run: batchRuns.dry_run,
      status: batchRuns.status,
      created_timestamp: batchRuns.created_timestamp,
      finished_timestamp: batchRuns.finished_timestamp,
    })
    .from(batchRuns)
    .where(eq(batchRuns.created_user, actor.user.id))
    .orderBy(desc(batchRuns.id))
    .limit(MY_BATCH_RUNS_LISTED);
  const counts =
    runs.length === 0
      ? []
      : await ctx.db
          .select({
            run: batchRunRows.run_id,
            total: sql<number>`count(*)::int`,
            done: sql<number>`(count(*) filter (where ${batchRunRows.status} in ('ok', 'failed')))::int`,
            failed: sql<number>`(count(*) filter (where ${batchRunRows.status} = 'failed'))::int`,
          })
          .from(batchRunRows)
          .where(inArray(batchRunRows.run_id, runs.map((r) => r.id)))
          .groupBy(batchRunRows.run_id);
  const countsOf = new Map(counts.map((c) => [c.run, c]));
  return runs.map((r) => ({
    ...r,
    status: r.status as BatchRunStatus,
    total: countsOf.get(r.id)?.total ?? 0,
    done: countsOf.get(r.id)?.done ?? 0,
    failed: countsOf.get(r.id)?.failed ?? 0,
    created_timestamp: r.created_timestamp.toISOString(),
    finished_timestamp: r.finished_timestamp?.toISOString() ?? null,
  }));
}

const STATUS_TEXT: Record<BatchRowStatus, string> = { pending: 'Not done', ok: 'OK', failed: 'Error', cancelled: 'Cancelled' };

/** `GET /batch_runs/{id}/result`: the rows and their outcome as an xlsx file. */
export async function sendRunResult(ctx: AppContext, id: number, actor: Actor, res: Response): Promise<void> {
  const run = await loadRun(ctx.db, id, actor);
  const rows = await rowsOf(ctx.db, id);
  const filename = `Batch_${run.id}_${run.label.replace(/[^A-Za-z0-9]+/g, '_')}.xlsx`;
  async function* lines() {
    let n = 1;
    for (const r of rows) yield [n++, r.reference, STATUS_TEXT[r.status], r.message, r.amount];
  }
  await sendXlsx(
    res,
    filename,
    run.dry_run ? 'Preview' : 'Result',
    [
      { field: 'n', title: 'Row', format: 'number', width: 42 },
      { field: 'reference', title: 'Reference', width: 196 },
      { field: 'result', title: 'Result', width: 84 },
      { field: 'message', title: 'Message', width: 420 },
      { field: 'amount', title: 'Amount', format: 'money', width: 98 },
    ],
    lines(),
  );
}

/** The caller may steer the run (its creator or an Administrator) and may still run its action. */
function checkMaySteer(run: RunRecord, action: AnyAction, actor: Actor): void {
  if (!roleHasLevel(actor.user.userrole_name, action.level)) throw new AppError('FORBIDDEN', 'Your role does not allow this');
  if (run.created_user !== actor.user.id && !isAdministrator(actor)) throw new AppError('NOT_FOUND', `Batch run ${run.id} not found`);
}

const rowsText = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/**
 * `POST /batch_runs/{id}/retry_failed`: the failed rows whose failure may pass (`retryable`: the database broke
 * their work off, a fault of the system) are done again; the rest keep their outcome. A row refused for itself
 * (its data, its record's state) would be refused the same way again, so it is left, and a run with no other
 * failed row is not started again for nothing (409 saying why).
 */
export async function retryFailed(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>, id: number, actor: Actor): Promise<BatchRun> {
  await ctx.db.transaction(async (tx) => {
    const run = await loadRun(tx, id, actor);
    checkMaySteer(run, actionOfRun(modules, run).action, actor);
    if (run.status !== 'finished') throw new AppError('CONFLICT', 'A batch run can be retried once it has finished');
    const failed = and(eq(batchRunRows.run_id, id), eq(batchRunRows.status, 'failed'));
    const again = await tx
      .update(batchRunRows)
      .set({ status: 'pending', message: null, amount: null, total_group: null, retryable: false, worker: null, finished_timestamp: null, attempts: 0 })
      .where(and(failed, eq(batchRunRows.retryable, true)))
      .returning({ id: batchRunRows.id });
    const [{ left } = { left: 0 }] = await tx.select({ left: sql<number>`count(*)::int` }).from(batchRunRows).where(failed);
    if (again.length === 0) {
      throw new AppError(
        'CONFLICT',
        left === 0
          ? 'This batch run has no failed rows'
          : left === 1
            ? "The failed row cannot be retried: it was refused for its data or its record's state, and would be refused again. Correct it and start again"
            : `None of the ${left} failed rows can be retried: each was refused for its data or its record's state, and would be refused again. Correct them and start again`,
      );
    }
    await tx.update(batchRuns).set({ status: 'queued', finished_timestamp: null, heartbeat_timestamp: null }).where(eq(batchRuns.id, id));
    const leftText = left > 0 ? `; ${rowsText(left)} not retried (a refusal would be the same again)` : '';
    await recordEvent(tx, { type: 'batchRun', userId: actor.user.id, message: `Batch "${run.label}" (run ${id}): ${again.length} failed row(s) retried${leftText}` });
    await enqueueRun(tx, id, again.length);
  });
  return getRun(ctx, id, actor);
}

/** `POST /batch_runs/{id}/cancel`: rows not yet done are not done; the row at work finishes first. */
export async function cancelRun(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>, id: number, actor: Actor): Promise<BatchRun> {
  await ctx.db.transaction(async (tx) => {
    const run = await loadRun(tx, id, actor);
    checkMaySteer(run, actionOfRun(modules, run).action, actor);
    const [stopped] = await tx
      .update(batchRuns)
      .set({ status: 'cancelled', finished_timestamp: sql`now()` })
      .where(and(eq(batchRuns.id, id), inArray(batchRuns.status, ['queued', 'running'])))
      .returning({ id: batchRuns.id });
    if (!stopped) throw new AppError('CONFLICT', 'This batch run is already over');
    const skipped = await tx
      .update(batchRunRows)
      .set({ status: 'cancelled', finished_timestamp: sql`now()` })
      .where(and(eq(batchRunRows.run_id, id), eq(batchRunRows.status, 'pending')))
      .returning({ id: batchRunRows.id });
    await recordEvent(tx, { type: 'batchRun', userId: actor.user.id, message: `Batch "${run.label}" (run ${id}) cancelled: ${skipped.length} row(s) not done` });
  });
  return getRun(ctx, id, actor);
}

/**
 * `POST /batch_runs/{id}/confirm`: does for real what a finished preview showed, on the rows the preview
 * found fine (the refused ones were shown with their reason). Answers the new run.
 */
export async function confirmRun(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>, id: number, actor: Actor): Promise<{ run_id: number }> {
  const runId = await ctx.db.transaction(async (tx) => {
    // The preview locked: two confirms at once (a double click, a second tab, another user) take turns, and the
    // second finds the first's run (batch_runs_source_run_idx holds it too).
    const run = await loadRun(tx, id, actor, true);
    const { mod, action } = actionOfRun(modules, run);
    checkMaySteer(run, action, actor);
    if (!run.dry_run || run.status !== 'finished') throw new AppError('CONFLICT', 'Only a finished preview can be confirmed');
    const [confirmed] = await tx.select({ id: batchRuns.id }).from(batchRuns).where(eq(batchRuns.source_run_id, id));
    if (confirmed) throw new AppError('CONFLICT', `This preview was already confirmed: batch run ${confirmed.id} does it`);
    const previewed = await tx
      .select({ id: batchRunRows.record_id, version: batchRunRows.version, status: batchRunRows.status, message: batchRunRows.message })
      .from(batchRunRows)
      .where(and(eq(batchRunRows.run_id, id), inArray(batchRunRows.status, ['ok', 'failed'])))
      .orderBy(asc(batchRunRows.position));
    const ok = previewed.filter((r) => r.status === 'ok');
    if (ok.length === 0) throw new AppError('CONFLICT', 'The preview found no row that can be done');
    const versions = Object.fromEntries(ok.filter((r) => r.version !== null).map((r) => [String(r.id), r.version!]));
    // An import's results and count keep every input row (issue 16): the rows its preview refused stay refused.
    const importing = isImport(mod, action);
    const refused = importing ? new Map(previewed.filter((r) => r.status === 'failed').map((r) => [r.id, r.message])) : undefined;
    return createRun(
      tx,
      mod,
      action,
      { ids: (importing ? previewed : ok).map((r) => r.id), input: run.input as Record<string, unknown>, dryRun: false, versions, sourceRunId: id, label: run.label, refused },
      actor,
    );
  });
  return { run_id: runId };
}
