// `pnpm bench:batches`: the office's big batch runs (DESIGN §10) timed at scale, with what staff feel meanwhile.
//
// Needs DATABASE_URL: a database of its own (`createdb batchbench`), since every run adds thousands of contracts,
// numbered invoices, mails and payments to it. Migrates it, seeds BENCH_BACKGROUND (20000) scale students when it
// holds fewer (`seedScale`, as `pnpm db:seed --scale N`: the lists have a realistic size), then starts the app in
// this process as `pnpm start` does (createApp on 127.0.0.1 and a free port, its own job workers,
// WORKER_CONCURRENCY as configured) and an SMTP server of its own (the `smtp-server` package, accepting
// everything) that the Email settings point at while it runs (they are put back afterwards). Logs in as a
// Developer of its own through `POST /auth/login` and works only through the HTTP API, as the web does:
//   0. a fresh intake: its student fee (monthly allowance BENCH_ALLOWANCE, 850; 0 plans none) and two
//      milestones, a program and a university; BENCH_CONTRACTS (2000)
//      students with bank data and their contracts (`POST /students`, `POST /contracts`, four at a time);
//   a. Plan invoices of those contracts (`POST /contracts/batch/plan_invoices`, preview, confirmed);
//   b. Create Invoice (number, PDF rendered and stored) of BENCH_INVOICES (2000) of the invoices (a) planned, the
//      earliest due first, preview then confirmed; meanwhile page 1 of the numbered invoices and of the contracts
//      is asked every 200 ms, and before it for BENCH_BASELINE_SECONDS (10) on a quiet server; 3 s into the
//      confirmed run someone else sends one invoice e-mail and starts a one-row batch, each timed until done.
//      Afterwards the numbers of the year are checked for gaps and duplicates, and against the preview's;
//   c. Send Email of the invoices (b) numbered (preview, confirmed), timed until the outbox delivered them all;
//   d. Plan scholarship payments of the contracts (preview, confirmed); Schedule Payments of BENCH_PAYMENTS (2000)
//      planned ones, the earliest first (`POST /scholarship_payments/create_payments`, preview, confirmed); the
//      export of all of them at once (its summary, Payments.xlsx, then the SEPA file of that export).
// A batch is started on at most MAX_BATCH_ROWS (2000) rows, as the web allows: more rows are started in parts,
// one after another. Each run is followed as the web's batch dialog does (`GET /batch_runs/{id}?rows=failed` every
// 400 ms, the whole run once it is over); a run that does no row for BENCH_STALL_SECONDS (120) is cancelled and
// reported. Resident memory of this process (server, workers and the bench's own client) is sampled every 50 ms.
// Prints one table; docs/performance.md keeps the figures. Exit 1 when a run failed rows or a number check failed.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/batchbench pnpm bench:batches
//   BENCH_CONTRACTS=500 BENCH_INVOICES=500 BENCH_PAYMENTS=500 DATABASE_URL=… pnpm bench:batches   # a quick run
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { eq } from 'drizzle-orm';
import type { DestinationStream } from 'pino';
import { MAX_BATCH_ROWS, ROLE_IDS, SHOWN_USER_HEADER, todayIn, type BatchRun } from '@app/contracts';
import { connect, countries, emailSettings, scholarships, seedScale, users } from '@app/db';
import { createApp } from '../src/app.js';
import { loadEnv } from '../src/env.js';
import { hashPassword } from '../src/lib/auth/password.js';
import type { AppContext } from '../src/lib/context.js';
import { openDatabase } from '../src/lib/database.js';
import { installQueue } from '../src/lib/jobs/queue.js';
import { startWorkers } from '../src/lib/jobs/worker.js';
import { createLogger } from '../src/lib/logger.js';
import { modulesByKey, resourceModules } from '../src/resources/index.js';
import { seedBase } from '../src/seed.js';
import { startAcceptingSmtp } from './accepting-smtp.js';

function whole(name: string, fallback: number, min = 1): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return value;
}
const CONTRACTS = whole('BENCH_CONTRACTS', 2000);
const INVOICES = whole('BENCH_INVOICES', 2000);
const PAYMENTS = whole('BENCH_PAYMENTS', 2000);
const BACKGROUND = whole('BENCH_BACKGROUND', 20_000, 0);
const STALL_SECONDS = whole('BENCH_STALL_SECONDS', 120);
const BASELINE_SECONDS = whole('BENCH_BASELINE_SECONDS', 10);
/** The student fee's monthly allowance: 0 plans no allowances (each contract then plans 2 milestones and 2 university fees). */
const ALLOWANCE = Number(process.env.BENCH_ALLOWANCE ?? 850);
const API = '/api/v1.0';
/** As the web's batch dialog (apps/web/src/machinery/batch/batch-dialog.tsx, BATCH_POLL_MS). */
const POLL_MS = 400;
const PROBE_EVERY_MS = 200;

