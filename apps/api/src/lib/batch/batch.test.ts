import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, inArray, like } from 'drizzle-orm';
import { EVENT_TYPE_IDS } from '@app/contracts';
import { batchRuns, contracts, logEvents } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, userWithToken } from '../../test/factories.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';

const t = await setupTestApp();
await startTestWorkers(t);

let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const api = (method: 'get' | 'post' | 'put', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const statusOf = async (id: number) => (await t.db.select({ s: contracts.contract_status_id }).from(contracts).where(eq(contracts.id, id)))[0]!.s;
const statusEvents = (ids: number[]) =>
  t.db.select().from(logEvents).where(and(inArray(logEvents.contract_id, ids), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.statusChange)));

/** Three enrolled contracts and one graduated: "Take a break" works for the first three, not the last. */
async function selection() {
  const ok = [await createContract(t.db, { contract_status_id: 3 }), await createContract(t.db, { contract_status_id: 3 })];
  const refused = await createContract(t.db, { contract_status_id: 5 });
  return { ok, refused, ids: [ok[0]!.id, refused.id, ok[1]!.id] };
}

async function start(path: string, body: object, token = user.token) {
  const res = await api('post', path, token).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.run_id as number;
}

describe('an action on one record', () => {
  it('is refused by role with 403, by state with 409 and its reason, by bad input with 400 naming the field', async () => {
    const c = await createContract(t.db, { contract_status_id: 5 });
    expect((await api('put', `/contracts/${c.id}/update_status`, reader.token).send({ contract_status_id: 6 })).status).toBe(403);
    const state = await api('post', `/contracts/${c.id}/update_status`).send({ contract_status_id: 4 });
    expect(state.status).toBe(409);
    expect(state.body.message).toBe('A contract with status "Graduated" cannot change to "On a break"');
    const bad = await api('post', `/contracts/${c.id}/update_status`).send({ contract_status_id: 9 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ contract_status_id: ['contract_status_id must be 1 to 6'] });
    const unknown = await api('post', `/contracts/${c.id}/update_status`).send({ contract_status_id: 6, note: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty('note');
    expect(await statusOf(c.id)).toBe(5);
  });

  it('answers the changed record on the derived path and on the path the spec names', async () => {
    const c = await createContract(t.db, { contract_status_id: 3 });
    const derived = await api('post', `/contracts/${c.id}/update_status`).send({ contract_status_id: 4 });
    expect(derived.status).toBe(200);
    expect(derived.body).toMatchObject({ id: c.id, contract_status_id: 4, contract_status_name: 'On a break' });
    const named = await api('put', `/contracts/${c.id}/update_status`).send({ contract_status_id: 3 });
    expect(named.body).toMatchObject({ contract_status_id: 3 });
    expect((await statusEvents([c.id])).map((e) => e.le_message)).toEqual([
      `Change status: Contract "${c.application_number}" — Enrolled → On a break`,
      `Change status: Contract "${c.application_number}" — On a break → Enrolled`,
    ]);
  });

  it('refuses a stale If-Match instead of acting on a record changed since it was read', async () => {
    const c = await createContract(t.db, { contract_status_id: 3 });
    await api('put', `/contracts/${c.id}`).set('If-Match', c.edit_timestamp.toISOString()).send({ id: c.id, comments: 'changed' }).expect(200);
    const res = await api('post', `/contracts/${c.id}/update_status`).set('If-Match', c.edit_timestamp.toISOString()).send({ contract_status_id: 4 });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/was changed by .* after you opened it/);
    expect(await statusOf(c.id)).toBe(3);
  });
});

describe('a batch run', () => {
  it('does each row in its own transaction: 2 ok and 1 "Error for …" line, and the run goes on', async () => {
    const { ok, refused, ids } = await selection();
    const runId = await start('/contracts/batch/update_status', { ids, contract_status_id: 4 });
    const run = await waitForRun(t, user.token, runId);
    expect(run).toMatchObject({ status: 'finished', total: 3, done: 3, failed: 1, dry_run: false, label: 'Change status', resource: 'contract', action: 'update_status' });
    expect(run.rows.map((r) => r.id)).toEqual(ids);
    expect(run.rows.filter((r) => r.ok).map((r) => r.message)).toEqual(['Enrolled → On a break', 'Enrolled → On a break']);
    expect(run.rows[1]).toMatchObject({ ok: false, message: `Error for ${refused.application_number}: A contract with status "Graduated" cannot change to "On a break"` });
    expect(await statusOf(ok[0]!.id)).toBe(4);
    expect(await statusOf(ok[1]!.id)).toBe(4);
    expect(await statusOf(refused.id)).toBe(5);
    const runEvents = await t.db.select().from(logEvents).where(like(logEvents.le_message, `%(run ${runId})%`));
    expect(runEvents.map((e) => e.le_message)).toEqual([
      `Batch "Change status" started on 3 Contracts (run ${runId})`,
      `Batch "Change status" finished (run ${runId}): 2 ok, 1 failed`,
    ]);
  });

  it('a dry run answers what each row would do and changes nothing', async () => {
    const { ok, refused, ids } = await selection();
    const runId = await start('/contracts/batch/update_status', { ids, contract_status_id: 4, dry_run: true });
    const run = await waitForRun(t, user.token, runId);
    expect(run).toMatchObject({ dry_run: true, done: 3, failed: 1 });
    expect(run.rows.map((r) => r.ok)).toEqual([true, false, true]);
    for (const c of [...ok, refused]) expect(await statusOf(c.id)).toBe(c.contract_status_id);
    expect(await statusEvents(ids)).toHaveLength(0);
    const [row] = await t.db.select().from(contracts).where(eq(contracts.id, ok[0]!.id));
    expect(row!.edit_timestamp).toEqual(ok[0]!.edit_timestamp);
  });

  it('answers only its refused rows when asked (rows=failed), with the counts of all of them', async () => {
    const { refused, ids } = await selection();
    const runId = await start('/contracts/batch/update_status', { ids, contract_status_id: 4, dry_run: true });
    const all = await waitForRun(t, user.token, runId);
    const brief = await api('get', `/batch_runs/${runId}?rows=failed`);
    expect(brief.status).toBe(200);
    const { rows, ...counts } = brief.body;
    expect(counts).toEqual((({ rows: _rows, ...rest }) => rest)(all));
    expect(counts).toMatchObject({ total: 3, done: 3, failed: 1 });
    expect(rows).toEqual([all.rows[1]]);
    expect(rows[0]).toMatchObject({ id: refused.id, status: 'failed' });
    expect((await api('get', `/batch_runs/${runId}?rows=all`)).body).toEqual(all);
    const bad = await api('get', `/batch_runs/${runId}?rows=some`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ rows: ['rows must be all or failed'] });
    expect((await api('get', `/batch_runs/${runId}?row=failed`)).body.errors).toEqual({ row: ['row is not a known field'] });
  });

  it('a confirmed preview does the rows the preview found fine', async () => {
    const { ok, refused, ids } = await selection();
    const preview = await waitForRun(t, user.token, await start('/contracts/batch/update_status', { ids, contract_status_id: 6, dry_run: true }));
    expect(preview.failed).toBe(0);
    await createContract(t.db);
    const confirmed = await api('post', `/batch_runs/${preview.id}/confirm`).send({});
    expect(confirmed.status).toBe(202);
    const run = await waitForRun(t, user.token, confirmed.body.run_id);
    expect(run).toMatchObject({ dry_run: false, source_run_id: preview.id, total: 3, done: 3, failed: 0 });
    for (const c of [...ok, refused]) expect(await statusOf(c.id)).toBe(6);
    expect((await api('post', `/batch_runs/${run.id}/confirm`).send({})).status).toBe(409);
  });

  it('a preview is confirmed once: three confirms at once start one run, the others are told which run does it', async () => {
    const { ids } = await selection();
    const preview = await waitForRun(t, user.token, await start('/contracts/batch/update_status', { ids, contract_status_id: 6, dry_run: true }));
    const answers = await Promise.all([1, 2, 3].map(() => api('post', `/batch_runs/${preview.id}/confirm`).send({})));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    const runId = answers.find((a) => a.status === 202)!.body.run_id as number;
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.message).toBe(`This preview was already confirmed: batch run ${runId} does it`);
    await waitForRun(t, user.token, runId);
    expect(await t.db.select({ id: batchRuns.id }).from(batchRuns).where(eq(batchRuns.source_run_id, preview.id))).toEqual([{ id: runId }]);
    expect((await api('post', `/batch_runs/${preview.id}/confirm`).send({})).status).toBe(409);
    // Each row changed once: one status event per contract.
    expect(await statusEvents(ids)).toHaveLength(ids.length);
  });

  it("is listed among its user's own runs, newest first with its counts, and not among another user's", async () => {
    const { ids } = await selection();
    const older = await start('/contracts/batch/update_status', { ids, contract_status_id: 4, dry_run: true });
    await waitForRun(t, user.token, older);
    const newer = await start('/contracts/batch/update_status', { ids, contract_status_id: 4 });
    await waitForRun(t, user.token, newer);
    const other = await userWithToken(t.app, t.db, 'User');
    const theirs = await start('/contracts/batch/update_status', { ids: [ids[0]!], contract_status_id: 3 }, other.token);
    await waitForRun(t, other.token, theirs);

    const mine = await api('get', '/batch_runs');
    expect(mine.status).toBe(200);
    const listed = mine.body.data as { id: number }[];
    expect(listed.map((r) => r.id)).not.toContain(theirs);
    expect(listed.slice(0, 2)).toEqual([
      expect.objectContaining({ id: newer, label: 'Change status', dry_run: false, status: 'finished', total: 3, done: 3, failed: 1 }),
      expect.objectContaining({ id: older, dry_run: true, status: 'finished', total: 3, done: 3, failed: 1 }),
    ]);
    expect((await api('get', '/batch_runs', other.token)).body.data.map((r: { id: number }) => r.id)).toEqual([theirs]);
    expect((await api('get', '/batch_runs?page=2')).status).toBe(400);
  });

  it('retry_failed leaves a row refused for its state (a 409: it would be refused again) and starts nothing, saying why', async () => {
    const { ok, refused, ids } = await selection();
    const runId = await start('/contracts/batch/update_status', { ids, contract_status_id: 4 });
    const finished = await waitForRun(t, user.token, runId);
    expect(finished).toMatchObject({ status: 'finished', failed: 1, retryable: 0 });
    const retried = await api('post', `/batch_runs/${runId}/retry_failed`).send({});
    expect(retried.status).toBe(409);
    expect(retried.body.message).toBe("The failed row cannot be retried: it was refused for its data or its record's state, and would be refused again. Correct it and start again");
    expect((await api('get', `/batch_runs/${runId}`)).body).toEqual(finished);
    expect(await statusOf(refused.id)).toBe(5);
    const events = await statusEvents(ids);
    for (const c of ok) expect(events.filter((e) => e.contract_id === c.id), `events of ${c.id}`).toHaveLength(1);
    expect(events.filter((e) => e.contract_id === refused.id)).toHaveLength(0);
    const none = await start('/contracts/batch/update_status', { ids: [ok[0]!.id], contract_status_id: 3 });
    await waitForRun(t, user.token, none);
    expect((await api('post', `/batch_runs/${none}/retry_failed`).send({})).body.message).toBe('This batch run has no failed rows');
  });

  it('answers its result as an xlsx file that reads back row by row', async () => {
    const { refused, ids } = await selection();
    const runId = await start('/contracts/batch/update_status', { ids, contract_status_id: 4 });
    await waitForRun(t, user.token, runId);
    const res = await api('get', `/batch_runs/${runId}/result`).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`Batch_${runId}_Change_status.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1, 5);
    expect(values(1)).toEqual(['Row', 'Reference', 'Result', 'Message']);
    expect(values(3)).toEqual([2, refused.application_number, 'Error', `Error for ${refused.application_number}: A contract with status "Graduated" cannot change to "On a break"`]);
    expect(sheet.rowCount).toBe(4);
  });

  it('can be cancelled: rows not yet done are left undone, the row at work finishes', async () => {
    const many = await Promise.all(Array.from({ length: 200 }, () => createContract(t.db)));
    const runId = await start('/contracts/batch/mark_sent', { ids: many.map((c) => c.id) });
    for (;;) {
      const progress = (await api('get', `/batch_runs/${runId}`)).body;
      if (progress.done > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const cancelled = await api('post', `/batch_runs/${runId}/cancel`).send({});
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 200)).toBe(200);
    const run = await waitForRun(t, user.token, runId);
    expect(run.status).toBe('cancelled');
    const undone = run.rows.filter((r) => r.status === 'cancelled');
    expect(undone.length).toBeGreaterThan(0);
    expect(run.done + undone.length).toBe(200);
    // "Contract sent on DD-MM-YYYY": the day the rows done were marked sent.
    const [day, month, year] = run.rows.find((r) => r.ok)!.message!.slice(-10).split('-');
    const sent = await t.db.select({ id: contracts.id }).from(contracts).where(and(inArray(contracts.id, many.map((c) => c.id)), eq(contracts.contract_sent_date, `${year}-${month}-${day}`)));
    expect(sent.map((s) => s.id).sort()).toEqual(run.rows.filter((r) => r.ok).map((r) => r.id).sort());
    expect((await api('post', `/batch_runs/${runId}/cancel`).send({})).status).toBe(409);
  });

  it('validates its input once, naming the field, and refuses callers below the action level', async () => {
    const c = await createContract(t.db);
    const noIds = await api('post', '/contracts/batch/mark_sent').send({});
    expect(noIds.status).toBe(400);
    expect(noIds.body.errors).toHaveProperty('ids');
    const badInput = await api('post', '/contracts/batch/update_status').send({ ids: [c.id], contract_status_id: 'x' });
    expect(badInput.status).toBe(400);
    expect(badInput.body.errors).toHaveProperty('contract_status_id');
    const tooMany = await api('post', '/contracts/batch/mark_sent').send({ ids: Array.from({ length: 2001 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect((await api('post', '/contracts/batch/mark_sent', reader.token).send({ ids: [c.id] })).status).toBe(403);
    expect((await api('post', '/contracts/batch/nope').send({ ids: [c.id] })).status).toBe(404);
  });

  it('is seen by the user who started it and by administrators, not by other users', async () => {
    const c = await createContract(t.db);
    const runId = await start('/contracts/batch/mark_sent', { ids: [c.id] });
    await waitForRun(t, user.token, runId);
    const other = await userWithToken(t.app, t.db, 'User');
    expect((await api('get', `/batch_runs/${runId}`, other.token)).status).toBe(404);
    expect((await api('post', `/batch_runs/${runId}/retry_failed`, other.token).send({})).status).toBe(404);
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    expect((await api('get', `/batch_runs/${runId}`, admin.token)).body).toMatchObject({ id: runId, created_user: 'Test User' });
  });
});
