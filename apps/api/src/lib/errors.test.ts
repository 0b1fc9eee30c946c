import express from 'express';
import request from 'supertest';
import { apiPermissions, AppError } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './errors.js';
import { setupTestApp } from '../test/app.js';
import { userWithToken } from '../test/factories.js';
import { listen, streamUpload } from '../test/files.js';

const t = await setupTestApp();
const admin = await userWithToken(t.app, t.db, 'Administrator');
const broken = await setupTestApp();

describe('error answers', () => {
  it('answers 400 JSON for a malformed JSON body', async () => {
    const res = await t
      .http()
      .post('/api/v1.0/countries')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Content-Type', 'application/json')
      .send('{"cntry_code": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body is not valid JSON' });
  });

  it('answers 400 for a JSON body that is not UTF-8, and stores nothing (no U+FFFD in place of what was sent)', async () => {
    // "Müller" in Latin-1: the ü is byte 0xFC, which UTF-8 cannot start a character with.
    const body = Buffer.concat([Buffer.from('{"cntry_code":"XLA","cntry_name":"M'), Buffer.from([0xfc]), Buffer.from('ller"}')]);
    const res = await t.http().post('/api/v1.0/countries').set('Authorization', `Bearer ${admin.token}`).set('Content-Type', 'application/json').serialize((b: Buffer) => b as unknown as string).send(body as unknown as object);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body is not valid UTF-8' });
    const listed = await t.http().get('/api/v1.0/countries?search=XLA').set('Authorization', `Bearer ${admin.token}`);
    expect(listed.body.data).toEqual([]);
  });

  it('answers 413 JSON for a body over the limit', async () => {
    const res = await t
      .http()
      .post('/api/v1.0/countries')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ cntry_code: 'BIG', cntry_name: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The request body is larger than 1 MB' });
  });

  it('answers 413 for a chunked body (no length) over the limit once it passes the limit', async () => {
    const port = await listen(t.app);
    const answer = await streamUpload({
      port,
      path: '/api/v1.0/countries',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json' },
      head: Buffer.from('{"cntry_code": "BIG", "cntry_name": "'),
      filler: Buffer.alloc(64 * 1024, 0x78),
      maxBytes: 2 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'The request body is larger than 1 MB' });
  });

  it('answers 413 for a declared length over the limit before the body is sent, and closes the connection', async () => {
    const port = await listen(t.app);
    const head = Buffer.from('{"cntry_code": "BIG", "cntry_name": "');
    const answer = await streamUpload({
      port,
      path: '/api/v1.0/countries',
      headers: { Authorization: `Bearer ${admin.token}`, 'Content-Type': 'application/json', 'Content-Length': 300 * 1024 * 1024 },
      head,
      maxBytes: head.length,
      end: false,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'The request body is larger than 1 MB' });
    expect(answer.connection).toBe('close');
    expect(answer.closedByServer).toBe(true);
    // The server serves the next request as usual.
    expect((await t.http().get('/api/v1.0/countries').set('Authorization', `Bearer ${admin.token}`)).status).toBe(200);
  });

  it('answers 400, not 500, for a request body that broke off or a busboy error that escaped', async () => {
    const raw = express();
    const errors: Record<string, unknown> = {
      aborted: Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400, expose: true }),
      short: Object.assign(new Error('request size did not match content length'), { type: 'request.size.invalid', status: 400, expose: true }),
      busboy: new Error('Unexpected end of form'),
      boundary: new Error('Multipart: Boundary not found'),
    };
    raw.get('/:name', (req) => {
      throw errors[req.params.name];
    });
    raw.use(errorHandler);
    for (const name of Object.keys(errors)) {
      const res = await request(raw).get(`/${name}`);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toEqual({ message: 'The request body is malformed or incomplete' });
    }
  });

  it('cuts off a file the database broke off once it has begun (a statement timeout mid-export), rather than throwing on its headers', async () => {
    const raw = express();
    const handled: unknown[] = [];
    raw.get('/export', (_req, res, next) => {
      res.setHeader('Content-Type', 'application/octet-stream');
      res.write('PK part of a file');
      next(new AppError('SERVICE_UNAVAILABLE', 'The database did not answer in time'));
    });
    raw.use(errorHandler);
    raw.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
      handled.push(err);
      next();
    });
    const cut = await request(raw)
      .get('/export')
      .then(() => 'complete', (e: Error) => e.message);
    // The client sees a download that broke off, not a whole file; the handler itself did not fail.
    expect(cut).not.toBe('complete');
    expect(handled).toEqual([]);
  });

  it('answers 404 JSON for unknown routes under /api', async () => {
    for (const path of ['/api/v1.0/nothing-here', '/api/v2/countries', '/api/v1.0/countries/1/unknown']) {
      const res = await t.http().get(path).set('Authorization', `Bearer ${admin.token}`);
      expect(res.status).toBe(404);
      expect(res.type).toBe('application/json');
      expect(res.body.message).toMatch(/^No such API route/);
    }
  });

  it('answers 403 when the role is too low', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    const res = await t.http().post('/api/v1.0/countries').set('Authorization', `Bearer ${reader.token}`).send({ cntry_code: 'RR', cntry_name: 'R' });
    expect(res.status).toBe(403);
  });

  it('answers every request with an X-Request-Id', async () => {
    const res = await t.http().get('/api/v1.0/auth/me');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    const given = await t.http().get('/api/v1.0/auth/me').set('X-Request-Id', 'trace-me-12345');
    expect(given.headers['x-request-id']).toBe('trace-me-12345');
  });

  it('answers a failure inside with a generic 500 carrying the request id, never a stack or SQL', async () => {
    const user = await userWithToken(broken.app, broken.db, 'Administrator');
    // A fault of ours, not of the database's availability (that is a 503): the query meets a table that is gone.
    await broken.pool.query('DROP TABLE countries CASCADE');
    const res = await broken.http().get('/api/v1.0/countries').set('Authorization', `Bearer ${user.token}`);
    expect(res.status).toBe(500);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'request_id']);
    expect(res.body.message).toBe('Internal server error');
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
    expect(res.text).not.toMatch(/select|at .*\.ts|pool|Error:/i);
  });
});