if (!process.env.DATABASE_URL) {
  console.error('bench:batches needs DATABASE_URL: a database of its own (it adds thousands of numbered documents), e.g.\n  createdb -h 127.0.0.1 -U postgres batchbench\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/batchbench pnpm bench:batches');
  process.exit(2);
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} kB`);
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perSecond = (n: number, ms: number) => (ms > 0 ? (n / (ms / 1000)).toFixed(n / (ms / 1000) >= 100 ? 0 : 1) : '–');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: readonly number[], q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN;
function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** What the bench started, stopped in reverse order at the end or when it fails half-way. */
const toStop: (() => Promise<unknown>)[] = [];
async function stopAll(): Promise<void> {
  for (const stop of toStop.reverse()) await stop().catch((err: unknown) => console.error('while stopping:', err));
  toStop.length = 0;
}
async function fail(err: unknown): Promise<never> {
  console.error('bench failed:', err);
  await stopAll();
  process.exit(1);
}
process.on('uncaughtException', (err) => void fail(err));
process.on('unhandledRejection', (err) => void fail(err));

// ---------------------------------------------------------------------------------------------------------
// Resident memory of this process, sampled every 50 ms; each phase keeps its own peak

const phases = new Set<{ peak: number }>();
const sampler = setInterval(() => {
  const rss = process.memoryUsage().rss;
  for (const p of phases) p.peak = Math.max(p.peak, rss);
}, 50);
sampler.unref();
function memoryPhase(): { before: number; end: () => { before: number; peak: number; after: number } } {
  const phase = { peak: process.memoryUsage().rss };
  const before = phase.peak;
  phases.add(phase);
  return {
    before,
    end() {
      phases.delete(phase);
      const after = process.memoryUsage().rss;
      return { before, peak: Math.max(phase.peak, after), after };
    },
  };
}
const memoryText = (m: { before: number; peak: number; after: number }) => `${mb(m.before)} → peak ${mb(m.peak)}, ${mb(m.after)} after`;

// ---------------------------------------------------------------------------------------------------------
// The server's own log: warnings and errors counted, the first few kept for the report

const logged = { warn: 0, error: 0, first: [] as string[] };
const logStream: DestinationStream = {
  write(line: string) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      const level = entry.level ?? 0;
      if (level >= 50) logged.error++;
      else if (level >= 40) logged.warn++;
      if (level >= 40 && logged.first.length < 8) logged.first.push(`${level >= 50 ? 'error' : 'warn'}: ${entry.msg ?? ''}${entry.err?.message ? ` (${entry.err.message.split('\n')[0]})` : ''}`);
    } catch {
      // not a JSON line: ignored
    }
  },
};

// ---------------------------------------------------------------------------------------------------------
// The database, the app with its workers, the SMTP server

const loadAtStart = os.loadavg();
const benchStarted = new Date();
const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  WORKERS: '1',
  // A temporary SMTP failure is tried again a second later, not a minute: the bench waits for every mail.
  MAIL_RETRY_BASE_MS: process.env.MAIL_RETRY_BASE_MS ?? '1000',
  JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString('base64url'),
  WEB_DIST: '/nonexistent',
});
const logger = createLogger(env, logStream);
const database = await openDatabase(env, logger);
const handle = connect(database.url, { statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS, connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS });
toStop.push(() => handle.close());
const q = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await handle.pool.query<T>(text, values)).rows;

await seedBase(handle.db, { adminUsername: env.ADMIN_USERNAME, adminPassword: env.ADMIN_PASSWORD });
const studentsNow = (await q<{ n: number }>('select count(*)::int as n from students'))[0]!.n;
if (studentsNow < BACKGROUND) {
  const started = performance.now();
  console.log(`seeding ${BACKGROUND - studentsNow} scale students with contracts, invoices and payments (BENCH_BACKGROUND=${BACKGROUND}) …`);
  await seedScale(handle.db, BACKGROUND - studentsNow);
  await handle.pool.query('VACUUM (ANALYZE)');
  console.log(`  seeded in ${s1(performance.now() - started)}`);
}
const sizes = (
  await q<{ students: number; contracts: number; invoices: number; payments: number }>(
    `select (select count(*) from students)::int as students, (select count(*) from contracts)::int as contracts,
       (select count(*) from invoices)::int as invoices, (select count(*) from scholarship_payments)::int as payments`,
  )
)[0]!;
const pgVersion = (await q<{ v: string }>("select current_setting('server_version') as v"))[0]!.v;

// A Developer of the bench's own, with a password it knows (the admin's may have been generated and shown once).
const login = 'batchbench';
const password = randomBytes(18).toString('base64url');
const account = { usr_role_id: ROLE_IDS.Developer, usr_active: true, usr_login_password: await hashPassword(password) };
const [existing] = await handle.db.select({ id: users.id }).from(users).where(eq(users.usr_login_name, login));
if (existing) await handle.db.update(users).set(account).where(eq(users.id, existing.id));
else await handle.db.insert(users).values({ usr_login_name: login, usr_first_name: 'Batch', usr_last_name: 'Bench', ...account });

// The SMTP server: accepts every message and counts it.
const smtp = await startAcceptingSmtp();
toStop.push(() => smtp.close());
const smtpPort = smtp.port;
const [savedSettings] = await handle.db.select().from(emailSettings).where(eq(emailSettings.id, 1));
const benchSettings = { smtp_servername: '127.0.0.1', smtp_port: smtpPort, smtp_security: 'none', smtp_username: '', smtp_password: null, from_email_address: 'bench@example.org' };
await handle.db.insert(emailSettings).values({ id: 1, ...benchSettings }).onConflictDoUpdate({ target: emailSettings.id, set: benchSettings });
toStop.push(async () => {
  if (savedSettings) await handle.db.update(emailSettings).set(savedSettings).where(eq(emailSettings.id, 1));
  else await handle.db.delete(emailSettings).where(eq(emailSettings.id, 1));
});

// The app, as server.ts starts it: the queue's schema, the routes, then the workers.
await installQueue(handle.pool);
const ctx: AppContext = { db: handle.db, env, jwtSecret: env.JWT_SECRET!, logger };
const modules = resourceModules(ctx);
const server = createApp(ctx, modules).listen(0, '127.0.0.1');
await new Promise<void>((resolve, reject) => {
  server.once('listening', resolve);
  server.once('error', reject);
});
toStop.push(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
const workers = await startWorkers(ctx, modulesByKey(modules));
toStop.push(() => workers.stop());
const port = (server.address() as AddressInfo).port;

// ---------------------------------------------------------------------------------------------------------
// The client: node:http on kept-alive connections, JSON in and out; the probes have connections of their own

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
toStop.push(async () => {
  agent.destroy();
  probeAgent.destroy();
});
let auth: Record<string, string> = {};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}
function send(method: string, path: string, body?: unknown, via = agent): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `${API}${path}`,
        agent: via,
        // An answer's headers may be long (an export's X-Message): taken whole, and their size reported.
        maxHeaderSize: 16 * 1024 * 1024,
        headers: { ...auth, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
async function api<T>(method: string, path: string, body?: unknown, expect: number[] = [200, 201, 202]): Promise<T> {
  const res = await send(method, path, body);
  if (!expect.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.body.toString('utf8').slice(0, 500)}`);
  return (res.body.length > 0 ? JSON.parse(res.body.toString('utf8')) : undefined) as T;
}

