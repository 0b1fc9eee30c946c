import type { RequestHandler, Router } from 'express';
import { apiPermissions } from '@app/contracts';
import { requireLevel } from './auth/middleware.js';
import { noQuery } from './input.js';

export type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Registers a route guarded by its entry in the one permission table. A route that is not in the
 * table cannot be registered: the server refuses to start. It takes no query parameters (any is a 400).
 */
export function route(router: Router, method: Method, path: string, ...handlers: RequestHandler[]): void {
  register(router, method, path, [noQuery, ...handlers]);
}

/** A route that reads its query (a list): the handler checks every parameter against its schema. */
export function queryRoute(router: Router, method: Method, path: string, ...handlers: RequestHandler[]): void {
  register(router, method, path, handlers);
}

function register(router: Router, method: Method, path: string, handlers: RequestHandler[]): void {
  const key = `${method.toUpperCase()} ${path}`;
  const access = apiPermissions[key];
  if (!access) throw new Error(`${key} is missing from the permission table (packages/contracts/src/auth/permissions.ts)`);
  const guard = access === 'public' ? [] : [requireLevel(access)];
  router[method](path, ...guard, ...handlers);
}
