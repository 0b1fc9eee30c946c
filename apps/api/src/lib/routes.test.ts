import { describe, expect, it } from 'vitest';
import express, { Router, type Request, type Response } from 'express';
import request from 'supertest';
import { onItsPaths } from './routes.js';

const routerOf = (...paths: string[]) => {
  const router = Router();
  for (const path of paths) router.get(path, (req, res) => void res.json({ path, params: req.params }));
  return router;
};

describe('onItsPaths', () => {
  it('passes a request its routes cannot match on at once, without asking the router', () => {
    const guarded = onItsPaths(routerOf('/alpha/:id', '/alpha'));
    let passed = false;
    // An unguarded router that matches nothing calls next only on a later turn of the event loop.
    guarded({ path: '/beta/1' } as Request, {} as Response, () => void (passed = true));
    expect(passed).toBe(true);
  });

  it('leaves a router that has more than routes of fixed first segments as it is', () => {
    const withUse = routerOf('/alpha');
    withUse.use((_req, _res, next) => next());
    expect(onItsPaths(withUse)).toBe(withUse);
    const byParameter = routerOf('/:anything/x');
    expect(onItsPaths(byParameter)).toBe(byParameter);
  });

  it('routes every request as the routers alone would', async () => {
    const app = express();
    app.use(onItsPaths(routerOf('/alpha/:id', '/alpha')));
    app.use(onItsPaths(routerOf('/beta/', '/')));
    app.use((_req, res) => void res.status(404).json({ path: 'none' }));
    expect((await request(app).get('/alpha/7')).body).toEqual({ path: '/alpha/:id', params: { id: '7' } });
    expect((await request(app).get('/alpha?x=1')).body.path).toBe('/alpha');
    expect((await request(app).get('/beta')).body.path).toBe('/beta/');
    expect((await request(app).get('/')).body.path).toBe('/');
    expect((await request(app).get('/gamma')).status).toBe(404);
    expect((await request(app).get('/alphabet')).status).toBe(404);
  });
});
