import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { Express } from 'express';
import ExcelJS from 'exceljs';

/** Small real files, recognisable by their content (each one unique, so hashes differ). */
export const sample = {
  pdf: () => Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%'), randomBytes(16), Buffer.from('\n%%EOF\n')]),
  /** A 1×1 PNG, with bytes after its end (which viewers ignore) to make it unique. */
  png: () =>
    Buffer.concat([
      Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
      randomBytes(16),
    ]),
  /** A Windows executable: "MZ" header. */
  exe: () => Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), randomBytes(64)]),
  xlsx: async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Grades').addRow(['Łukasz', randomBytes(4).toString('hex')]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  },
};

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A multipart/form-data body written by hand, so it can be as broken as a test needs. */
export function multipartBody(boundary: string, parts: { name: string; filename?: string; type?: string; content: string | Buffer }[], end = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  if (end) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** The app on a loopback port of its own (closed after the file's tests), for requests supertest cannot make. */
export async function listen(app: Express): Promise<number> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

export interface StreamedAnswer {
  status: number;
  body: { message?: string; errors?: Record<string, string[]> };
  connection: string | undefined;
  /** Bytes of the body the client had written when the answer's head arrived. */
  sentBeforeAnswer: number;
  /** Whether the server closed the connection (while the client was still willing to send). */
  closedByServer: boolean;
}

/**
 * POSTs `head`, then keeps sending `filler` chunks (respecting backpressure) until the server answers or
 * `maxBytes` were sent; the body is never held in memory. The client stops writing when the answer arrives.
 */
export function streamUpload(options: {
  port: number;
  path: string;
  headers: Record<string, string | number>;
  head: Buffer;
  filler?: Buffer;
  maxBytes: number;
  /** Whether to end the request after `maxBytes` (not when a longer Content-Length was declared). */
  end?: boolean;
}): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answered = false;
    let closedByServer = false;
    const req = http.request({ host: '127.0.0.1', port: options.port, method: 'POST', path: options.path, headers: options.headers });
    // Writes after the server closed fail with EPIPE/ECONNRESET: expected once it has answered.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.on('socket', (socket) => socket.on('close', () => (closedByServer = answered || closedByServer)));
    req.on('response', (res) => {
      answered = true;
      sentBeforeAnswer = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as StreamedAnswer['body']) : {},
            connection: res.headers.connection,
            sentBeforeAnswer,
            closedByServer,
          });
        // Give the server's close a moment to arrive.
        if (req.socket?.destroyed) finish();
        else req.socket?.once('close', finish);
        setTimeout(finish, 2000);
      });
    });
    const write = () => {
      while (!answered && sent < options.maxBytes) {
        const chunk = sent === 0 ? options.head : options.filler;
        if (!chunk) return;
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered && options.end !== false) req.end();
    };
    write();
  });
}

/** The text of a PDF as `pdftotext` (poppler-utils, an independent reader) reads it, laid out as printed. */
export const pdfText = (pdf: Buffer): string => execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
