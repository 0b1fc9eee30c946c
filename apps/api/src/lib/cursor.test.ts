import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '@app/db';
import { setupTestApp } from '../test/app.js';
import { cursorBatches } from './cursor.js';

const t = await setupTestApp();
// The application's own limit for a request's statement, made short: an export's statement may run past it.
const short = connect(t.databaseUrl, { statementTimeoutMs: 300 });
afterAll(() => short.close());

describe('an export read through a cursor', () => {
  it('may run past the statement timeout of requests, where a request is cancelled at it', async () => {
    const slow = 'select n from generate_series(1, 3) n where pg_sleep(0.3) is not null order by n desc';
    await expect(short.pool.query(slow)).rejects.toThrow(/statement timeout/);
    const rows: unknown[][] = [];
    for await (const batch of cursorBatches(short.pool, slow, [], 2)) rows.push(...batch);
    expect(rows).toEqual([[3], [2], [1]]);
    // The snapshot ended with it: the connection serves requests under their own limit again.
    await expect(short.pool.query('select pg_sleep(0.5)')).rejects.toThrow(/statement timeout/);
  });
});
