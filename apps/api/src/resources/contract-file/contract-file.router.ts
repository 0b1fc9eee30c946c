import { eq, ilike, or, sql } from 'drizzle-orm';
import { AppError, contractFileActions, contractFileResource } from '@app/contracts';
import { contractFiles, contracts, fileTypes } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, nextEditStamp } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { recordAction } from '../../lib/actions/types.js';
import { sanitizeFilename } from '../../lib/files/filename.js';

const f = contractFiles;

export function contractFileModule(ctx: AppContext): ResourceModule {
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
      beforeCreate: (_tx, values) => ({ ...values, filename: sanitizeFilename(String(values.filename)) }),
    },
  });

  return defineModule(ctx, service, [
    recordAction(contractFileActions.upload, async (tx, actor, { id, row, file }) => {
      if (!file) throw new AppError('BAD_REQUEST', 'Choose a file to upload', { file: ['file is required'] });
      await tx
        .update(f)
        .set({
          content: file.buffer,
          size: file.size,
          mime_type: file.mimeType,
          filename: file.filename,
          uploaded_user: actor.user.id,
          uploaded_timestamp: sql`clock_timestamp()` as unknown as Date,
          edit_user: actor.user.id,
          edit_timestamp: nextEditStamp(f.edit_timestamp),
        })
        .where(eq(f.id, id));
      return { message: `"${file.filename}", ${file.size} bytes`, changes: { filename: { old: row.filename, new: file.filename } } };
    }),
    recordAction(contractFileActions.download, async (tx, _actor, { id }) => {
      const [stored] = await tx.select({ filename: f.filename, mime_type: f.mime_type, content: f.content }).from(f).where(eq(f.id, id));
      if (!stored?.content) throw new AppError('NOT_FOUND', `Document ${id} has no file uploaded yet`);
      return {
        eventType: 'export',
        message: `"${stored.filename}"`,
        file: { filename: stored.filename, contentType: stored.mime_type ?? 'application/octet-stream', content: stored.content },
      };
    }),
  ]);
}
