import { Router } from 'express';
import { sql } from 'drizzle-orm';
import type { AppContext } from './context.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './db-errors.js';

/** The readiness probe waits this long at most for the database, whatever the pool's own timeouts. */
export const READY_TIMEOUT_MS = 2000;

/**
 * Probes for a load balancer or an orchestrator, outside `/api` and its sessions: `/health/live` answers as
 * long as the process does; `/health/ready` answers 200 when the database runs a statement within
 * READY_TIMEOUT_MS, otherwise 503 with Retry-After. Neither says more than that.
 */
export function healthRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'live' });
  });
  router.get('/health/ready', async (_req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      ctx.db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.min(READY_TIMEOUT_MS, ctx.env.DB_CONNECT_TIMEOUT_MS)))),
    ]).finally(() => clearTimeout(timer));
    res.set('Cache-Control', 'no-store');
    if (ready) {
      res.json({ status: 'ready', database: 'ok' });
    } else {
      res.status(503).set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).json({ status: 'unavailable', database: 'unavailable' });
    }
  });
  return router;
}