const session = await api<{ token: string; user: { id: number } }>('POST', '/auth/login', { username: login, password });
auth = { authorization: `Bearer ${session.token}`, [SHOWN_USER_HEADER.toLowerCase()]: String(session.user.id) };

/** Runs `work` over `items`, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

/** Every id of a list (its filter and sort as given), page by page as the web pages, up to `limit`. */
async function idsOf(path: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ids.length < limit; page++) {
    const res = await api<{ data: { id: number }[]; links: { pagination: { last_page: number } } }>('GET', `${path}&per_page=200&page=${page}`);
    ids.push(...res.data.map((r) => r.id));
    if (page >= res.links.pagination.last_page || res.data.length === 0) break;
  }
  return ids.slice(0, limit);
}

// ---------------------------------------------------------------------------------------------------------
// Batch runs, started and followed as the web's batch dialog does

const problems: string[] = [];
const rows: [string, string][] = [];
const runSeconds = (run: BatchRun) => (new Date(run.finished_timestamp ?? Date.now()).getTime() - new Date(run.created_timestamp).getTime()) / 1000;

/** Follows a run until it is over (the failed rows while it works, all rows at the end); cancels it when it stalls. */
async function follow(runId: number, label: string): Promise<{ run: BatchRun; stalled: boolean }> {
  let lastDone = -1;
  let lastChange = performance.now();
  for (;;) {
    const run = await api<BatchRun>('GET', `/batch_runs/${runId}?rows=failed`);
    if (run.status === 'finished' || run.status === 'cancelled') return { run: await api<BatchRun>('GET', `/batch_runs/${runId}`), stalled: false };
    if (run.done !== lastDone) {
      lastDone = run.done;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > STALL_SECONDS * 1000) {
      problems.push(`${label}: run ${runId} did no row for ${STALL_SECONDS} s (status ${run.status}, ${run.done} of ${run.total} done): cancelled`);
      await api('POST', `/batch_runs/${runId}/cancel`, {}, [200, 409]);
      return { run: await api<BatchRun>('GET', `/batch_runs/${runId}`), stalled: true };
    }
    await sleep(POLL_MS);
  }
}

interface BatchFigures {
  rows: number;
  previewMs: number;
  runMs: number;
  ok: number;
  failed: number;
  messages: string[];
  previews: BatchRun[];
  runs: BatchRun[];
  memory: { before: number; peak: number; after: number };
}

/**
 * A batch with a preview over `ids`: each part of at most MAX_BATCH_ROWS previewed, then its preview confirmed,
 * as the web does. The times are the server's (a run's created → finished), added over the parts.
 */
