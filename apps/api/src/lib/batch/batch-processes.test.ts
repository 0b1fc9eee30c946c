import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { batchRunRows, batchRuns, contracts, logEvents } from '@app/db';
import { setupTestApp, TEST_JWT_SECRET } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
const apiDir = fileURLToPath(new URL('../../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../..', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * A real API process (src/server.ts under tsx) with its job workers, on the test's database. Each works on
 * one job at a time and pauses between rows, so a run takes long enough to be shared or interrupted.
 */
async function startProcess(extra: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: t.databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      PORT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'process-test-password',
      WORKERS: '1',
      WORKER_CONCURRENCY: '1',
      BATCH_ROW_PAUSE_MS: '40',
      BATCH_STALE_SECONDS: '1',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the process did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      if (out.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the process exited with ${code}:\n${out}`)));
  });
  return child;
}

async function startRun(ids: number[]): Promise<number> {
  const user = await userWithToken(t.app, t.db, 'User');
  const res = await t.http().post('/api/v1.0/contracts/batch/mark_sent').set('Authorization', `Bearer ${user.token}`).send({ ids });
  expect(res.status).toBe(202);
  return res.body.run_id as number;
}

const rowsDone = async (runId: number) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(batchRunRows).where(and(eq(batchRunRows.run_id, runId), eq(batchRunRows.status, 'ok'))))[0]!.n;

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const finished = async (runId: number) => (await t.db.select({ s: batchRuns.status }).from(batchRuns).where(eq(batchRuns.id, runId)))[0]!.s === 'finished';

/** Every contract marked sent exactly once: one event each, and a date on each. */
async function expectEachDoneOnce(ids: number[]) {
  const events = await t.db
    .select({ contract: logEvents.contract_id, n: sql<number>`count(*)::int` })
    .from(logEvents)
    .where(and(inArray(logEvents.contract_id, ids), sql`${logEvents.le_message} like 'Mark contract sent:%'`))
    .groupBy(logEvents.contract_id);
  expect(events).toHaveLength(ids.length);
  for (const e of events) expect(e.n, `events of contract ${e.contract}`).toBe(1);
  const unsent = await t.db.select({ id: contracts.id }).from(contracts).where(and(inArray(contracts.id, ids), sql`${contracts.contract_sent_date} is null`));
  expect(unsent).toEqual([]);
}

/** The processes (pids) whose environment holds `marker`: a process started with it, and its children. */
function processesMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

describe('`pnpm worker` under a process manager', () => {
  it('stops its job workers cleanly when pnpm itself gets SIGTERM, leaving no process behind (the shell of a script did not pass it on)', async () => {
    const mark = randomUUID();
    const marker = `PNPM_WORKER_TEST=${mark}`;
    const child = spawn('pnpm', ['worker'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: t.databaseUrl, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info', PNPM_WORKER_TEST: mark },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    await until(async () => out.includes('Job workers are running'), 60_000, 'the worker to start').catch((e: Error) => {
      throw new Error(`${e.message}; it wrote:\n${out}`);
    });
    expect(processesMarked(marker).length).toBeGreaterThan(1);

    try {
      child.kill('SIGTERM');
      await until(async () => processesMarked(marker).length === 0, 20_000, 'every process of `pnpm worker` to end');
      // The worker itself was told, and stopped its workers: not left running, nor killed outright.
      expect(out).toContain('stopping the job workers');
    } finally {
      for (const pid of processesMarked(marker)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});

describe('batch runs across processes', () => {
  it('survive killing the worker process mid-run: a new process finishes the run and no row is done twice', async () => {
    const ids = (await Promise.all(Array.from({ length: 40 }, () => createContract(t.db)))).map((c) => c.id);
    const first = await startProcess();
    const runId = await startRun(ids);
    await until(async () => (await rowsDone(runId)) >= 5, 30_000, 'the first rows');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const doneWhenKilled = await rowsDone(runId);
    expect(doneWhenKilled).toBeLessThan(ids.length);

    const second = await startProcess();
    await until(() => finished(runId), 60_000, 'the run to finish');
    second.kill('SIGTERM');
    expect(await rowsDone(runId)).toBe(ids.length);
    await expectEachDoneOnce(ids);
  }, 120_000);

  it('SIGTERM mid-run: the row at work is finished, the process exits 0 at once, and the next start goes on with the rest', async () => {
    const ids = (await Promise.all(Array.from({ length: 30 }, () => createContract(t.db)))).map((c) => c.id);
    // A long pause between rows and a grace period that would cover many of them; no sweeper to rescue the run.
    const slow = { BATCH_ROW_PAUSE_MS: '1000', SHUTDOWN_GRACE_MS: '20000', BATCH_STALE_SECONDS: '3600' };
    const first = await startProcess(slow);
    const runId = await startRun(ids);
    await until(async () => (await rowsDone(runId)) >= 2, 30_000, 'the first rows');
    const stoppedAt = Date.now();
    first.kill('SIGTERM');
    const code = await new Promise((r) => first.once('exit', r));
    expect(code).toBe(0);
    // It went on row after row for the whole grace period, then was cut off and exited 1.
    expect(Date.now() - stoppedAt).toBeLessThan(8_000);
    const doneWhenStopped = await rowsDone(runId);
    expect(doneWhenStopped).toBeLessThan(6);

    // The run handed itself on: the next process takes it up from the queue, not after a stale heartbeat.
    const second = await startProcess({ BATCH_STALE_SECONDS: '3600' });
    await until(() => finished(runId), 60_000, 'the run to finish');
    second.kill('SIGTERM');
    expect(await rowsDone(runId)).toBe(ids.length);
    await expectEachDoneOnce(ids);
  }, 120_000);

  it('two processes on one database share one run without doing a row twice', async () => {
    const ids = (await Promise.all(Array.from({ length: 40 }, () => createContract(t.db)))).map((c) => c.id);
    const processes = await Promise.all([startProcess(), startProcess()]);
    const runId = await startRun(ids);
    await until(() => finished(runId), 60_000, 'the run to finish');
    for (const p of processes) p.kill('SIGTERM');
    await expectEachDoneOnce(ids);
    const workers = await t.db.selectDistinct({ worker: batchRunRows.worker }).from(batchRunRows).where(eq(batchRunRows.run_id, runId));
    expect(workers.map((w) => w.worker).filter(Boolean)).toHaveLength(2);
  }, 120_000);
});
