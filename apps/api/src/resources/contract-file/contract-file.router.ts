import type { RequestHandler } from 'express';
import multer from 'multer';
import { eq, ilike, or, sql } from 'drizzle-orm';
import { AppError, contractFileResource, MAX_UPLOAD_BYTES } from '@app/contracts';
import { contractFiles, contracts, fileTypes } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { actorOf, crudRouter, idParam } from '../../lib/crud/crud-router.js';
import { recordEvent } from '../../lib/events/record.js';
import { sanitizeFilename } from '../../lib/files/filename.js';
import { route } from '../../lib/routes.js';

const f = contractFiles;

/** One file in the field `file`, held in memory up to the cap (it goes into PostgreSQL anyway). */
function singleUpload(field: string, maxBytes: number): RequestHandler {
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 10 } }).single(field);
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next(new AppError('BAD_REQUEST', 'Send the file as multipart/form-data', { file: ['file is required'] }));
      return;
    }
    upload(req, res, (err: unknown) => {
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') {
          next(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`));
        } else {
          next(new AppError('BAD_REQUEST', `Upload refused: ${err.message}`, { file: [err.message] }));
        }
        return;
      }
      next(err as Error | undefined);
    });
  };
}

export function contractFileRouter(ctx: AppContext) {
  const service = createCrudService(ctx.db, {
    resource: contractFileResource,
    table: f,
    columns: {
      id: f.id,
      contract_id: f.contract_id,
      student_id: contracts.student_id,
      ft_id: f.ft_id,
      file_type: fileTypes.name,
      description: f.description,
      filename: f.filename,
      size: f.size,
      mime_type: f.mime_type,
      uploaded: sql<boolean>`(${f.content} is not null)`,
      edit_timestamp: f.edit_timestamp,
    },
    joins: (q) => q.innerJoin(fileTypes, eq(fileTypes.id, f.ft_id)).innerJoin(contracts, eq(contracts.id, f.contract_id)),
    search: (term) => or(ilike(f.filename, likePattern(term)), ilike(f.description, likePattern(term))),
    filters: { contract_id: (v) => eq(f.contract_id, Number(v)) },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.contract_id) }),
    hooks: {
      beforeCreate: (values) => ({ ...values, filename: sanitizeFilename(String(values.filename)) }),
    },
  });
  const router = crudRouter(service);

  route(router, 'post', '/contract_files/:id/upload', singleUpload('file', MAX_UPLOAD_BYTES), async (req, res) => {
    const id = idParam(req.params.id);
    const file = req.file;
    if (!file) throw new AppError('BAD_REQUEST', 'Choose a file to upload', { file: ['file is required'] });
    const { user } = actorOf(req);
    // Busboy reads the part's file name as latin1; browsers send UTF-8.
    const filename = sanitizeFilename(Buffer.from(file.originalname, 'latin1').toString('utf8'));
    const row = await ctx.db.transaction(async (tx) => {
      const before = await service.get(id, tx);
      await tx
        .update(f)
        .set({
          content: file.buffer,
          size: file.size,
          mime_type: file.mimetype.slice(0, 150) || 'application/octet-stream',
          filename,
          uploaded_user: user.id,
          uploaded_timestamp: sql`clock_timestamp()` as unknown as Date,
          edit_user: user.id,
          edit_timestamp: sql`greatest(clock_timestamp(), ${f.edit_timestamp} + interval '1 millisecond')` as unknown as Date,
        })
        .where(eq(f.id, id));
      await recordEvent(tx, {
        type: 'update',
        userId: user.id,
        studentId: Number(before.student_id),
        contractId: Number(before.contract_id),
        resource: contractFileResource.key,
        recordId: id,
        message: `Uploaded document "${filename}" (${file.size} bytes)`,
      });
      return service.get(id, tx);
    });
    res.json({ ...row, filename });
  });

  route(router, 'post', '/contract_files/:id/download', async (req, res) => {
    const id = idParam(req.params.id);
    const [file] = await ctx.db
      .select({ filename: f.filename, mime_type: f.mime_type, content: f.content })
      .from(f)
      .where(eq(f.id, id));
    if (!file) throw new AppError('NOT_FOUND', `Document ${id} not found`);
    if (!file.content) throw new AppError('NOT_FOUND', `Document ${id} has no file uploaded yet`);
    // Express builds a safe Content-Disposition (quoted ASCII fallback plus RFC 5987 filename*).
    res.attachment(sanitizeFilename(file.filename));
    res.type(file.mime_type ?? 'application/octet-stream');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(file.content);
  });

  return router;
}
