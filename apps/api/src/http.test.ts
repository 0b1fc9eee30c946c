import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from './test/app.js';
import { userWithToken } from './test/factories.js';

// A built web app as `vite build` and scripts/precompress.mjs leave it.
const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><script src="/assets/index-AbC123.js"></script>');
writeFileSync(path.join(dist, 'assets/index-AbC123.js'), script);
writeFileSync(path.join(dist, 'assets/index-AbC123.js.br'), brotliCompressSync(script));
writeFileSync(path.join(dist, 'assets/index-AbC123.js.gz'), gzipSync(script));

const t = await setupTestApp({ WEB_DIST: dist });
let token = '';
beforeAll(async () => {
  ({ token } = await userWithToken(t.app, t.db, 'Reader'));
  await t.pool.query(`insert into countries (cntry_code, cntry_name) select 'Q' || chr(65 + n / 26) || chr(65 + n % 26), 'Country ' || n from generate_series(0, 149) n`);
});

/** An answer's status, headers and raw bytes, over a real socket (supertest would decompress them and hide what was sent). */
async function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const server = t.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('the web app as served', () => {
  it('sends a hashed asset precompressed, brotli first, cached for a year as immutable', async () => {
    const br = await raw('/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    const gz = await raw('/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const plain = await raw('/assets/index-AbC123.js', { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('has index.html checked again on every load, so a new release shows at once', async () => {
    const res = await t.http().get('/');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('/assets/index-AbC123.js');
  });

  it('serves no source maps', async () => {
    expect((await t.http().get('/assets/index-AbC123.js.map')).status).toBe(404);
  });
});

describe('API answers', () => {
  it('are compressed when the client takes it, and never cached', async () => {
    const res = await raw('/api/v1.0/countries?per_page=200', { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(brotliDecompressSync(res.body).toString());
    expect(body.data.length).toBeGreaterThan(100);
  });

  it('follow the client\'s Accept-Encoding: gzip when brotli is refused, as they are when neither is taken or the answer is small', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const brotli = JSON.parse(brotliDecompressSync((await raw('/api/v1.0/countries?per_page=200', { ...auth, 'Accept-Encoding': 'br' })).body).toString());
    const gz = await raw('/api/v1.0/countries?per_page=200', { ...auth, 'Accept-Encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(brotli);
    const plain = await raw('/api/v1.0/countries?per_page=200', { ...auth, 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(brotli);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    const small = await raw('/api/v1.0/countries?per_page=1', { ...auth, 'Accept-Encoding': 'br' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).data).toHaveLength(1);
  });
});
