import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@app/db';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
let dataDir = '';

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The real server (src/server.ts under tsx) on its own embedded PostgreSQL. */
async function startServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, PORT: String(port), ADMIN_PASSWORD: 'lifecycle-password-1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      if (out.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { child, output: () => out };
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
