import type { RequestHandler, Router } from 'express';
import { apiPermissions } from '@app/contracts';
import { requireLevel } from './auth/middleware.js';

export type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Registers a route guarded by its entry in the one permission table. A route that is not in the
 * table cannot be registered: the server refuses to start.
 */
export function route(router: Router, method: Method, path: string, ...handlers: RequestHandler[]): void {
  const key = `${method.toUpperCase()} ${path}`;
  const access = apiPermissions[key];
  if (!access) throw new Error(`${key} is missing from the permission table (packages/contracts/src/auth/permissions.ts)`);
  const guard = access === 'public' ? [] : [requireLevel(access)];
  router[method](path, ...guard, ...handlers);
}
