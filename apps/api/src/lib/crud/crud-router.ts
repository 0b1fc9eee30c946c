import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@app/contracts';
import { route } from '../routes.js';
import type { CrudService } from './crud-service.js';
import { parseListQuery } from './list-query.js';

const IdSchema = z.coerce.number().int().positive().max(2_147_483_647);

export function idParam(value: unknown): number {
  const parsed = IdSchema.safeParse(value);
  if (!parsed.success) throw new AppError('BAD_REQUEST', 'Invalid id', { id: ['id must be a positive whole number'] });
  return parsed.data;
}

/** The generic routes of a resource (spec §7), guarded by the permission table. */
export function crudRouter(service: CrudService): Router {
  const { resource } = service.config;
  const router = Router();
  const base = `/${resource.apiPath}`;

  route(router, 'get', base, async (req, res) => {
    res.json(await service.list(parseListQuery(resource, req.query)));
  });

  route(router, 'get', `${base}/:id`, async (req, res) => {
    res.json(await service.get(idParam(req.params.id)));
  });

  if (resource.readOnly) return router;

  route(router, 'post', base, async (req, res) => {
    res.status(201).json(await service.create(req.body, req.user!));
  });

  route(router, 'put', `${base}/:id`, async (req, res) => {
    res.json(await service.update(idParam(req.params.id), req.body, req.get('If-Match'), req.user!));
  });

  if (resource.deletable) {
    route(router, 'delete', `${base}/:id`, async (req, res) => {
      await service.remove(idParam(req.params.id), req.user!);
      res.status(204).end();
    });
  }

  return router;
}
