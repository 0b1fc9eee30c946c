import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchRun } from '@app/contracts';
import { eq, inArray } from 'drizzle-orm';
import { batchRunRows, connect, contracts, users } from '@app/db';
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
  it(`fails after ${MAX_ROW_ATTEMPTS} attempts naming why, the run finishes with the other rows done, and a retry later does it`, async () => {
    const [first, locked, last] = [
      await createContract(t.db, { contract_status_id: 3 }),
      await createContract(t.db, { contract_status_id: 3 }),
      await createContract(t.db, { contract_status_id: 3 }),
    ];
    const ids = [first.id, locked.id, last.id];
    const blocker = await t.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from contracts where id = $1 for update', [locked.id]);
      const started = await api('/contracts/batch/update_status').send({ ids, contract_status_id: 4 });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const runId = started.body.run_id as number;
      const run = await waitForRun(t, token, runId);
      expect(run).toMatchObject({ status: 'finished', done: 3, failed: 1 });
      const failed = run.rows.filter((r) => !r.ok);
      expect(failed.map((r) => r.message)).toEqual([
        `Error for ${locked.application_number}: given up after ${MAX_ROW_ATTEMPTS} attempts: it took longer than the database allows each time`,
      ]);
      const rows = await t.db.select({ record: batchRunRows.record_id, attempts: batchRunRows.attempts }).from(batchRunRows).where(eq(batchRunRows.run_id, runId));
      expect(Object.fromEntries(rows.map((r) => [r.record, r.attempts]))).toEqual({ [first.id]: 0, [locked.id]: MAX_ROW_ATTEMPTS, [last.id]: 0 });
      await blocker.query('rollback');

      // The lock gone, Retry failed rows does it, counting afresh.
      expect((await api(`/batch_runs/${runId}/retry_failed`).send({})).status).toBe(200);
      expect(await waitForRun(t, token, runId)).toMatchObject({ status: 'finished', done: 3, failed: 0 });
      const statuses = await t.db.select({ id: contracts.id, status: contracts.contract_status_id }).from(contracts).where(inArray(contracts.id, ids));
      expect(statuses.map((c) => c.status)).toEqual([4, 4, 4]);
      const [again] = await t.db.select({ attempts: batchRunRows.attempts }).from(batchRunRows).where(eq(batchRunRows.record_id, locked.id));
      expect(again!.attempts).toBe(0);
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
