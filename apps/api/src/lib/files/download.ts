import type { Response } from 'express';
import { sanitizeFilename } from './filename.js';

/** RFC 5987 value characters (attr-char) that need no percent-encoding; encodeURIComponent leaves a few more. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `attachment` with a plain ASCII `filename` for old clients and the exact UTF-8 name in RFC 5987 `filename*`
 * (which every current browser prefers). The name is sanitised first, so CR, LF and quotes can never reach the
 * header; the fallback replaces everything outside printable ASCII (and `"` and `\`) with `_`.
 */
export function contentDisposition(filename: string): string {
  const name = sanitizeFilename(filename);
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}

/** Names the answer a download of `filename`, with the same safe header as every file (never Express's `?` fallback). */
export function setAttachment(res: Response, filename: string): void {
  res.setHeader('Content-Disposition', contentDisposition(filename));
}

/**
 * Answers a stored file as a download: exact bytes, the stored type with `nosniff` (a browser must never
 * render an upload as HTML or script), and a safe Content-Disposition.
 */
export function sendFile(res: Response, file: { filename: string; mimeType: string; content: Buffer }): void {
  res.status(200);
  // Text is stored only as UTF-8 (upload.ts refuses other encodings): said so, or a browser guesses Windows-1252.
  const type = file.mimeType || 'application/octet-stream';
  res.setHeader('Content-Type', type.startsWith('text/') && !/charset=/i.test(type) ? `${type}; charset=utf-8` : type);
  res.setHeader('Content-Length', file.content.length);
  setAttachment(res, file.filename);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(file.content);
}
