import { eq, ilike, or, sql } from 'drizzle-orm';
import { AppError, contractFileActions, contractFileResource } from '@app/contracts';
import { contractFiles, contracts, fileTypes, storedFiles } from '@app/db';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, nextEditStamp } from '../../lib/crud/crud-service.js';
import { sanitizeFilename } from '../../lib/files/filename.js';
import { readStoredFile, storeFile } from '../../lib/files/stored-files.js';

const f = contractFiles;
const file = storedFiles;

export function contractFileModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx, {
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
      beforeCreate: (_tx, values) => ({ ...values, filename: sanitizeFilename(String(values.filename)) }),
    },
  });

  return defineModule(ctx, service, [
    recordAction(contractFileActions.upload, async (tx, actor, { id, row, file: uploaded }) => {
      if (!uploaded) throw new AppError('BAD_REQUEST', 'Choose a file to upload', { file: ['file is required'] });
      const fileId = await storeFile(tx, uploaded, actor.user.id);
      // The file this document had before is deleted by the database (trigger of migration 0005).
      await tx
        .update(f)
        .set({
          file_id: fileId,
          filename: uploaded.filename,
          uploaded_user: actor.user.id,
          uploaded_timestamp: sql`clock_timestamp()` as unknown as Date,
          edit_user: actor.user.id,
          edit_timestamp: nextEditStamp(f.edit_timestamp),
        })
        .where(eq(f.id, id));
      return { message: `"${uploaded.filename}", ${uploaded.size} bytes`, changes: { filename: { old: row.filename, new: uploaded.filename } } };
    }),
    recordAction(contractFileActions.download, async (tx, _actor, { id }) => {
      const [document] = await tx.select({ file_id: f.file_id }).from(f).where(eq(f.id, id));
      const stored = document?.file_id ? await readStoredFile(tx, document.file_id) : undefined;
      if (!stored) throw new AppError('NOT_FOUND', `Document ${id} has no file uploaded yet`);
      return { eventType: 'export', message: `"${stored.filename}"`, file: { filename: stored.filename, contentType: stored.mimeType, content: stored.content } };
    }),
  ]);
}
