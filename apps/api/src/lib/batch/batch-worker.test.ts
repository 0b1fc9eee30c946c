import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchRun } from '@app/contracts';
import { and, eq, inArray, like } from 'drizzle-orm';
import { batchRunRows, connect, contracts, logEvents, users } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { MAX_ROW_ATTEMPTS } from './batch-worker.js';

/**
 * How the batch worker treats rows it cannot do as planned (decision 033). The workers run on a connection whose
 * statement timeout is short, and pause between rows so that a run can be caught while it works.
 */
const t = await setupTestApp({ BATCH_ROW_PAUSE_MS: '150' });
const impatient = connect(t.databaseUrl, { statementTimeoutMs: 300 });
afterAll(() => impatient.close());
await startTestWorkers({ ...t, ctx: { ...t.ctx, db: impatient.db } });

let token = '';
let admin = '';
beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'User'));
  ({ token: admin } = await userWithToken(t.app, t.db, 'Administrator'));
});
const api = (path: string) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

describe('a batch row the database breaks off', () => {
  // Here its contract is locked by another transaction, so the worker's statement waits until the statement timeout
  // cancels it. It was taken again without end, and its run never finished.
  it(`fails after ${MAX_ROW_ATTEMPTS} attempts naming why, the run finishes with the other rows done, and a retry later does it (not a row refused for its state)`, async () => {
    const [first, locked, graduated, last] = [
      await createContract(t.db, { contract_status_id: 3 }),
      await createContract(t.db, { contract_status_id: 3 }),
      // Refused for its state: a retry would be refused the same way, so it is left.
      await createContract(t.db, { contract_status_id: 5 }),
      await createContract(t.db, { contract_status_id: 3 }),
    ];
    const ids = [first.id, locked.id, graduated.id, last.id];
    const blocker = await t.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from contracts where id = $1 for update', [locked.id]);
      const started = await api('/contracts/batch/update_status').send({ ids, contract_status_id: 4 });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const runId = started.body.run_id as number;
      const run = await waitForRun(t, token, runId);
      expect(run).toMatchObject({ status: 'finished', done: 4, failed: 2, retryable: 1 });
      const failed = run.rows.filter((r) => !r.ok);
      const refusal = `Error for ${graduated.application_number}: A contract with status "Graduated" cannot change to "On a break"`;
      expect(failed.map((r) => r.message)).toEqual([
        `Error for ${locked.application_number}: given up after ${MAX_ROW_ATTEMPTS} attempts: it took longer than the database allows each time`,
        refusal,
      ]);
      expect(failed.map((r) => r.retryable)).toEqual([true, false]);
      const rows = await t.db
        .select({ record: batchRunRows.record_id, attempts: batchRunRows.attempts, finished: batchRunRows.finished_timestamp })
        .from(batchRunRows)
        .where(eq(batchRunRows.run_id, runId));
      expect(Object.fromEntries(rows.map((r) => [r.record, r.attempts]))).toEqual({ [first.id]: 0, [locked.id]: MAX_ROW_ATTEMPTS, [graduated.id]: 0, [last.id]: 0 });
      await blocker.query('rollback');

      // The lock gone, Retry failed rows does it, counting afresh; the refused row keeps its outcome, untouched.
      const retried = await api(`/batch_runs/${runId}/retry_failed`).send({});
      expect(retried.status).toBe(200);
      const after = await waitForRun(t, token, runId);
      expect(after).toMatchObject({ status: 'finished', done: 4, failed: 1, retryable: 0 });
      expect(after.rows.filter((r) => !r.ok).map((r) => r.message)).toEqual([refusal]);
      const statuses = await t.db.select({ id: contracts.id, status: contracts.contract_status_id }).from(contracts).where(inArray(contracts.id, ids));
      expect(Object.fromEntries(statuses.map((c) => [c.id, c.status]))).toEqual({ [first.id]: 4, [locked.id]: 4, [graduated.id]: 5, [last.id]: 4 });
      const [again] = await t.db.select({ attempts: batchRunRows.attempts }).from(batchRunRows).where(eq(batchRunRows.record_id, locked.id));
      expect(again!.attempts).toBe(0);
      const [kept] = await t.db.select({ finished: batchRunRows.finished_timestamp }).from(batchRunRows).where(and(eq(batchRunRows.run_id, runId), eq(batchRunRows.record_id, graduated.id)));
      expect(kept!.finished).toEqual(rows.find((r) => r.record === graduated.id)!.finished);
      const [event] = await t.db.select({ m: logEvents.le_message }).from(logEvents).where(like(logEvents.le_message, `%(run ${runId}): %retried%`));
      expect(event!.m).toBe(`Batch "Change status" (run ${runId}): 1 failed row(s) retried; 1 row not retried (a refusal would be the same again)`);
      // Nothing left that may pass: a second retry starts nothing and says why.
      const nothing = await api(`/batch_runs/${runId}/retry_failed`).send({});
      expect(nothing.status).toBe(409);
      expect(nothing.body.message).toBe("The failed row cannot be retried: it was refused for its data or its record's state, and would be refused again. Correct it and start again");
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      blocker.release();
    }
  });
});

describe('a run whose user is deactivated while it works', () => {
  it('refuses the rest of its rows, naming why, and changes none of their records', async () => {
    const user = await userWithToken(t.app, t.db, 'User');
    const chosen = [];
    for (let i = 0; i < 6; i++) chosen.push(await createContract(t.db, { contract_status_id: 3 }));
    const ids = chosen.map((c) => c.id);
    const started = await t.http().post('/api/v1.0/contracts/batch/update_status').set('Authorization', `Bearer ${user.token}`).send({ ids, contract_status_id: 4 });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.run_id as number;
    // Once its first row is done, the user is deactivated (an Administrator follows the run from then on).
    for (let seen = 0; seen < 1; ) {
      const run = (await t.http().get(`/api/v1.0/batch_runs/${runId}`).set('Authorization', `Bearer ${admin}`)).body as BatchRun;
      seen = run.done;
      if (seen < 1) await new Promise((r) => setTimeout(r, 20));
    }
    await t.db.update(users).set({ usr_active: false }).where(eq(users.id, user.id));
    const run = await waitForRun(t, admin, runId);
    const refused = run.rows.filter((r) => !r.ok);
    expect(run.rows.filter((r) => r.ok).length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    for (const r of refused) expect(r.message).toMatch(/^Error for .+: The user who started this run may no longer run it$/);
    const statuses = await t.db.select({ id: contracts.id, status: contracts.contract_status_id }).from(contracts).where(inArray(contracts.id, ids));
    expect(statuses.filter((c) => c.status === 4)).toHaveLength(run.rows.filter((r) => r.ok).length);
  });
});
