// Benchmark of the list, search, filter and export paths on whatever data the configured database holds
// (seed it first: `pnpm db:seed --demo --scale 100000`). Prints median and p95 per request kind.
// Run: `pnpm --filter @app/api bench` (same DATABASE_URL / DATA_DIR as the app; stop `pnpm start` first).
import request from 'supertest';
import { pino } from 'pino';
import { connect } from '@app/db';
import { createApp } from '../src/app.js';
import { loadEnv } from '../src/env.js';
import { jwtSecretFor, openDatabase } from '../src/lib/database.js';
import { createSession } from '../src/lib/auth/sessions.js';
import { signToken } from '../src/lib/auth/tokens.js';
import { users } from '@app/db';
import { eq } from 'drizzle-orm';

const env = loadEnv();
const logger = pino({ level: 'silent' });
const database = await openDatabase(env, logger);
const handle = connect(database.url);
const jwtSecret = await jwtSecretFor(env);
const app = createApp({ db: handle.db, env: { ...env, LOG_LEVEL: 'silent' }, jwtSecret, logger });

const [admin] = await handle.db.select({ id: users.id }).from(users).where(eq(users.usr_login_name, env.ADMIN_USERNAME));
if (!admin) throw new Error('run pnpm db:seed first');
const session = await createSession(handle.db, admin.id, 1);
const token = signToken(jwtSecret, { sub: String(admin.id), sid: session.id }, 3600);

const counts = await handle.pool.query('select (select count(*) from students)::int as students, (select count(*) from contracts)::int as contracts');
console.log(`data: ${counts.rows[0].students} students, ${counts.rows[0].contracts} contracts`);

async function time(label: string, runs: number, make: () => request.Test): Promise<void> {
  const ms: number[] = [];
  let status = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await make();
    ms.push(performance.now() - started);
    status = res.status;
  }
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`${label.padEnd(58)} median ${p(0.5).padStart(7)} ms   p95 ${p(0.95).padStart(7)} ms   (status ${status}, ${runs} runs)`);
}

const get = (path: string) => () => request(app).get(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const post = (path: string, body: object) => () => request(app).post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`).send(body);

await time('students: first page, default sort (last_name)', 30, get('/students'));
await time('students: page 1000', 30, get('/students?page=1000'));
await time('students: quick filter "muller" (accents/case, trigram)', 30, get('/students?search=muller'));
await time('students: quick filter "zoe 4711"', 30, get('/students?search=zoe%204711'));
await time('students: filter address=37073 (postal code)', 30, get('/students?address=37073'));
await time('students: filter email_address=scale4711@', 30, get('/students?email_address=scale4711@'));
await time('contracts: first page, default sort (student last name)', 30, get('/contracts'));
await time('contracts: intake=2023 & status=3, sorted by start date', 30, get('/contracts?intake=2023&contract_status_id=3&sort=start_date|desc'));
await time('contracts: quick filter by application number', 30, get('/contracts?search=A00001'));
await time('contracts: choice list (all)', 5, get('/contracts/choice'));
await time('contracts: choice checksum', 10, get('/contracts/choice_checksum'));
await time('students: choice checksum', 10, get('/students/choice_checksum'));
await time('log events: first page', 30, get('/logging'));
const before = process.memoryUsage().rss;
await time('contracts: Contracts.xlsx of everything', 1, post('/contracts/download_report', {}));
console.log(`rss growth during the full export: ${((process.memoryUsage().rss - before) / 1024 / 1024).toFixed(0)} MB`);

await handle.close();
await database.stop();
