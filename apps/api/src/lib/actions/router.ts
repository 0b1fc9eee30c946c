import { Router, type Request, type RequestHandler, type Response } from 'express';
import { actionPath, actionsOf, runsAsBatch, type AnyAction } from '@app/contracts';
import type { Tx } from '@app/db';
import type { AppContext } from '../context.js';
import { actorOf, idParam } from '../crud/crud-router.js';
import { parseInput } from '../errors.js';
import { recordEvent } from '../events/record.js';
import { oncePerKey, requestKeyOf } from '../crud/request-key.js';
import { startBatch, startImport } from '../batch/batch-service.js';
import { sendFile } from '../files/download.js';
import { acceptUpload, uploadOf } from '../files/upload.js';
import { route, type Method } from '../routes.js';
import { isImport, type ResourceModule } from './module.js';
import { runRecordAction } from './run.js';
import type { ActionOutcome, FileResult } from './types.js';

async function answerFile(res: Response, file: FileResult): Promise<void> {
  if ('content' in file) {
    sendFile(res, { filename: file.filename, mimeType: file.contentType, content: file.content });
    return;
  }
  await file.write(res);
}

/** The input of a single action: its schema, strict (an unknown field is refused, never dropped). */
function inputOf(action: AnyAction, req: Request): Record<string, unknown> {
  const body = req.body === undefined || action.upload ? {} : req.body;
  return parseInput(action.input.strict(), body, action.label.toLowerCase()) as Record<string, unknown>;
}

/**
 * Every route of a resource's actions, derived from their declarations (issue 9): `POST /{resource}/{id}/{action}`
 * for a record, `POST /{resource}/batch/{action}` for a selection (202 `{run_id}`), `POST /{resource}/{action}`
 * for the list, and the path the spec names where it names one. The permission table guards each route; the
 * action's schema checks the input (400 naming the field); the runner answers 409 where the action is not
 * offered; the event log records what was done.
 */
export function actionRouter(ctx: AppContext, mod: ResourceModule): Router {
  const router = Router();
  const { resource, service } = mod;

  const recordHandler = (action: AnyAction): RequestHandler[] => {
    const handle: RequestHandler = async (req, res) => {
      const id = idParam(req.params.id);
      const input = inputOf(action, req);
      const file = action.upload ? uploadOf(req).file : undefined;
      const version = req.get('If-Match') ?? undefined;
      const actor = actorOf(req);
      const run = (tx: Tx) => runRecordAction(ctx, tx, mod, action, { id, input, actor, version, file });
      // Sent again with its Idempotency-Key, an action is done once (decision 050); a file is made anew each time.
      const key = action.result === 'file' ? undefined : requestKeyOf(req);
      const outcome = await ctx.db.transaction((tx) => (key ? oncePerKey(tx, actor, key, async () => ({ message: (await run(tx)).message })) : run(tx)));
      await answer(action, res, outcome, id);
    };
    if (!action.upload) return [handle];
    // An unknown record is a 404 before any of the body is read.
    const exists: RequestHandler = async (req, _res, next) => {
      await service.get(idParam(req.params.id));
      next();
    };
    return [exists, acceptUpload(action.upload), handle];
  };

  const answer = async (action: AnyAction, res: Response, outcome: ActionOutcome, id?: number) => {
    switch (action.result) {
      case 'record':
        res.json(await service.get(id!));
        return;
      case 'file':
        if (!outcome.file) throw new Error(`${resource.key}.${action.name} answered no file`);
        await answerFile(res, outcome.file);
        return;
      case 'message':
        res.json({ message: outcome.message ?? 'Done' });
        return;
      case 'batch':
        throw new Error(`${resource.key}.${action.name}: a batch result comes from the batch route`);
    }
  };

  const batchHandler = (action: AnyAction): RequestHandler => async (req, res) => {
    res.status(202).json(await startBatch(ctx, mod, action, req.body, actorOf(req)));
  };

  const listHandler = (action: AnyAction): RequestHandler => async (req, res) => {
    const impl = mod.actions.get(action.name);
    if (impl?.kind !== 'list') throw new Error(`${resource.key}.${action.name} is not a list action`);
    const actor = actorOf(req);
    const outcome = await impl.run(ctx.db, actor, inputOf(action, req) as never, { ctx, service });
    if (!outcome.eventRecorded) await recordEvent(ctx.db, { type: outcome.eventType ?? 'update', userId: actor.user.id, message: outcome.message ?? action.label });
    await answer(action, res, outcome);
  };

  /**
   * An import: the upload (or the source the input names) is read into rows, which become a preview run; the
   * answer is the spec's `{filename}` and the run to follow (202). A file that cannot be read changes nothing.
   */
  const importHandlers = (action: AnyAction): RequestHandler[] => {
    const handle: RequestHandler = async (req, res) => {
      const impl = mod.actions.get(action.name);
      if (impl?.kind !== 'import') throw new Error(`${resource.key}.${action.name} is not an import`);
      const actor = actorOf(req);
      const input = inputOf(action, req);
      const file = action.upload ? uploadOf(req).file : undefined;
      const source = await impl.read(actor, input as never, file, { ctx, service });
      res.status(202).json(await startImport(ctx, mod, action, source, input, actor));
    };
    return action.upload ? [acceptUpload(action.upload), handle] : [handle];
  };

  const add = (key: string, handlers: RequestHandler[]) => {
    const [method = '', path = ''] = key.split(' ');
    route(router, method.toLowerCase() as Method, path, ...handlers);
  };

  // Batch and list routes first: `/contracts/batch/x` and `/contracts/x` must not be read as a record id.
  for (const action of actionsOf(resource)) {
    if (runsAsBatch(action)) add(`POST ${actionPath(resource.apiPath, action, 'batch')}`, [batchHandler(action)]);
    if (runsAsBatch(action) && action.batchPath) add(action.batchPath, [batchHandler(action)]);
    if (action.scope === 'selection') add(`POST ${actionPath(resource.apiPath, action, 'list')}`, [batchHandler(action)]);
    if (action.scope === 'list') {
      const imports = isImport(mod, action);
      add(`POST ${actionPath(resource.apiPath, action, 'list')}`, imports ? importHandlers(action) : [listHandler(action)]);
    }
  }
  for (const action of actionsOf(resource)) {
    if (action.scope !== 'record') continue;
    add(`POST ${actionPath(resource.apiPath, action, 'record')}`, recordHandler(action));
    if (action.specPath) add(action.specPath, recordHandler(action));
  }
  return router;
}
