import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { batchRunRows, batchRuns, outbox } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, userWithToken } from '../../test/factories.js';
import { startTestSmtp } from '../../test/smtp.js';
import { startTestWorkers } from '../../test/workers.js';
import { queueMail } from '../mail/outbox.js';

/**
 * Decision 062: a big batch run shares the job workers. Each row pauses 40 ms, so a run of 60 rows keeps a job
 * busy for seconds; a job hands its run on after 150 ms (BATCH_SLICE_MS).
 */
const t = await setupTestApp({ BATCH_ROW_PAUSE_MS: '40', BATCH_SLICE_MS: '150', WORKER_CONCURRENCY: '2', MAIL_RETRY_BASE_MS: '50' });
const smtp = await startTestSmtp();
await startTestWorkers(t);
let user: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  const dev = await userWithToken(t.app, t.db, 'Developer');
  const res = await t
    .http()
    .put('/api/v1.0/config/email/')
    .set('Authorization', `Bearer ${dev.token}`)
    .send({ smtp_servername: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_email_address: 'office@example.org' });
  expect(res.status, res.text).toBe(200);
});

const contractIds = async (n: number) => (await Promise.all(Array.from({ length: n }, () => createContract(t.db)))).map((c) => c.id);

async function startMarkSent(ids: number[], dryRun = false): Promise<number> {
  const res = await t.http().post('/api/v1.0/contracts/batch/mark_sent').set('Authorization', `Bearer ${user.token}`).send({ ids, ...(dryRun ? { dry_run: true } : {}) });
  expect(res.status, res.text).toBe(202);
  return res.body.run_id as number;
}

const rowsWorked = async (runId: number) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(batchRunRows).where(and(eq(batchRunRows.run_id, runId), sql`${batchRunRows.status} <> 'pending'`)))[0]!.n;
const statusOf = async (runId: number) => (await t.db.select({ s: batchRuns.status }).from(batchRuns).where(eq(batchRuns.id, runId)))[0]!.s;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a big batch run shares the job workers (decision 062)', () => {
  it('a one-row run started while a big run fills every batch slot is done long before the big run ends', async () => {
    const big = await startMarkSent(await contractIds(60));
    await until(async () => (await rowsWorked(big)) >= 4, 'the big run to be at work');
    const small = await startMarkSent(await contractIds(1));
    await until(async () => (await statusOf(small)) === 'finished', 'the one-row run');
    // Before the slices, the one-row run waited for both jobs of the big run to end: all 60 rows.
    expect(await statusOf(big)).not.toBe('finished');
    expect(await rowsWorked(big)).toBeLessThan(50);
    await until(async () => (await statusOf(big)) === 'finished', 'the big run');
    expect(await rowsWorked(big)).toBe(60);
  }, 60_000);

  it('a mail queued while two previews fill every batch slot is delivered before either ends', async () => {
    // A preview is never cut into slices (what its earlier rows did is remembered in its process), so two of them
    // hold both batch slots until they end; mail has slots of its own.
    const previews = [await startMarkSent(await contractIds(50), true), await startMarkSent(await contractIds(50), true)];
    await until(async () => (await rowsWorked(previews[0]!)) >= 2 && (await rowsWorked(previews[1]!)) >= 2, 'both previews to be at work');
    const mailId = await t.db.transaction((tx) => queueMail(tx, null, { to: 'student@example.org', subject: 'While the previews run', text: 'Hello' }));
    await until(async () => (await t.db.select({ s: outbox.status }).from(outbox).where(eq(outbox.id, mailId)))[0]!.s === 'sent', 'the mail to be sent');
    for (const run of previews) expect(await statusOf(run)).not.toBe('finished');
    expect(smtp.received.map((m) => m.subject)).toContain('While the previews run');
  }, 60_000);
});
