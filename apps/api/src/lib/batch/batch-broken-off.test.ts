import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { batchRunRows, connect, contracts } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { MAX_ROW_ATTEMPTS } from './batch-worker.js';

/**
 * A row whose work the database breaks off (decision 033): here its contract is locked by another transaction, so
 * the worker's statement waits until the statement timeout cancels it. It was taken again without end, and its run
 * never finished. The workers run on a connection whose statement timeout is short.
 */
const t = await setupTestApp();
const impatient = connect(t.databaseUrl, { statementTimeoutMs: 300 });
afterAll(() => impatient.close());
await startTestWorkers({ ...t, ctx: { ...t.ctx, db: impatient.db } });

let token = '';
beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'User'));
});
const api = (path: string) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

describe('a batch row the database breaks off', () => {
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
