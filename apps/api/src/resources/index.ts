import type { Router } from 'express';
import type { AppContext } from '../lib/context.js';
import { countryRouter } from './country/country.router.js';

/** The one route list: every resource router mounted under /api/v1.0. */
export function resourceRouters(ctx: AppContext): Router[] {
  return [countryRouter(ctx)];
}