async function previewedBatch(label: string, path: string, ids: readonly number[], input: Record<string, unknown> = {}, onRunning?: () => void): Promise<BatchFigures> {
  const memory = memoryPhase();
  const out: Omit<BatchFigures, 'memory'> = { rows: ids.length, previewMs: 0, runMs: 0, ok: 0, failed: 0, messages: [], previews: [], runs: [] };
  for (const [k, part] of chunks(ids, MAX_BATCH_ROWS).entries()) {
    process.stdout.write(`  ${label}${ids.length > MAX_BATCH_ROWS ? ` (part ${k + 1})` : ''}: preview of ${part.length} rows … `);
    const { run_id: previewId } = await api<{ run_id: number }>('POST', path, { ids: part, dry_run: true, ...input });
    const preview = await follow(previewId, `${label} (preview)`);
    out.previews.push(preview.run);
    out.previewMs += runSeconds(preview.run) * 1000;
    process.stdout.write(`${runSeconds(preview.run).toFixed(1)} s, ${preview.run.failed} refused; `);
    if (preview.stalled) break;
    if (preview.run.failed === preview.run.total) {
      problems.push(`${label}: the preview refused every row (${preview.run.rows[0]?.message ?? ''})`);
      out.failed += preview.run.failed;
      out.messages.push(...preview.run.rows.filter((r) => !r.ok).map((r) => r.message ?? ''));
      break;
    }
    const { run_id: realId } = await api<{ run_id: number }>('POST', `/batch_runs/${previewId}/confirm`, {});
    if (k === 0) onRunning?.();
    const real = await follow(realId, label);
    out.runs.push(real.run);
    out.runMs += runSeconds(real.run) * 1000;
    console.log(`confirmed: ${runSeconds(real.run).toFixed(1)} s, ${real.run.failed} failed`);
    // Rows the preview refused count as failed too: the confirmed run leaves them out.
    const refused = preview.run.rows.filter((r) => !r.ok);
    const failedRows = [...refused, ...real.run.rows.filter((r) => r.status === 'failed' || r.status === 'cancelled')];
    out.failed += failedRows.length;
    out.ok += real.run.rows.filter((r) => r.ok).length;
    out.messages.push(...failedRows.map((r) => r.message ?? `${r.reference}: ${r.status}`));
    if (real.stalled) break;
  }
  return { ...out, memory: memory.end() };
}

function batchRow(measure: string, f: BatchFigures, extra = ''): void {
  const failures = f.failed > 0 ? `; **${f.failed} failed**: ${[...new Set(f.messages)].slice(0, 3).join(' / ')}` : '; 0 failed';
  rows.push([
    measure,
    `preview ${s1(f.previewMs)} (${perSecond(f.rows, f.previewMs)} rows/s), run ${s1(f.runMs)} (${perSecond(f.ok, f.runMs)} rows/s)${failures}${extra}; RSS ${memoryText(f.memory)}`,
  ]);
  if (f.failed > 0) problems.push(`${measure}: ${f.failed} of ${f.rows} rows failed, first: ${[...new Set(f.messages)].slice(0, 3).join(' / ')}`);
}

// ---------------------------------------------------------------------------------------------------------
// What staff feel: a list page asked every 200 ms

