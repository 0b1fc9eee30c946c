import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
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

describe('a server whose port is taken', () => {
  it('says so and exits 1 at once: no job worker keeps a process alive that serves nothing', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const url = new URL(inject('databaseServerUrl'));
    url.pathname = `/port_taken_${process.pid}`;
    try {
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: url.toString(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'lifecycle-password-1', WORKERS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stderr!.on('data', (d) => (out += String(d)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await stopped(child);
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(out).toContain('Start-up failed: listen EADDRINUSE');
    } finally {
      blocker.close();
      const admin = new pg.Client({ connectionString: inject('databaseServerUrl') });
      await admin.connect();
      await admin.query(`drop database if exists port_taken_${process.pid} with (force)`);
      await admin.end();
    }
  }, 90_000);
});

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
