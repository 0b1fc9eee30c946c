import type { Response } from 'express';
import { sanitizeFilename } from './filename.js';

/**
 * Answers a file as a download: Express builds a safe Content-Disposition (a quoted ASCII fallback plus the
 * RFC 5987 UTF-8 `filename*`), and the type is never sniffed by the browser.
 */
export function sendFile(res: Response, file: { filename: string; mimeType: string; content: Buffer }): void {
  res.attachment(sanitizeFilename(file.filename));
  res.type(file.mimeType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(file.content);
}
