import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import express, { Router, type RequestHandler } from 'express';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { API_BASE } from '@app/contracts';
import type { AppContext } from './lib/context.js';
import { authenticate } from './lib/auth/middleware.js';
import { authRouter } from './lib/auth/auth.router.js';
import { configRouter } from './lib/config/config.router.js';
import { recordRefusals } from './lib/auth/refusals.js';
import { errorHandler, notFoundRoute } from './lib/errors.js';
import { templateFailureRecorder } from './lib/templates/store.js';
import { healthRouter } from './lib/health.js';
import { cleanRequest } from './lib/input.js';
import { compressedJson } from './lib/json-answer.js';
import { jsonBody } from './lib/json-body.js';
import { httpLogSerializers } from './lib/logger.js';
import { openApiDocument } from './lib/openapi.js';
import { onItsPaths, route } from './lib/routes.js';
import type { ResourceModule } from './lib/actions/module.js';
import { resourceModules, resourceRouters } from './resources/index.js';

export type { AppContext } from './lib/context.js';

/** Largest JSON request body (bytes): records and selections are small; files come as multipart. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The API under /api/v1.0: body parsing, authentication, every route, and the error handler. */
export function apiRouter(ctx: AppContext, modules: readonly ResourceModule[]): Router {
  const api = Router();
  api.use(jsonBody(JSON_BODY_LIMIT));
  api.use(cleanRequest);
  api.use(cookieParser());
  api.use(authenticate(ctx));
  api.use(recordRefusals(ctx));
  api.use(templateFailureRecorder(ctx.db));
  api.use(authRouter(ctx));
  api.use(configRouter(ctx));
  const openApi = openApiDocument();
  route(api, 'get', '/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  for (const router of resourceRouters(ctx, modules)) api.use(onItsPaths(router));
  api.use(notFoundRoute);
  api.use(errorHandler);
  return api;
}

/**
 * The built SPA: each file as brotli or gzip compressed at build time when the browser takes it; hashed assets
 * (`/assets/name-hash.js`) cached for a year, as they never change under their name; everything else, index.html
 * first, checked again on every load so a new release is picked up at once. Source maps are not built.
 */
function webApp(webDist: string): RequestHandler {
  return expressStaticGzip(webDist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: 'index.html',
    serveStatic: {
      setHeaders: (res, file) => {
        const hashed = file.startsWith(path.join(webDist, 'assets') + path.sep);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    },
  });
}

/**
 * Builds the whole application (no listen): API, and the built SPA when present. The resource modules are
 * the ones the process's job workers use too.
 */
export function createApp(ctx: AppContext, modules: readonly ResourceModule[] = resourceModules(ctx)): express.Express {
  const app = express();
  app.disable('x-powered-by');
  if (ctx.env.TRUST_PROXY !== undefined) app.set('trust proxy', ctx.env.TRUST_PROXY);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Mantine sets inline styles; scripts stay same-origin only.
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'upgrade-insecure-requests': null,
          'frame-ancestors': ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // Only what identifies a request (secrets in the URL masked): never cookies, tokens or bodies.
      serializers: httpLogSerializers,
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );

  app.use(healthRouter(ctx));
  // Answers hold personal and bank data (the login's token too): no browser or proxy may keep a copy.
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Answers compressed (brotli, or gzip): a page of 50 students shrinks twentyfold. Quality 1: on that page
  // (51 kB) it takes 0.12 ms against 1.0 ms at the library's default 4, for 8 % more bytes. JSON up to 1 MB is
  // compressed in one call (compressedJson), the rest by the middleware's stream. Files (xlsx, PDFs) are
  // compressed already and pass as they are.
  app.use('/api', compression({ brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } } }), compressedJson);
  app.use(API_BASE, apiRouter(ctx, modules));
  app.use('/api', notFoundRoute, errorHandler);

  const webDist = ctx.env.WEB_DIST;
  if (existsSync(path.join(webDist, 'index.html'))) {
    app.use(webApp(webDist));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text').send('The web app is not built yet: run "pnpm build" (or "pnpm start", which builds it).');
    });
  }
  app.use(errorHandler);
  return app;
}
