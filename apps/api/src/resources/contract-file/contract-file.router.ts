import { eq, ilike, or, sql } from 'drizzle-orm';
import { AppError, contractFileResource, DOCUMENT_FILE_KINDS, MAX_UPLOAD_BYTES } from '@app/contracts';
import { contractFiles, contracts, fileTypes, storedFiles } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { actorOf, crudRouter, idParam } from '../../lib/crud/crud-router.js';
import { recordEvent } from '../../lib/events/record.js';
import { sendFile } from '../../lib/files/download.js';
import { sanitizeFilename } from '../../lib/files/filename.js';
import { readStoredFile, storeFile } from '../../lib/files/stored-files.js';
import { acceptUpload, uploadOf } from '../../lib/files/upload.js';
import { route } from '../../lib/routes.js';

const f = contractFiles;
const file = storedFiles;

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
      size: file.size,
      mime_type: file.mime_type,
      uploaded: sql<boolean>`(${f.file_id} is not null)`,
      edit_timestamp: f.edit_timestamp,
    },
    joins: (q) =>
      q
        .innerJoin(fileTypes, eq(fileTypes.id, f.ft_id))
        .innerJoin(contracts, eq(contracts.id, f.contract_id))
        .leftJoin(file, eq(file.id, f.file_id)),
    search: (term) => or(ilike(f.filename, likePattern(term)), ilike(f.description, likePattern(term))),
    filters: { contract_id: (v) => eq(f.contract_id, Number(v)) },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.contract_id) }),
    hooks: {
      beforeCreate: (values) => ({ ...values, filename: sanitizeFilename(String(values.filename)) }),
    },
  });
  const router = crudRouter(service);

  const upload = acceptUpload({ field: 'file', maxBytes: MAX_UPLOAD_BYTES, types: DOCUMENT_FILE_KINDS });

  route(
    router,
    'post',
    '/contract_files/:id/upload',
    // An unknown document is a 404 before any of the body is read.
    async (req, _res, next) => {
      await service.get(idParam(req.params.id));
      next();
    },
    upload,
    async (req, res) => {
      const id = idParam(req.params.id);
      const { file: uploaded } = uploadOf(req);
      const { user } = actorOf(req);
      const row = await ctx.db.transaction(async (tx) => {
        const before = await service.get(id, tx);
        const fileId = await storeFile(tx, uploaded, user.id);
        // The file this document had before is deleted by the database (trigger of migration 0005).
        await tx
          .update(f)
          .set({
            file_id: fileId,
            filename: uploaded.filename,
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
          message: `Uploaded document "${uploaded.filename}" (${uploaded.size} bytes)`,
        });
        return service.get(id, tx);
      });
      res.json(row);
    },
  );

  route(router, 'post', '/contract_files/:id/download', async (req, res) => {
    const id = idParam(req.params.id);
    const [document] = await ctx.db.select({ file_id: f.file_id }).from(f).where(eq(f.id, id));
    if (!document) throw new AppError('NOT_FOUND', `Document ${id} not found`);
    const stored = document.file_id === null ? undefined : await readStoredFile(ctx.db, document.file_id);
    if (!stored) throw new AppError('NOT_FOUND', `Document ${id} has no file uploaded yet`);
    sendFile(res, { filename: stored.filename, mimeType: stored.mimeType, content: stored.content });
  });

  return router;
}
