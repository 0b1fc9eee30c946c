import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError, type UploadSpec } from '@app/contracts';
import type { UploadedFile } from '../actions/types.js';
import { sanitizeFilename } from './filename.js';

/**
 * One file in the field the spec names, held in memory up to the cap (it goes into PostgreSQL anyway);
 * the route finds it in `res.locals.upload`.
 */
export function acceptUpload(spec: UploadSpec): RequestHandler {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: spec.maxBytes, files: 1, fields: 10 } }).single(spec.field);
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next(new AppError('BAD_REQUEST', 'Send the file as multipart/form-data', { [spec.field]: [`${spec.field} is required`] }));
      return;
    }
    upload(req, res, (err: unknown) => {
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') next(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(spec.maxBytes / 1024 / 1024)} MB`));
        else next(new AppError('BAD_REQUEST', `Upload refused: ${err.message}`, { [spec.field]: [err.message] }));
        return;
      }
      if (err) return next(err as Error);
      const file = req.file;
      if (!file) return next(new AppError('BAD_REQUEST', 'Choose a file to upload', { [spec.field]: [`${spec.field} is required`] }));
      const uploaded: UploadedFile = {
        // Busboy reads the part's file name as latin1; browsers send UTF-8.
        filename: sanitizeFilename(Buffer.from(file.originalname, 'latin1').toString('utf8')),
        mimeType: file.mimetype.slice(0, 150) || 'application/octet-stream',
        size: file.size,
        sha256: createHash('sha256').update(file.buffer).digest('hex'),
        buffer: file.buffer,
      };
      res.locals.upload = uploaded;
      next();
    });
  };
}
