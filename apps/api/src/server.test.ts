import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@app/db';
import { startServerProcess } from './test/server-process.js';

let dataDir = '';

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The real server on its own embedded PostgreSQL. */
function startServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  return startServerProcess({ DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: 'lifecycle-password-1', LOG_LEVEL: 'warn', DATABASE_URL: '' });
}

function stopped(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

const postgresRunningIn = (dir: string) => {
  try {
    return execFileSync('pgrep', ['-f', `postgres -D ${dir}`]).toString().trim().length > 0;
  } catch {
    return false;
  }
};

describe('the server process', () => {
  it('starts an embedded PostgreSQL, seeds once, stops cleanly on SIGTERM and reuses the data next time', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'scholarship-lifecycle-'));
    await chmod(dataDir, 0o755);
    const port = await freePort();

    const first = await startServer(port);
    expect(first.output()).toContain('Created the Developer account "admin"');
    expect(first.output()).toContain(`running at http://localhost:${port}/`);
    const login = await fetch(`http://127.0.0.1:${port}/api/v1.0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'lifecycle-password-1' }),
    });
    expect(login.status).toBe(200);
    const countries = await fetch(`http://127.0.0.1:${port}/api/v1.0/countries/choice`, { headers: { authorization: `Bearer ${((await login.json()) as { token: string }).token}` } });
    expect(((await countries.json()) as unknown[]).length).toBeGreaterThan(190);
    expect(postgresRunningIn(path.join(dataDir, 'postgres'))).toBe(true);

    first.child.kill('SIGTERM');
    expect(await stopped(first.child)).toBe(0);
    expect(postgresRunningIn(path.join(dataDir, 'postgres'))).toBe(false);

    const second = await startServer(port);
    expect(second.output()).not.toContain('Created the Developer account');
    const again = await fetch(`http://127.0.0.1:${port}/api/v1.0/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'lifecycle-password-1' }),
    });
    expect(again.status).toBe(200);
    second.child.kill('SIGINT');
    expect(await stopped(second.child)).toBe(0);
    expect(postgresRunningIn(path.join(dataDir, 'postgres'))).toBe(false);
  }, 120_000);
});
