import { Router, type Request } from 'express';
import { AppError, idSchema } from '@app/contracts';
import { queryRoute, route } from '../routes.js';
import type { Actor, CrudService } from './crud-service.js';
import { parseListQuery } from './list-query.js';
import { requestKeyOf } from './request-key.js';

/** The record id of a path: a positive `integer` (int4), else 400. */
export function idParam(value: unknown): number {
  const parsed = idSchema.safeParse(value);
  if (!parsed.success) throw new AppError('BAD_REQUEST', 'Invalid id', { id: ['id must be a positive whole number up to 2147483647'] });
  return parsed.data;
}

/** The user and session of an authenticated request (routes are guarded before they run). */
export function actorOf(req: Request): Actor {
  if (!req.user) throw new AppError('UNAUTHENTICATED', 'You are not logged in');
  return { user: req.user, sessionId: req.sessionId };
}

/** The generic routes of a resource (spec §7), guarded by the permission table. */
export function crudRouter(service: CrudService): Router {
  const { resource } = service.config;
  const router = Router();
  const base = `/${resource.apiPath}`;

  queryRoute(router, 'get', base, async (req, res) => {
    res.json(await service.list(parseListQuery(resource, req.query)));
  });

  route(router, 'get', `${base}/:id`, async (req, res) => {
    res.json(await service.get(idParam(req.params.id)));
  });

  if (resource.readOnly) return router;

  route(router, 'post', base, async (req, res) => {
    res.status(201).json(await service.create(req.body, actorOf(req), { requestKey: requestKeyOf(req) }));
  });

  route(router, 'put', `${base}/:id`, async (req, res) => {
    res.json(await service.update(idParam(req.params.id), req.body, req.get('If-Match'), actorOf(req)));
  });

  route(router, 'delete', `${base}/:id`, async (req, res) => {
    if (!resource.deletable) {
      throw new AppError('METHOD_NOT_ALLOWED', `A ${resource.title} can never be deleted`);
    }
    await service.remove(idParam(req.params.id), actorOf(req), { version: req.get('If-Match') });
    res.status(204).end();
  });

  return router;
}
