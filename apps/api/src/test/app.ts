import { afterAll } from 'vitest';
import request from 'supertest';
import { pino } from 'pino';
import { createApp } from '../app.js';
import { loadEnv } from '../env.js';
import type { AppContext } from '../lib/context.js';
import { createTestDatabase } from './db.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** The real application on a fresh database of its own; closed after the file's tests. */
export async function setupTestApp(overrides: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: TEST_JWT_SECRET, WEB_DIST: '/nonexistent', ...overrides });
  const ctx: AppContext = { db: database.db, env, jwtSecret: TEST_JWT_SECRET, logger: pino({ level: 'silent' }) };
  const app = createApp(ctx);
  afterAll(() => database.drop());
  return { app, ctx, db: database.db, pool: database.pool, databaseUrl: database.url, http: () => request(app) };
}

export type TestApp = Awaited<ReturnType<typeof setupTestApp>>;
