import { afterAll } from 'vitest';
import request from 'supertest';
import type { DestinationStream } from 'pino';
import { createApp } from '../app.js';
import { loadEnv } from '../env.js';
import { createLogger } from '../lib/logger.js';
import type { AppContext } from '../lib/context.js';
import { createTestDatabase } from './db.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/**
 * The real application on a fresh database of its own; closed after the file's tests. Its log lines go to
 * `logStream` when given (with LOG_LEVEL in `overrides`), else nowhere.
 */
export async function setupTestApp(overrides: Record<string, string> = {}, logStream?: DestinationStream) {
  const database = await createTestDatabase();
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: TEST_JWT_SECRET, WEB_DIST: '/nonexistent', ...overrides });
  const ctx: AppContext = { db: database.db, env, jwtSecret: TEST_JWT_SECRET, logger: createLogger(env, logStream) };
  const app = createApp(ctx);
  afterAll(() => database.drop());
  return { app, ctx, db: database.db, pool: database.pool, databaseUrl: database.url, http: () => request(app) };
}

export type TestApp = Awaited<ReturnType<typeof setupTestApp>>;

/**
 * A PUT as the web sends it: the record read first and its edit_timestamp sent back in If-Match (a PUT
 * without it is refused with a 428).
 */
export async function putAsRead(t: TestApp, token: string, path: string, body: object): Promise<request.Response> {
  const url = `/api/v1.0${path}`;
  const read = await t.http().get(url).set('Authorization', `Bearer ${token}`);
  const put = t.http().put(url).set('Authorization', `Bearer ${token}`);
  if (read.status === 200 && typeof read.body.edit_timestamp === 'string') put.set('If-Match', read.body.edit_timestamp);
  return put.send(body);
}
