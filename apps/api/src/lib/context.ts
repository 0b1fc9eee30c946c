import type { Database } from '@app/db';
import type { Logger } from 'pino';
import type { Env } from '../env.js';

/** What every router and service needs; built once by the server (or a test) and passed down. */
export interface AppContext {
  db: Database;
  env: Env;
  jwtSecret: string;
  logger: Logger;
}