describe('version', () => {
  it('GET /config/version answers the version label', async () => {
    const res = await t.http().get('/api/v1.0/config/version').set('Authorization', `Bearer ${admin.token}`);
    expect(res.body).toEqual({ version: 'v2.0.51' });
  });
});

describe('OpenAPI document', () => {
  it('describes every route of the permission table with its level', async () => {
    const res = await t.http().get('/api/v1.0/openapi.json').set('Authorization', `Bearer ${admin.token}`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/countries/{id}'].put['x-required-level']).toBe('administrator');
    expect(res.body.paths['/countries'].post.requestBody.content['application/json'].schema.required).toEqual(['cntry_code', 'cntry_name']);
    expect(res.body.paths['/auth/login'].post['x-required-level']).toBe('public');
  });

  it('describes every action, batch and batch-run route with its request body and answer', async () => {
    const paths = (await t.http().get('/api/v1.0/openapi.json').set('Authorization', `Bearer ${admin.token}`)).body.paths;
    const count = Object.values(paths as Record<string, object>).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).toBe(Object.keys(apiPermissions).length);
    const markSent = paths['/contracts/{id}/mark_sent'].post;
    expect(markSent['x-required-level']).toBe('user');
    expect(markSent.responses['200'].content['application/json'].schema.properties).toHaveProperty('contract_sent_date');
    const batch = paths['/contracts/batch/update_status'].post;
    expect(batch.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['ids', 'contract_status_id']));
    expect(batch.responses['202'].content['application/json'].schema.properties).toHaveProperty('run_id');
    expect(paths['/contracts/{id}/update_status'].put.requestBody.content['application/json'].schema.properties.contract_status_id.maximum).toBe(6);
    expect(paths['/contracts/bulk_edit'].post['x-required-level']).toBe('administrator');
    expect(paths['/contracts/bulk_edit'].post.requestBody.content['application/json'].schema.properties.changes.properties).toHaveProperty('start_date');
    expect(paths['/contracts/download_report'].post.responses['200'].content).toHaveProperty('application/octet-stream');
    expect(paths['/contract_files/{id}/upload'].post.requestBody.content).toHaveProperty('multipart/form-data');
    expect(paths['/batch_runs/{id}'].get.responses['200'].content['application/json'].schema.properties.rows.type).toBe('array');
    expect(paths['/students'].get.responses['200'].content['application/json'].schema.properties.data.items.properties).toHaveProperty('last_name');
    for (const [path, methods] of Object.entries(paths as Record<string, Record<string, { requestBody?: unknown }>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const needsBody = method === 'put' || (method === 'post' && !path.startsWith('/batch_runs') && path !== '/auth/logout');
        if (needsBody) expect(operation.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
  });
});
