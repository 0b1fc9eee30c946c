import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, unique, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

/**
 * A batch run (DESIGN §10): an action over a selection, done row by row by the job workers. The rows are the
 * truth of its progress: each row's work and its outcome commit in one transaction, so a run survives a crash
 * and no row is done twice.
 */
export const batchRuns = pgTable(
  'batch_runs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Resource key and action name (`contract`, `update_status`). */
    resource: varchar('resource', { length: 50 }).notNull(),
    action: varchar('action', { length: 50 }).notNull(),
    label: varchar('label', { length: 100 }).notNull(),
    /** The action's input, as validated. */
    input: jsonb('input').notNull(),
    dry_run: boolean('dry_run').notNull().default(false),
    status: varchar('status', { length: 20 }).notNull().default('queued'),
    source_run_id: integer('source_run_id'),
    created_user: integer('created_user')
      .notNull()
      .references(() => users.id),
    created_timestamp: timestamptz('created_timestamp').notNull().defaultNow(),
    finished_timestamp: timestamptz('finished_timestamp'),
    /** Touched by the workers while they work on it: a stale heartbeat means its worker died. */
    heartbeat_timestamp: timestamptz('heartbeat_timestamp'),
  },
  (t) => [
    check('batch_runs_status_check', sql`${t.status} in ('queued', 'running', 'finished', 'cancelled')`),
    index('batch_runs_unfinished_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`),
    // A preview is confirmed once: a second confirm (another click, tab or user) would do every row again.
    uniqueIndex('batch_runs_source_run_idx').on(t.source_run_id).where(sql`${t.source_run_id} is not null`),
    // A user's own runs, newest first (GET /batch_runs).
    index('batch_runs_created_user_idx').on(t.created_user, t.id),
  ],
);

export const batchRunRows = pgTable(
  'batch_run_rows',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    run_id: integer('run_id')
      .notNull()
      .references(() => batchRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    record_id: integer('record_id').notNull(),
    reference: varchar('reference', { length: 300 }).notNull(),
    /** The record's edit_timestamp as the client saw it, when it sent one. */
    version: varchar('version', { length: 40 }),
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    message: text('message'),
    amount: numeric('amount', { precision: 12, scale: 2 }),
    /** What the preview totals the amount by (a payment type), where the action says. */
    total_group: varchar('total_group', { length: 100 }),
    /** Which worker did it (host:pid), for the operator. */
    worker: varchar('worker', { length: 100 }),
    /**
     * How often its work was broken off by the database (a statement timeout, a deadlock, a serialization
     * failure) and rolled back; at MAX_ROW_ATTEMPTS the row fails instead of being taken again (decision 033).
     */
    attempts: smallint('attempts').notNull().default(0),
    /**
     * A failed row whose failure may pass (the database broke its work off, a fault of the system): Retry failed
     * rows does it again. A row refused for itself (its data, its record's state or version: a 4xx) is not, as it
     * would be refused the same way again.
     */
    retryable: boolean('retryable').notNull().default(false),
    finished_timestamp: timestamptz('finished_timestamp'),
  },
  (t) => [
    unique('batch_run_rows_position_unique').on(t.run_id, t.position),
    index('batch_run_rows_pending_idx').on(t.run_id, t.position).where(sql`${t.status} = 'pending'`),
    check('batch_run_rows_status_check', sql`${t.status} in ('pending', 'ok', 'failed', 'cancelled')`),
  ],
);

/**
 * Gapless document numbers (DESIGN §11): one row per kind and calendar year, advanced inside the transaction
 * that creates the document, so a rollback gives the number back.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    kind: varchar('kind', { length: 30 }).notNull(),
    year: integer('year').notNull(),
    last_value: integer('last_value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] }), check('document_counters_positive', sql`${t.last_value} > 0`)],
);