interface Probe {
  stop(): Promise<{ url: string; ms: number[]; errors: number }[]>;
}
function probe(urls: readonly string[]): Probe {
  let on = true;
  const results = urls.map((url) => ({ url, ms: [] as number[], errors: 0 }));
  const loops = results.map(async (r, i) => {
    await sleep((PROBE_EVERY_MS / urls.length) * i);
    while (on) {
      const due = performance.now() + PROBE_EVERY_MS;
      const res = await send('GET', r.url, undefined, probeAgent).catch(() => undefined);
      if (res?.status === 200) r.ms.push(res.ms);
      else r.errors++;
      await sleep(Math.max(0, due - performance.now()));
    }
  });
  return {
    async stop() {
      on = false;
      await Promise.all(loops);
      return results;
    },
  };
}
const latencyText = (ms: readonly number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(0)} / p95 ${percentile(sorted, 0.95).toFixed(0)} / max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${sorted.length} requests)`;
};

// ---------------------------------------------------------------------------------------------------------
// The numbers of a kind and year: consecutive from 1, none twice, the counter at the last

async function numberCheck(what: string, table: 'invoices' | 'scholarship_payments', prefix: string, kind: string, year: number): Promise<string> {
  const [r] = await q<{ count: number; distinct: number; min: number | null; max: number | null; counter: number | null; missing: number[] | null }>(
    `with n as (select substring(number from $1)::int as v from ${table} where number like $2)
     select count(*)::int as count, count(distinct v)::int as distinct, min(v) as min, max(v) as max,
       (select last_value from document_counters where kind = $3 and year = $4) as counter,
       (select array_agg(g order by g) from (select g from generate_series(1, (select coalesce(max(v), 0) from n)) g where not exists (select 1 from n where n.v = g) limit 5) m) as missing
     from n`,
    [`^${prefix}${year}-(\\d+)$`, `${prefix}${year}-%`, kind, year],
  );
  const gaps = (r!.max ?? 0) - r!.distinct;
  const duplicates = r!.count - r!.distinct;
  const fine = gaps === 0 && duplicates === 0 && (r!.counter ?? 0) === (r!.max ?? 0);
  const text = `${prefix}${year}: ${r!.count} numbers, 1 … ${r!.max ?? 0}, counter at ${r!.counter ?? 'none'}; ${gaps} missing${r!.missing?.length ? ` (${r!.missing.join(', ')}${gaps > 5 ? ' …' : ''})` : ''}, ${duplicates} twice`;
  if (!fine) problems.push(`${what}: numbers not gapless: ${text}`);
  return `${fine ? 'gapless' : '**NOT gapless**'}: ${text}`;
}

// ---------------------------------------------------------------------------------------------------------
// 0. The data: a fresh intake, its fee and milestones, N students and their contracts, all through the API

const today = todayIn(env.APP_TIMEZONE);
const thisYear = Number(today.slice(0, 4));
const maxIntake = (await q<{ m: number | null }>('select max(intake)::int as m from contracts'))[0]!.m ?? 0;
const intake = Number(process.env.BENCH_INTAKE ?? Math.max(thisYear, maxIntake + 1));
const startDate = `${intake}-09-01`;
const tag = `${intake}-${Date.now().toString(36)}`;
const [scholarship] = await handle.db.select({ id: scholarships.id, code: scholarships.code }).from(scholarships).orderBy(scholarships.id).limit(1);
const [germany] = await handle.db.select({ id: countries.id }).from(countries).where(eq(countries.cntry_code, 'DE'));
if (!scholarship || !germany) throw new Error('the lookup data (scholarships, countries) is missing');

console.log(`\nintake ${intake} (start ${startDate}), scholarship ${scholarship.code}; the database holds ${sizes.students} students, ${sizes.contracts} contracts, ${sizes.invoices} invoices, ${sizes.payments} scholarship payments`);
const setupMemory = memoryPhase();
const setupStarted = performance.now();
async function referenceId(path: string, shortname: string, body: Record<string, unknown>): Promise<number> {
  const [found] = await q<{ id: number }>(`select id from ${path} where shortname = $1`, [shortname]);
  return found?.id ?? (await api<{ id: number }>('POST', `/${path}`, body)).id;
}
const programId = await referenceId('programs', 'BENCHP', { name: 'Batch Bench Program', shortname: 'BENCHP' });
const universityId = await referenceId('universities', 'BENCHU', {
  name: 'Universität Batchbench',
  shortname: 'BENCHU',
  payment_holder_name: 'Universitätskasse Batchbench',
  payment_holder_iban: 'DE89370400440532013000',
  payment_holder_swift: 'COBADEFFXXX',
  payment_holder_address: 'Hauptstraße 1, 80331 München',
  payment_bank_address: 'Commerzbank München',
  payment_amount: 1200,
});
await api('POST', '/studentfees', {
  intake,
  scholarship_id: scholarship.id,
  registration_fee_amount: 250,
  participationfee1_amount: 3000,
  participationfee2_amount: 3000,
  administrationfee1_amount: 450.5,
  administrationfee2_amount: 450.5,
  monthly_allowance_amount: ALLOWANCE,
});
for (const year of [1, 2]) await api('POST', '/milestones', { intake, scholarship_id: scholarship.id, year, milestone_date: null, milestone_amount: 1500 });

// Names with diacritics from the countries the office's students come from, as the scale seed has them.
const FIRST = ['Łukasz', 'Zoë', 'José', 'Ängla', 'Jürgen', 'Ngozi', 'Søren', 'Ana', 'Mehmet', 'Aino', 'Priya', 'Hélène', 'Bjørn', 'Kateřina', 'Tomás', 'Lucía'];
const LAST = ['Wiśniewski', 'Dubois', 'Muñoz García', 'Sjöberg', 'Schäfer', 'Okonkwo', 'Kierkegård', 'Conceição', 'Yılmaz', 'Mäkinen', 'Raghunathan', 'Lefèvre', 'Ødegård', 'Nováková', 'Ó Súilleabháin', 'Fernández'];
const contractIds: number[] = new Array<number>(CONTRACTS);
await inLanes(
  Array.from({ length: CONTRACTS }, (_, i) => i),
  4,
  async (i) => {
    const student = await api<{ id: number }>('POST', '/students', {
      first_name: FIRST[i % FIRST.length],
      last_name: `${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i + 1}`,
      address: `Bench street ${i + 1}`,
      zip: String(10000 + (i % 89999)),
      city: 'Berlin',
      cntry_id: germany.id,
      birth_date: `${1995 + (i % 8)}-0${1 + (i % 9)}-1${i % 9}`,
      email_address: `bench.${tag}.${i + 1}@example.org`,
      payment_bank_iban: 'DE89370400440532013000',
      payment_bank_swift: 'COBADEFFXXX',
    });
    const contract = await api<{ id: number }>('POST', '/contracts', {
      student_id: student.id,
      scholarship_id: scholarship.id,
      program_id: programId,
      intake,
      application_round: 1,
      application_id: `BENCH-${tag}-${i + 1}`,
      y1_university_id: universityId,
      start_date: startDate,
    });
    contractIds[i] = contract.id;
  },
);
const setupMs = performance.now() - setupStarted;
rows.push([
  `setup: ${CONTRACTS} students and ${CONTRACTS} contracts of intake ${intake} (POST /students, POST /contracts, 4 at a time)`,
  `${s1(setupMs)} (${perSecond(CONTRACTS * 2, setupMs)} requests/s); RSS ${memoryText(setupMemory.end())}`,
]);
console.log(`  ${CONTRACTS} students and contracts created in ${s1(setupMs)}`);

// ---------------------------------------------------------------------------------------------------------
// a. Plan invoices

console.log('a. plan invoices');
const invoicesBefore = (await q<{ n: number }>('select count(*)::int as n from invoices'))[0]!.n;
const planInvoices = await previewedBatch('Plan invoices', '/contracts/batch/plan_invoices', contractIds);
const invoicesPlanned = (await q<{ n: number }>('select count(*)::int as n from invoices'))[0]!.n - invoicesBefore;
batchRow(`a. Plan invoices: ${CONTRACTS} contracts → ${invoicesPlanned} planned invoices`, planInvoices, `; ${perSecond(invoicesPlanned, planInvoices.runMs)} invoices/s`);

// ---------------------------------------------------------------------------------------------------------
// b. Create Invoice, with list pages asked meanwhile

console.log('b. create invoice');
const planned = await idsOf(`/invoices?planned=true&intake=${intake}&sort=planned_date|asc,document_reference|asc`, INVOICES + 1);
const toNumber = planned.slice(0, INVOICES);
// Another member of staff's work while the run works: one invoice numbered now (Create PDF), whose e-mail they send
// during the run, and a one-row batch (Mark contract sent) they start then. Each is timed until it is done.
const spare = planned.length > INVOICES ? planned.at(-1) : undefined;
if (spare !== undefined) await api('POST', `/invoices/${spare}/create_pdf`, {});
const othersWork: Promise<string>[] = [];
async function singleMailDuringRun(invoiceId: number): Promise<string> {
  const since = new Date();
  const started = performance.now();
  await api('POST', `/invoices/${invoiceId}/send_email`, { reminder: false });
  const asked = performance.now() - started;
  for (;;) {
    const [mail] = await q<{ status: string; sent_timestamp: Date | null }>(
      "select status, sent_timestamp from outbox where resource = 'invoice' and record_id = $1 and created_timestamp >= $2 order by id desc limit 1",
      [invoiceId, since],
    );
    if (mail && mail.status !== 'queued') return `answered in ${asked.toFixed(0)} ms; ${mail.status} ${s1((mail.sent_timestamp ?? new Date()).getTime() - since.getTime())} after it was asked`;
    if (performance.now() - started > (STALL_SECONDS + 300) * 1000) return `**still queued after ${s1(performance.now() - started)}**`;
    await sleep(200);
  }
}
async function oneRowBatchDuringRun(contractId: number): Promise<string> {
  const started = performance.now();
  const { run_id } = await api<{ run_id: number }>('POST', '/contracts/batch/mark_sent', { ids: [contractId] });
  const { run } = await follow(run_id, 'Mark contract sent (one row, during Create Invoice)');
  return `${run.status} ${s1(performance.now() - started)} after it was started (${run.done} of ${run.total} done, ${run.failed} failed)`;
}
const probeUrls = ['/invoices?numbered=true&sort=number|asc&per_page=50&page=1', '/contracts?per_page=50&page=1'];
console.log(`  ${BASELINE_SECONDS} s of list pages on a quiet server …`);
const quiet = probe(probeUrls);
await sleep(BASELINE_SECONDS * 1000);
const quietLatency = await quiet.stop();
const busy = probe(probeUrls);
const createInvoice = await previewedBatch('Create Invoice', '/invoices/batch/create_pdf', toNumber, {}, () => {
  // A few seconds into the confirmed run, as someone else at their desk would.
  const later = sleep(3000);
  if (spare !== undefined) othersWork.push(later.then(() => singleMailDuringRun(spare)));
  othersWork.push(later.then(() => oneRowBatchDuringRun(contractIds[0]!)));
});
const busyLatency = await busy.stop();
const [mailDuringRun, batchDuringRun] = spare !== undefined ? await Promise.all(othersWork) : [undefined, await othersWork[0]];
const numbered = createInvoice.runs.flatMap((r) => r.rows.filter((row) => row.ok));
const numberedIds = numbered.map((r) => r.id);
// The preview says the number each invoice would get: the run should give exactly those, in row order.
const numberIn = (message: string | null | undefined) => /Invoice (\d{4}-\d+)/.exec(message ?? '')?.[1];
const announced = new Map(createInvoice.previews.flatMap((p) => p.rows.map((r) => [r.id, numberIn(r.message)] as const)));
const differing = numbered.filter((r) => announced.get(r.id) !== numberIn(r.message));
const inRowOrder = numbered.every((r, i) => i === 0 || (numberIn(r.message) ?? '') > (numberIn(numbered[i - 1]!.message) ?? ''));
const pdfStats = (
  await q<{ n: number; bytes: string | null }>(
    `select count(*)::int as n, sum(f.size)::text as bytes from invoices i join stored_files f on f.id = i.pdf_file_id where i.id = any($1::int[])`,
    [numberedIds],
  )
)[0]!;
batchRow(
  `b. Create Invoice: ${toNumber.length} planned invoices numbered, PDF rendered and stored`,
  createInvoice,
  `; ${pdfStats.n} PDFs stored (${kb(Number(pdfStats.bytes ?? 0) / Math.max(1, pdfStats.n))} each)`,
);
if (differing.length > 0) {
  const first = differing[0]!;
  problems.push(`b. Create Invoice: ${differing.length} invoices got another number than the preview announced (first: ${first.reference}: preview ${announced.get(first.id)}, run ${numberIn(first.message)})`);
}
if (!inRowOrder) problems.push('b. Create Invoice: the numbers do not follow the row order (decision 051)');
rows.push([
  'b. … numbers afterwards',
  `${await numberCheck('b. Create Invoice', 'invoices', '', 'invoice', thisYear)}; preview's numbers ${differing.length === 0 ? 'all kept' : `**${differing.length} differ**`}; ${inRowOrder ? 'in row order' : '**not in row order**'}`,
]);
for (const [i, url] of probeUrls.entries()) {
  const before = quietLatency[i]!;
  const during = busyLatency[i]!;
  rows.push([`b. … GET ${url} every ${PROBE_EVERY_MS} ms`, `quiet: ${latencyText(before.ms)}; during the preview and run: ${latencyText(during.ms)}${during.errors + before.errors > 0 ? `; **${during.errors + before.errors} errors**` : ''}`]);
  if (during.errors > 0) problems.push(`b. GET ${url} failed ${during.errors} times during Create Invoice`);
}
if (mailDuringRun) rows.push(['b. … one invoice e-mail sent (POST /invoices/{id}/send_email) 3 s into the confirmed run', mailDuringRun]);
if (batchDuringRun) rows.push(['b. … a one-row batch (Mark contract sent) started 3 s into the confirmed run', batchDuringRun]);

