import express, { type RequestHandler } from 'express';
import { AppError } from '@app/contracts';
import { sizeText } from './files/upload.js';

interface BodyParserError {
  type?: string;
}

/**
 * JSON bodies up to `limitBytes`. body-parser answers a larger body only after reading all of it; a body whose
 * declared length is already too large is answered 413 at once instead, and its connection closed unread.
 * (A chunked body without a length is still drained by body-parser before its 413.)
 */
export function jsonBody(limitBytes: number): RequestHandler {
  // A body that is not UTF-8 would be read with U+FFFD in place of what was sent, and stored so: refused instead
  // (JSON is UTF-8, RFC 8259; decision 060).
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const parse = express.json({ limit: limitBytes, verify: (_req, _res, buf) => void utf8.decode(buf) });
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${sizeText(limitBytes)}`);
  const notUtf8 = () => new AppError('BAD_REQUEST', 'The request body is not valid UTF-8');
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    // A compressed body's length says nothing sure about the inflated size: left to body-parser.
    if (req.is('application/json') && !req.headers['content-encoding'] && declared > limitBytes) {
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.destroy());
      next(tooLarge());
      return;
    }
    parse(req, res, (err?: unknown) => {
      const type = (err as BodyParserError | undefined)?.type;
      next(type === 'entity.too.large' ? tooLarge() : type === 'entity.verify.failed' ? notUtf8() : err);
    });
  };
}
