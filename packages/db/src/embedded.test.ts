import { mkdtemp, mkdir, chmod, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertReachableByOthers, freePort } from './embedded.js';
import { createDatabaseSql } from './migrate.js';

const root = await mkdtemp(path.join(tmpdir(), 'embedded-check-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('assertReachableByOthers', () => {
  it('accepts a data directory whose parents others may enter', async () => {
    const open = path.join(root, 'open');
    await mkdir(open, { mode: 0o755 });
    await chmod(root, 0o755);
    expect(() => assertReachableByOthers(path.join(open, 'postgres'))).not.toThrow();
  });

  it('names the parent the postgres user cannot enter and what to do about it', async () => {
    const closed = path.join(root, 'home');
    await mkdir(path.join(closed, 'checkout'), { recursive: true });
    await chmod(closed, 0o700);
    expect(() => assertReachableByOthers(path.join(closed, 'checkout', '.data', 'postgres'))).toThrow(
      new RegExp(`cannot enter ${closed} \\(mode 700\\).*DATABASE_URL`),
    );
  });
});

describe('helpers', () => {
  it('finds a free loopback port', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1024);
  });

  it('creates databases with ICU root collation and refuses unsafe names', () => {
    expect(createDatabaseSql('scholarship')).toContain(`LOCALE_PROVIDER icu ICU_LOCALE 'und'`);
    expect(() => createDatabaseSql('x"; drop')).toThrow(/letters, digits and _/);
  });
});