// ---------------------------------------------------------------------------------------------------------
// c. Send Email of the numbered invoices, until the outbox delivered them

console.log('c. send email');
const acceptedBefore = smtp.accepted();
const mailStarted = new Date();
const sendEmail = await previewedBatch('Send Email', '/invoices/batch/send_email', numberedIds, { reminder: false });
const deliveryMemory = memoryPhase();
let outboxCounts: { queued: number; sent: number; failed: number; unknown: number; first_sent: Date | null; last_sent: Date | null; first_queued: Date | null } = {
  queued: 0,
  sent: 0,
  failed: 0,
  unknown: 0,
  first_sent: null,
  last_sent: null,
  first_queued: null,
};
{
  let lastSent = -1;
  let lastChange = performance.now();
  for (;;) {
    [outboxCounts] = await q<typeof outboxCounts>(
      `select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'sent')::int as sent,
         count(*) filter (where status = 'failed')::int as failed, count(*) filter (where status = 'unknown')::int as unknown,
         min(sent_timestamp) as first_sent, max(sent_timestamp) as last_sent, min(created_timestamp) as first_queued
       from outbox where resource = 'invoice' and record_id = any($1::int[]) and created_timestamp >= $2`,
      [numberedIds, mailStarted],
    ) as [typeof outboxCounts];
    if (outboxCounts.queued === 0) break;
    if (outboxCounts.sent !== lastSent) {
      lastSent = outboxCounts.sent;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > STALL_SECONDS * 1000) {
      problems.push(`c. Send Email: the outbox delivered nothing for ${STALL_SECONDS} s with ${outboxCounts.queued} mails still queued`);
      break;
    }
    await sleep(200);
  }
}
const deliveryMem = deliveryMemory.end();
const stamped = (await q<{ n: number }>('select count(*)::int as n from invoices where id = any($1::int[]) and email_timestamp >= $2', [numberedIds, mailStarted]))[0]!.n;
const mailSpanMs = outboxCounts.last_sent && outboxCounts.first_queued ? outboxCounts.last_sent.getTime() - outboxCounts.first_queued.getTime() : 0;
const confirmStart = sendEmail.runs[0] ? new Date(sendEmail.runs[0].created_timestamp).getTime() : mailStarted.getTime();
const runEnd = sendEmail.runs.at(-1)?.finished_timestamp ? new Date(sendEmail.runs.at(-1)!.finished_timestamp!).getTime() : confirmStart;
const allOutMs = outboxCounts.last_sent ? outboxCounts.last_sent.getTime() - confirmStart : 0;
const sentDuringRun = (await q<{ n: number }>('select count(*)::int as n from outbox where resource = $1 and record_id = any($2::int[]) and sent_timestamp <= $3', ['invoice', numberedIds, new Date(runEnd)]))[0]!.n;
batchRow(`c. Send Email: ${numberedIds.length} numbered invoices, the PDF attached (queued in the outbox)`, sendEmail);
rows.push([
  `c. … delivered by the job workers (WORKER_CONCURRENCY ${env.WORKER_CONCURRENCY}) to a local SMTP server`,
  `${outboxCounts.sent} sent, ${outboxCounts.failed} failed, ${outboxCounts.unknown} unknown, ${outboxCounts.queued} still queued; ${smtp.accepted() - acceptedBefore} accepted by the SMTP server; ${stamped} invoices stamped e-mailed; ` +
    `first queued → last sent ${s1(mailSpanMs)} (${perSecond(outboxCounts.sent, mailSpanMs)} mails/s); confirm → last sent ${s1(allOutMs)}; ${sentDuringRun} sent before the run finished; RSS ${memoryText({ ...deliveryMem, before: sendEmail.memory.before, peak: Math.max(deliveryMem.peak, sendEmail.memory.peak) })}`,
]);
if (outboxCounts.sent !== numberedIds.length || stamped !== numberedIds.length) {
  problems.push(`c. Send Email: ${outboxCounts.sent} of ${numberedIds.length} mails sent, ${stamped} invoices stamped (failed ${outboxCounts.failed}, unknown ${outboxCounts.unknown}, queued ${outboxCounts.queued})`);
}

