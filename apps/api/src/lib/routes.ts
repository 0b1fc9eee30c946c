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

/** The first segment of a path (`/contracts/12/create_pdf` → `contracts`). */
const firstSegment = (path: string) => path.split('/', 2)[1] ?? '';

/**
 * A router asked only for requests whose path starts with a segment one of its routes starts with. The API is a
 * chain of some forty routers (each resource's actions, own routes and CRUD); Express's router leaves one that
 * matches nothing through `setImmediate`, so a request for a resource late in the chain waited for dozens of turns
 * of the event loop before it reached its route, and more under load, as every turn also serves other sockets. A
 * router with anything but routes of fixed first segments (a `use`, a pattern) is asked for every request, as before.
 */
export function onItsPaths(router: Router): RequestHandler {
  const segments = new Set<string>();
  for (const layer of router.stack) {
    const path: unknown = layer.route?.path;
    if (typeof path !== 'string' || firstSegment(path).startsWith(':') || /[(*?+]/.test(firstSegment(path))) return router;
    segments.add(firstSegment(path));
  }
  const guarded: RequestHandler = (req, res, next) => (segments.has(firstSegment(req.path)) ? router(req, res, next) : next());
  // The router's routes stay listed where Express lists a mounted router's (the permission table's test reads them).
  return Object.assign(guarded, { stack: router.stack });
}
