import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connect, type DbHandle } from '@app/db';
import { TEMPLATE_DB } from './global-setup.js';

/** A fresh database for one test file, cloned from the migrated template; `drop` removes it. */
export async function createTestDatabase(): Promise<DbHandle & { url: string; drop(): Promise<void> }> {
  const serverUrl = inject('databaseServerUrl');
  const name = `app_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Two files cloning at the same instant can collide on the template; a retry settles it.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
        break;
      } catch (err) {
        if (attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = connect(url.toString(), { max: 8 });
  const drop = async () => {
    await handle.close().catch(() => undefined);
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
  };
  return { ...handle, url: url.toString(), drop };
}
