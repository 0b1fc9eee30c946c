import { Router } from 'express';
import type { AppContext } from '../context.js';
import { actorOf, idParam } from '../crud/crud-router.js';
import type { ResourceModule } from '../actions/module.js';
import { BatchRunQuerySchema } from '@app/contracts';
import { parseInput } from '../errors.js';
import { queryRoute, route } from '../routes.js';
import { cancelRun, confirmRun, getRun, listMyRuns, retryFailed, sendRunResult } from './batch-service.js';

/** The batch runs (DESIGN §10): list one's own, follow one, download its result, retry its failed rows, cancel it, confirm a preview. */
export function batchRunRouter(ctx: AppContext, modules: ReadonlyMap<string, ResourceModule>): Router {
  const router = Router();
  route(router, 'get', '/batch_runs', async (req, res) => {
    res.json({ data: await listMyRuns(ctx, actorOf(req)) });
  });
  queryRoute(router, 'get', '/batch_runs/:id', async (req, res) => {
    const { rows } = parseInput(BatchRunQuerySchema, req.query, 'query');
    res.json(await getRun(ctx, idParam(req.params.id), actorOf(req), rows));
  });
  route(router, 'get', '/batch_runs/:id/result', async (req, res) => {
    await sendRunResult(ctx, idParam(req.params.id), actorOf(req), res);
  });
  route(router, 'post', '/batch_runs/:id/retry_failed', async (req, res) => {
    res.json(await retryFailed(ctx, modules, idParam(req.params.id), actorOf(req)));
  });
  route(router, 'post', '/batch_runs/:id/cancel', async (req, res) => {
    res.json(await cancelRun(ctx, modules, idParam(req.params.id), actorOf(req)));
  });
  route(router, 'post', '/batch_runs/:id/confirm', async (req, res) => {
    res.status(202).json(await confirmRun(ctx, modules, idParam(req.params.id), actorOf(req)));
  });
  return router;
}
