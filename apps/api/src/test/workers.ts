import { afterAll, expect } from 'vitest';
import type { BatchRun } from '@app/contracts';
import { startWorkers } from '../lib/jobs/worker.js';
import { modulesByKey, resourceModules } from '../resources/index.js';
import type { TestApp } from './app.js';

/** The job workers of the test's app, stopped after the file's tests. */
export async function startTestWorkers(t: TestApp) {
  const workers = await startWorkers(t.ctx, modulesByKey(resourceModules(t.ctx)));
  afterAll(() => workers.stop());
  return workers;
}

/** Follows a batch run as the web does (`GET /batch_runs/{id}`) until it is over. */
export async function waitForRun(t: TestApp, token: string, runId: number, timeoutMs = 20_000): Promise<BatchRun> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.http().get(`/api/v1.0/batch_runs/${runId}`).set('Authorization', `Bearer ${token}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = res.body as BatchRun;
    if (run.status === 'finished' || run.status === 'cancelled') return run;
    if (Date.now() > until) throw new Error(`batch run ${runId} did not finish: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
