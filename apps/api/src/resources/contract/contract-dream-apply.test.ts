import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { ROLES, type BatchRun, type RoleName } from '@app/contracts';
import { contracts, dreamApplySettings, logEvents, students } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';

const t = await setupTestApp({ DREAM_APPLY_TIMEOUT_MS: '300' });
await startTestWorkers(t);

const KEY = 'secret-dream-key-123';

/**
 * A small DreamApply: the v5 JSON the SDK reads (collections keyed by id, links as URLs, `DREAM apikey="…"`),
 * and a failure mode the test picks for the next requests.
 */
type Mode = 'ok' | '401' | '429' | '500' | 'timeout' | 'malformed' | 'fail-applicant';
let mode: Mode = 'ok';
const seen: { path: string; auth: string | undefined }[] = [];
const applications: Record<string, unknown> = {
  '101': { id: 101, created: '2021-02-01 10:00:00', revised: '2021-03-01 10:00:00', status: 'Submitted', applicant: '/api/applicants/501' },
  '102': { id: 102, created: '2021-02-02 10:00:00', revised: '2021-03-02 10:00:00', status: 'Submitted', applicant: '/api/applicants/502' },
  '103': { id: 103, created: '2021-02-03 10:00:00', revised: '2021-03-03 10:00:00', status: 'Submitted', applicant: '/api/applicants/503' },
};
const offers: Record<string, Record<string, unknown>> = {
  '101': { '9001': { id: 9001, type: '/api/applications/offers/types/1' } },
  '102': { '9002': { id: 9002, type: { title: 'Rejected by sending' } } },
  '103': { '9003': { id: 9003, type: '/api/applications/offers/types/2' } },
};
const types: Record<string, unknown> = { '1': { title: 'Accepted' }, '2': { title: 'Conditionally accepted' } };
const applicants: Record<string, unknown> = {
  '501': { id: 501, email: 'dream.one@example.org', phone: '+49 1', citizenship: 'DE', name: { given: 'Zoë', family: 'Dreamer' } },
  '502': { id: 502, email: 'dream.two@example.org', phone: null, citizenship: 'DE', name: { given: 'Not', family: 'Accepted' } },
  '503': { id: 503, email: 'dream.three@example.org', phone: '+49 3', citizenship: 'DE', name: { given: 'Ağça', family: 'Newcomer' } },
};

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ path: `${url.pathname}${url.search}`, auth: req.headers.authorization });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  if (req.headers.authorization !== `DREAM apikey="${KEY}"` || mode === '401') return json(401, { error: 'unauthorized' });
  if (mode === '429') return json(429, { error: 'slow down' }, { 'Retry-After': '17' });
  if (mode === '500') return json(500, { error: 'boom' });
  if (mode === 'timeout') return void setTimeout(() => json(200, {}), 2000);
  if (mode === 'malformed') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    return void res.end('{"101": {"id": 101,');
  }
  let m: RegExpExecArray | null;
  if (url.pathname === '/api/applications') return json(200, url.searchParams.get('byCommenceYear') === '2021' ? applications : {});
  if ((m = /^\/api\/applications\/(\d+)\/offers$/.exec(url.pathname))) return json(200, offers[m[1]!] ?? {});
  if ((m = /^\/api\/applications\/offers\/types\/(\d+)$/.exec(url.pathname))) return json(200, types[m[1]!]);
  if ((m = /^\/api\/applicants\/(\d+)$/.exec(url.pathname))) {
    if (mode === 'fail-applicant' && m[1] === '503') return json(500, { error: 'boom' });
    return json(200, applicants[m[1]!]);
  }
  return json(404, { error: 'not found' });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;

const tokens = {} as Record<RoleName, string>;
let existing: Awaited<ReturnType<typeof createContract>>;
beforeAll(async () => {
  for (const { name } of ROLES) tokens[name] = (await userWithToken(t.app, t.db, name)).token;
  const student = await createStudent(t.db, { first_name: 'Zoe', last_name: 'Dreamer', email_address: 'old.address@example.org' });
  existing = await createContract(t.db, { student_id: student.id, application_id: '101' });
});

const api = (method: 'get' | 'post' | 'put', path: string, token = tokens.User) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

async function configure(body: Record<string, unknown> = { base_url: base, api_key: KEY }) {
  const res = await api('put', '/config/dream_apply', tokens.Developer).send(body);
  expect(res.status, res.text).toBe(200);
  return res;
}

const contractCount = async () => (await t.db.select().from(contracts)).length;

describe('DreamApply settings', () => {
  it('are Developer only; the key is write-only and an empty key keeps the stored one', async () => {
    for (const role of ['Administrator', 'User', 'Reader'] as const) {
      expect((await api('get', '/config/dream_apply', tokens[role])).status, role).toBe(403);
      expect((await api('put', '/config/dream_apply', tokens[role]).send({ base_url: base, api_key: KEY })).status, role).toBe(403);
    }
    const saved = await configure();
    expect(saved.body).toEqual({ base_url: base, api_key_set: true, edit_timestamp: expect.any(String) });
    expect(saved.text).not.toContain(KEY);
    const again = await configure({ base_url: base, api_key: '' });
    expect(again.body.api_key_set).toBe(true);
    const read = await api('get', '/config/dream_apply', tokens.Developer);
    expect(read.text).not.toContain(KEY);
    const bad = await api('put', '/config/dream_apply', tokens.Developer).send({ base_url: 'ftp://x', api_key: KEY });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('base_url');
    const events = await t.db.select().from(logEvents).where(like(logEvents.le_message, 'DreamApply settings changed%'));
    for (const e of events) expect(JSON.stringify(e)).not.toContain(KEY);
  });
});