// ---------------------------------------------------------------------------------------------------------
// d. Plan scholarship payments, schedule them, export them to the bank

console.log('d. scholarship payments');
const paymentsBefore = (await q<{ n: number }>('select count(*)::int as n from scholarship_payments'))[0]!.n;
const planPayments = await previewedBatch('Plan scholarship payments', '/contracts/batch/plan_scholarship_payments', contractIds);
const paymentsPlanned = (await q<{ n: number }>('select count(*)::int as n from scholarship_payments'))[0]!.n - paymentsBefore;
batchRow(`d. Plan scholarship payments: ${CONTRACTS} contracts → ${paymentsPlanned} planned payments`, planPayments, `; ${perSecond(paymentsPlanned, planPayments.runMs)} payments/s`);

const toSchedule = await idsOf(`/scholarship_payments?planned=true&intake=${intake}&sort=planned_date|asc`, PAYMENTS);
const schedule = await previewedBatch('Schedule Payments', '/scholarship_payments/create_payments', toSchedule);
const scheduled = schedule.runs.flatMap((r) => r.rows.filter((row) => row.ok));
const scheduledIds = scheduled.map((r) => r.id);
const groups = schedule.runs.flatMap((r) => r.totals).map((t) => `${t.count} ${t.group}`);
batchRow(`d. Schedule Payments: ${toSchedule.length} planned payments numbered`, schedule, groups.length > 0 ? `; ${groups.join(', ')}` : '');
const paymentYears = (await q<{ y: number }>(`select distinct substring(number from 2 for 4)::int as y from scholarship_payments where id = any($1::int[]) order by 1`, [scheduledIds])).map((r) => r.y);
const paymentChecks: string[] = [];
for (const year of paymentYears) paymentChecks.push(await numberCheck('d. Schedule Payments', 'scholarship_payments', 'S', 'scholarship_payment', year));
rows.push(['d. … numbers afterwards', paymentChecks.join('; ') || '(none numbered)']);

