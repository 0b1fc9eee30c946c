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
  const parse = express.json({ limit: limitBytes });
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${sizeText(limitBytes)}`);
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
      next((err as BodyParserError | undefined)?.type === 'entity.too.large' ? tooLarge() : err);
    });
  };
}
