import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ensureDatabase, runMigrations, startEmbeddedPostgres } from '@app/db';
import type { Env } from '../env.js';

export interface OpenedDatabase {
  url: string;
  embedded: boolean;
  /** Stops the embedded PostgreSQL (nothing for DATABASE_URL); past `timeoutMs` it is killed. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL with its data in DATA_DIR/postgres.
 * Either way the database exists and every committed migration is applied when this returns — unless `prepare`
 * is false (a backup, which reads the database as it is and must not write to it, nor create it).
 */
export async function openDatabase(env: Env, logger: Logger, { prepare = true }: { prepare?: boolean } = {}): Promise<OpenedDatabase> {
  let url = env.DATABASE_URL;
  let stop = async (_timeoutMs?: number) => undefined as void;
  if (!url) {
    const dataDir = path.join(env.DATA_DIR, 'postgres');
    logger.info({ dataDir }, 'starting the embedded PostgreSQL');
    const server = await startEmbeddedPostgres({ dataDir, onLog: (line) => logger.debug({ pg: line }) });
    const u = new URL(server.url);
    u.pathname = '/scholarship';
    url = u.toString();
    stop = server.stop;
  }
  try {
    if (prepare) {
      await ensureDatabase(url);
      await runMigrations(url);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, embedded: !env.DATABASE_URL, stop };
}

/** JWT_SECRET, or one generated on first start and kept in DATA_DIR (DESIGN §3). */
export async function jwtSecretFor(env: Env): Promise<string> {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = path.join(env.DATA_DIR, 'jwt-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(48).toString('base64url');
  await mkdir(env.DATA_DIR, { recursive: true, mode: 0o755 });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
