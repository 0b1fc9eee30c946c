import http from 'node:http';
import { describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { FILE_KINDS } from '@app/contracts';
import { errorHandler } from '../errors.js';
import { listen, multipartBody, sample, sha256 } from '../../test/files.js';
import { contentDisposition } from './download.js';
import { acceptUpload, uploadOf } from './upload.js';

/** The middleware on its own, with a small cap and one declared text field, answering what it handed over. */
const CAP = 1000;
const app = express();
app.post('/upload', acceptUpload({ field: 'file', maxBytes: CAP, types: [FILE_KINDS.pdf, FILE_KINDS.text], fields: ['note'] }), (req, res) => {
  const { file, fields } = uploadOf(req);
  res.json({ filename: file.filename, mimeType: file.mimeType, size: file.size, sha256: file.sha256, bodyHash: sha256(file.buffer), fields });
});
app.use(errorHandler);

const pdfOf = (size: number) => {
  const head = Buffer.from('%PDF-1.4\n');
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
};

describe('acceptUpload', () => {
  it('accepts a file of exactly the cap and hands over its name, type, size and hash', async () => {
    const pdf = pdfOf(CAP);
    const res = await request(app).post('/upload').attach('file', pdf, { filename: 'Zeugnis.pdf', contentType: 'text/html' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ filename: 'Zeugnis.pdf', mimeType: 'application/pdf', size: CAP, sha256: sha256(pdf), bodyHash: sha256(pdf), fields: {} });
  });

  it('answers 413 for one byte over the cap', async () => {
    const res = await request(app).post('/upload').attach('file', pdfOf(CAP + 1), { filename: 'a.pdf' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The file is larger than 1000 bytes', errors: { file: ['larger than 1000 bytes'] } });
  });

  it('reads a file name as browsers escape it (%22 for ", %0D and %0A): stored as the user’s name, made safe', async () => {
    const boundary = 'b0undary';
    const body = multipartBody(boundary, [{ name: 'file', filename: 'Vertrag %22final%22 100%25.pdf', content: pdfOf(100) }]);
    const res = await request(app).post('/upload').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.filename).toBe('Vertrag _final_ 100%25.pdf');
  });

  it('hands over a declared text field, before or after the file', async () => {
    const boundary = 'b0undary';
    for (const parts of [
      [{ name: 'note', content: 'für Akte' }, { name: 'file', filename: 'n.txt', content: 'Notiz' }],
      [{ name: 'file', filename: 'n.txt', content: 'Notiz' }, { name: 'note', content: 'für Akte' }],
    ]) {
      const res = await request(app).post('/upload').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(multipartBody(boundary, parts));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ filename: 'n.txt', mimeType: 'text/plain', fields: { note: 'für Akte' } });
    }
  });

  it('refuses a declared text field that is too long, naming it', async () => {
    const boundary = 'b0undary';
    const body = multipartBody(boundary, [{ name: 'note', content: 'x'.repeat(1001) }, { name: 'file', filename: 'a.pdf', content: pdfOf(100) }]);
    const res = await request(app).post('/upload').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'note: longer than 1000 bytes', errors: { note: ['longer than 1000 bytes'] } });
  });

  it('refuses a text field holding NUL, naming it, and hands over text fields in NFC', async () => {
    const boundary = 'b0undary';
    const send = (note: string) =>
      request(app)
        .post('/upload')
        .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
        .send(multipartBody(boundary, [{ name: 'note', content: note }, { name: 'file', filename: 'a.pdf', content: pdfOf(100) }]));
    const nul = await send('a\u0000b');
    expect(nul.status).toBe(400);
    expect(nul.body.errors).toEqual({ note: ['must not contain a NUL character'] });
    expect((await send('Co\u0301te')).body.fields).toEqual({ note: 'C\u00f3te' });
  });

  it('reads a UTF-8 file name as UTF-8, and an RFC 5987 filename* too', async () => {
    const name = 'Łukasz_Wiśniewski_ü.pdf';
    const utf8 = await request(app).post('/upload').attach('file', sample.pdf(), { filename: name });
    expect(utf8.body.filename).toBe(name);
    const boundary = 'b0undary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(name)}\r\n\r\n`),
      sample.pdf(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const starred = await request(app).post('/upload').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expect(starred.body.filename).toBe(name);
  });

  it('keeps the connection open after refusing a body it read to the end', async () => {
    const port = await listen(app);
    const boundary = 'b0undary';
    const body = multipartBody(boundary, [{ name: 'file', filename: 'a.pdf', content: Buffer.from([0, 1, 2]) }]);
    const answer = await new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/upload',
          agent: new http.Agent({ keepAlive: true }),
          headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toMatch(/^file: "a.pdf" \(not recognisable from its content\) is not an allowed type/);
    expect(answer.connection).toBe('keep-alive');
  });
});

describe('contentDisposition', () => {
  it('keeps CR, LF, quotes and backslashes out of the header and the exact name in filename*', () => {
    for (const name of ['a\r\nSet-Cookie: x=1.pdf', 'say "hi".pdf', 'back\\slash.pdf', '100% sure.pdf', 'tab\there.pdf']) {
      const header = contentDisposition(name);
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+$/);
      expect(header).not.toMatch(/[\r\n]/);
      expect(header.slice(header.indexOf('filename="') + 10, header.indexOf('";'))).not.toMatch(/["\\%]/);
    }
  });

  it('transliterates accents in the ASCII fallback and percent-encodes UTF-8 in filename*', () => {
    expect(contentDisposition('Übersicht José.pdf')).toBe(`attachment; filename="Ubersicht Jose.pdf"; filename*=UTF-8''${encodeURIComponent('Übersicht José.pdf')}`);
    expect(contentDisposition("it's (final)*.pdf")).toBe(`attachment; filename="it's (final)_.pdf"; filename*=UTF-8''it%27s%20%28final%29_.pdf`);
  });
});