if (scheduledIds.length > 0) {
  const summaryRes = await send('POST', '/scholarship_payments/export_payments/summary', { ids: scheduledIds });
  const exportMemory = memoryPhase();
  const exported = await send('POST', '/scholarship_payments/export_payments', { ids: scheduledIds });
  const exportMem = exportMemory.end();
  if (exported.status !== 200) {
    problems.push(`d. Export Payments: ${exported.status} ${exported.body.toString('utf8').slice(0, 300)}`);
    rows.push(['d. Export Payments', `**${exported.status}**`]);
  } else {
    const exportId = Number(exported.headers['x-export-id']);
    const headerBytes = Object.entries(exported.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
    const messageBytes = String(exported.headers['x-message'] ?? '').length;
    const [inFile] = await q<{ n: number; total: string }>('select count(*)::int as n, coalesce(sum(amount), 0)::text as total from scholarship_payments where export_id = $1', [exportId]);
    const sepaMemory = memoryPhase();
    const sepa = await send('POST', '/scholarship_payments/download_sepa', { export_id: exportId });
    const sepaMem = sepaMemory.end();
    const transfers = (sepa.body.toString('utf8').match(/<CdtTrfTxInf>/g) ?? []).length;
    rows.push([
      `d. Export Payments: the ${scheduledIds.length} scheduled payments at once (summary, then Payments.xlsx)`,
      `summary ${summaryRes.ms.toFixed(0)} ms (${summaryRes.status}); export ${s1(exported.ms)}, ${kb(exported.body.length)}, ${inFile!.n} payments over € ${inFile!.total} marked exported; ` +
        `answer headers ${kb(headerBytes)} (X-Message ${kb(messageBytes)}); RSS ${memoryText(exportMem)}`,
    ]);
    rows.push([`d. … the SEPA file of that export (download_sepa)`, `${sepa.status}: ${sepa.ms.toFixed(0)} ms, ${kb(sepa.body.length)}, ${transfers} transfers; RSS ${memoryText(sepaMem)}`]);
    if (inFile!.n !== scheduledIds.length) problems.push(`d. Export Payments: ${inFile!.n} of ${scheduledIds.length} scheduled payments exported`);
    if (transfers !== inFile!.n) problems.push(`d. SEPA file: ${transfers} transfers for ${inFile!.n} exported payments`);
    // Browsers and Node refuse answer headers over a limit (Node: 16 kB by default, --max-http-header-size).
    if (headerBytes > 16 * 1024) problems.push(`d. Export Payments: the answer's headers are ${kb(headerBytes)} (X-Message ${kb(messageBytes)}): over Node's default limit of 16 kB`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The end: everything stopped, the Email settings put back, the table

const loadAtEnd = os.loadavg();
if (logged.warn + logged.error > 0) problems.push(`the server logged ${logged.warn} warnings and ${logged.error} errors; first: ${logged.first.join(' | ')}`);
const workersStop = performance.now();
await stopAll();
clearInterval(sampler);
const stopMs = performance.now() - workersStop;

const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
console.log(
  `\n${benchStarted.toISOString().slice(0, 16).replace('T', ' ')} UTC; machine: ${cpu}, ${os.cpus().length} cores, ${mb(os.totalmem())}; Node ${process.version}; PostgreSQL ${pgVersion}; ` +
    `load average at the start ${loadAtStart.map((l) => l.toFixed(2)).join(' / ')}, at the end ${loadAtEnd.map((l) => l.toFixed(2)).join(' / ')}; ` +
    `WORKER_CONCURRENCY ${env.WORKER_CONCURRENCY}, BATCH_ROW_PAUSE_MS ${env.BATCH_ROW_PAUSE_MS}; stopped in ${s1(stopMs)}\n`,
);
console.log('| measure | figure |\n|---|---|');
for (const [measure, figure] of rows) console.log(`| ${measure} | ${figure} |`);
if (problems.length > 0) {
  console.log('\nproblems:');
  for (const p of problems) console.log(`- ${p}`);
  process.exit(1);
}
process.exit(0);
