import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type EmbeddedServer } from '@app/db';
import { shutdownDeadlineMs } from './lib/shutdown.js';
import { startServerProcess } from './test/server-process.js';

/*
 * Issue 10, point 9: the real server process (src/server.ts under tsx) on a PostgreSQL of this test's own, whose
 * processes the test stops (SIGSTOP), continues and kills under it.
 */

const STATEMENT_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 1000;
const SHUTDOWN_GRACE_MS = 1000;
/** The client gives up a second after the server's statement_timeout (client.ts), plus room for a loaded machine. */
const ANSWER_BOUND_MS = STATEMENT_TIMEOUT_MS + 1000 + 2500;

let dir = '';
let database: EmbeddedServer | undefined;
let app: ChildProcess | undefined;

afterAll(async () => {
  if (app && app.exitCode === null) app.kill('SIGKILL');
  await database?.stop(2000);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The postmaster (first line of postmaster.pid) and every process it started. */
function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(postmaster)]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    // No children.
  }
  return [postmaster, ...children];
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

async function startApp(databaseUrl: string, port: number): Promise<ChildProcess> {
  const { child } = await startServerProcess({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'fault-test-password-1',
    LOG_LEVEL: 'silent',
    DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    WORKERS: '1',
  });
  return child;
}

/** A request and how long its answer took. */
async function timed(url: string, token?: string) {
  const started = Date.now();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text, ms: Date.now() - started };
}

/** Asks again until the answer is 200 (or 10 s have passed); the last status. */
async function waitFor200(url: string, token: string): Promise<number> {
  const until = Date.now() + 10_000;
  let status = (await timed(url, token)).status;
  while (status !== 200 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    status = (await timed(url, token)).status;
  }
  return status;
}

describe('a stalled or dead database', () => {
  it('is answered with 503 and Retry-After within the timeout, recovered from by itself (stopped and continued, killed and started), and does not keep SIGTERM waiting', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'scholarship-faults-'));
    await chmod(dir, 0o755);
    const dataDir = path.join(dir, 'pg');
    database = await startEmbeddedPostgres({ dataDir });
    const url = new URL(database.url);
    url.pathname = '/scholarship';
    const port = await freePort();
    app = await startApp(url.toString(), port);
    const base = `http://127.0.0.1:${port}`;

    const login = await fetch(`${base}/api/v1.0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'fault-test-password-1' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const countries = `${base}/api/v1.0/countries/choice`;
    expect((await timed(countries, token)).status).toBe(200);
    expect((await timed(`${base}/health/ready`)).status).toBe(200);

    // Stopped: connections are accepted by the kernel, but nothing answers.
    const stopped = postgresProcesses(dataDir);
    signalAll(stopped, 'SIGSTOP');
    try {
      const [api, ready, live] = await Promise.all([timed(countries, token), timed(`${base}/health/ready`), timed(`${base}/health/live`)]);
      expect(api.status).toBe(503);
      expect(api.retryAfter).toMatch(/^\d+$/);
      expect(api.ms).toBeLessThan(ANSWER_BOUND_MS);
      const body = JSON.parse(api.text) as { message: string };
      expect(body.message).toBe('The database is not available at the moment: please try again shortly');
      expect(api.text).not.toMatch(/select|stack|timeout exceeded|Query read/i);
      expect(ready.status).toBe(503);
      expect(ready.retryAfter).toMatch(/^\d+$/);
      expect(ready.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(live.status).toBe(200);
    } finally {
      signalAll(stopped, 'SIGCONT');
    }

    // Continued: the app finds its way back alone.
    expect(await waitFor200(countries, token)).toBe(200);
    expect((await timed(`${base}/health/ready`)).status).toBe(200);

    // Killed: refused connections are a 503 at once; started again, the app serves again by itself.
    signalAll(postgresProcesses(dataDir), 'SIGKILL');
    const dead = await timed(countries, token);
    expect(dead.status).toBe(503);
    expect(dead.ms).toBeLessThan(ANSWER_BOUND_MS);
    database = await startEmbeddedPostgres({ dataDir, port: database.port });
    expect(await waitFor200(countries, token)).toBe(200);

    // Killed again, SIGTERM still ends the process within its bound.
    signalAll(postgresProcesses(dataDir), 'SIGKILL');
    expect((await timed(countries, token)).status).toBe(503);
    const exited = new Promise<number | null>((resolve) => app!.on('exit', (code) => resolve(code)));
    const signalled = Date.now();
    app.kill('SIGTERM');
    await exited;
    expect(Date.now() - signalled).toBeLessThan(shutdownDeadlineMs(SHUTDOWN_GRACE_MS));
  });
});