describe('import_dream_apply', () => {
  beforeAll(() => configure());

  it('previews the applications with an accepted offer with the default year 2021; confirmed, it updates the known contract and refuses the new one naming what DreamApply lacks', async () => {
    mode = 'ok';
    seen.length = 0;
    const res = await api('post', '/contracts/import_dream_apply').send({});
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ filename: 'DreamApply 2021', run_id: expect.any(Number) });
    expect(seen[0]).toEqual({ path: '/api/applications?byCommenceYear=2021', auth: `DREAM apikey="${KEY}"` });
    const preview: BatchRun = await waitForRun(t, tokens.User, res.body.run_id as number);
    expect(preview.rows.map((r) => r.reference)).toEqual(['DreamApply application 101', 'DreamApply application 103']);
    expect(preview.rows[0]!.message).toBe('Will update contract: DreamApply application, Offer; student: First Name, E-mail, Phone');
    expect(preview.rows[1]!.status).toBe('failed');
    expect(preview.rows[1]!.message).toMatch(/^Error for DreamApply application 103: /);
    expect(preview.rows[1]!.message).toContain('Program: ');
    expect(preview.rows[1]!.message).toContain('Birth Date: ');

    const confirmed = await api('post', `/batch_runs/${preview.id}/confirm`);
    expect(confirmed.status).toBe(202);
    const done = await waitForRun(t, tokens.User, confirmed.body.run_id as number);
    expect(done.rows[0]!.message).toBe('Updated contract: DreamApply application, Offer; student: First Name, E-mail, Phone');
    const [c] = await t.db.select().from(contracts).where(eq(contracts.id, existing.id));
    expect(c).toMatchObject({ da_application_id: '101', da_offer_type_displayname: 'Accepted' });
    const [s] = await t.db.select().from(students).where(eq(students.id, existing.student_id));
    expect(s).toMatchObject({ first_name: 'Zoë', email_address: 'dream.one@example.org', phone: '+49 1' });

    // Again: nothing new.
    const second = await api('post', '/contracts/import_dream_apply').send({ academic_year: 2021, updates_in_last_days: 0 });
    const run = await waitForRun(t, tokens.User, second.body.run_id as number);
    expect(run.rows[0]!.message).toBe('Nothing to change');
  });

  it('updates_in_last_days leaves out applications revised before then', async () => {
    mode = 'ok';
    const res = await api('post', '/contracts/import_dream_apply').send({ academic_year: 2021, updates_in_last_days: 3 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('DreamApply has no application with an accepted offer for 2021 updated in the last 3 days');
  });

  it('refuses bad input naming the field, and a Reader', async () => {
    const bad = await api('post', '/contracts/import_dream_apply').send({ academic_year: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('academic_year');
    const unknown = await api('post', '/contracts/import_dream_apply').send({ year: 2021 });
    expect(unknown.status).toBe(400);
    expect((await api('post', '/contracts/import_dream_apply', tokens.Reader).send({})).status).toBe(403);
  });

  const failures: [Mode, number, string][] = [
    ['401', 409, 'DreamApply: the API key was refused (401): check it in the configuration'],
    ['429', 429, 'DreamApply: too many requests; try again in 17 seconds'],
    ['500', 503, 'DreamApply: answered 500 for /api/applications'],
    ['timeout', 503, 'DreamApply: no answer within 300 ms'],
    ['malformed', 503, 'DreamApply: answered something that is not JSON for /api/applications'],
    ['fail-applicant', 503, 'DreamApply: answered 500 for /api/applicants/503'],
  ];
  for (const [failure, status, message] of failures) {
    it(`${failure}: a clear error, no run started and nothing imported`, async () => {
      mode = failure;
      const before = await contractCount();
      const runsBefore = await t.db.select().from(logEvents).where(like(logEvents.le_message, 'Batch "Import DreamApply"%'));
      const res = await api('post', '/contracts/import_dream_apply').send({});
      expect(res.status, res.text).toBe(status);
      expect(res.body.message).toBe(message);
      expect(res.text).not.toContain(KEY);
      expect(await contractCount()).toBe(before);
      expect(await t.db.select().from(logEvents).where(like(logEvents.le_message, 'Batch "Import DreamApply"%'))).toHaveLength(runsBefore.length);
      mode = 'ok';
      expect((await api('get', '/contracts')).status).toBe(200);
    });
  }

  it('without settings it says so', async () => {
    await t.db.update(dreamApplySettings).set({ base_url: '' });
    const res = await api('post', '/contracts/import_dream_apply').send({});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^DreamApply is not configured/);
    await configure();
  });
});
