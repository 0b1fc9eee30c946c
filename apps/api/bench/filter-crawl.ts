// `pnpm bench:filters`: the filter cases (filter-cases.ts) timed against a running server, page 1 each. Prints how
// many took over 30 ms, 100 ms and 1 s, and the slowest.
//
// It measures a running server (BENCH_URL, default http://127.0.0.1:3000) logged in as ADMIN_USERNAME /
// ADMIN_PASSWORD, and reads its filter values from the server's database (DATABASE_URL). Start the built server on
// the scale data first (`pnpm db:seed --scale 100000`, then `NODE_ENV=production WORKERS=0 pnpm start`).
// Flags: --runs N (timed requests per case after one untimed, default 3; the median is reported), --top N (0: all).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { filterCaseUrls } from './filter-cases.js';

const { runs, top } = parseArgs({ options: { runs: { type: 'string', default: '3' }, top: { type: 'string', default: '25' } } }).values;
const RUNS = Number(runs);
const base = `${process.env.BENCH_URL ?? 'http://127.0.0.1:3000'}/api/v1.0`;
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL: the database the server runs on (its values are the filters)');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
const urls = await filterCaseUrls(pool);
await pool.end();

const login = await fetch(`${base}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: process.env.ADMIN_USERNAME ?? 'admin', password: process.env.ADMIN_PASSWORD }),
});
if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return performance.now() - started;
}

const results: { url: string; ms: number }[] = [];
for (const url of urls) {
  await timed(url);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push(await timed(url));
  results.push({ url, ms: ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]! });
}

results.sort((a, b) => b.ms - a.ms);
const over = (ms: number) => results.filter((r) => r.ms > ms).length;
console.log(`${results.length} requests (one filter, every sort offered, page 1; median of ${RUNS}): median ${results[Math.floor(results.length / 2)]!.ms.toFixed(1)} ms; over 30 ms: ${over(30)}; over 100 ms: ${over(100)}; over 1 s: ${over(1000)}`);
for (const { url, ms } of results.slice(0, Number(top) || results.length)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${url}`);
