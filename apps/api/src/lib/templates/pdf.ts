import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '@app/contracts';
import type { DbOrTx } from '@app/db';
import type { ActionOutcome } from '../actions/types.js';
import { layoutPdf } from '../files/pdf.js';
import { sanitizeFilename } from '../files/filename.js';
import { readStoredFile, storeFile, type StoredFile } from '../files/stored-files.js';
import type { Env } from '../../env.js';
import { inPreview } from '../preview-memory.js';
import type { DocumentText } from './formats.js';
import { officeOf, renderDocumentText, type TemplateContext } from './store.js';

/** A document's texts laid out as a PDF with the office's letterhead. */
export function pdfOf(env: Env, text: DocumentText): Promise<Buffer> {
  return layoutPdf(text, officeOf(env));
}

/**
 * The PDF of the document template `internalname` (its current text, uploaded or default) rendered with the
 * data: what invoices, credit notes and payment confirmations call (issues 13–15).
 */
export async function renderPdf(ctx: TemplateContext, internalname: string, data: object): Promise<Buffer> {
  return pdfOf(ctx.env, await renderDocumentText(ctx, internalname, data));
}

/**
 * Renders a PDF and keeps it in `stored_files` in the caller's transaction (the record that points at it is
 * written in the same one). A stored PDF is answered again byte for byte (`readStoredFile` + `sendFile`); it is
 * rendered again only by an explicit action.
 *
 * A preview's row renders the template's text, so a template that fails on the row's data refuses it as the run
 * would, but lays out no PDF: it keeps an empty file in its place, which the preview's rollback takes back
 * (decision 063). Laying out and storing were two thirds of a Create Invoice preview's time.
 */
export async function createStoredPdf(
  ctx: { db: DbOrTx; env: Env },
  internalname: string,
  data: object,
  filename: string,
  userId: number | null,
): Promise<{ fileId: number; size: number; sha256: string }> {
  const text = await renderDocumentText(ctx, internalname, data);
  const buffer = inPreview() ? Buffer.alloc(0) : await pdfOf(ctx.env, text);
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  const name = sanitizeFilename(filename.toLowerCase().endsWith('.pdf') ? filename : `${filename}.pdf`);
  const fileId = await storeFile(ctx.db, { filename: name, mimeType: 'application/pdf', size: buffer.length, sha256, buffer }, userId);
  return { fileId, size: buffer.length, sha256 };
}

/**
 * The stored file a record keeps in its `pdf_file_id` column (an invoice, a payment), without its bytes: what a
 * mail attaches (decision 065). Before one was created a 409 that says `missing`.
 */
export async function recordPdfFile(db: DbOrTx, fileIdColumn: AnyPgColumn, idColumn: AnyPgColumn, id: number, missing: string): Promise<{ id: number }> {
  const [found] = await db.select({ fileId: fileIdColumn }).from(fileIdColumn.table).where(eq(idColumn, id));
  const fileId = found?.fileId;
  if (fileId === null || fileId === undefined) throw new AppError('CONFLICT', missing);
  return { id: Number(fileId) };
}

/** The PDF a record keeps in its `pdf_file_id` column, exactly as stored; before one was created a 409 that says `missing`. */
export async function recordPdf(db: DbOrTx, fileIdColumn: AnyPgColumn, idColumn: AnyPgColumn, id: number, missing: string): Promise<StoredFile> {
  const stored = await readStoredFile(db, (await recordPdfFile(db, fileIdColumn, idColumn, id, missing)).id);
  if (!stored) throw new AppError('CONFLICT', missing);
  return stored;
}

/** A stored PDF as a record action's download (`download_pdf`), recorded as an export. */
export function pdfDownload(stored: StoredFile): ActionOutcome {
  return { eventType: 'export', message: `"${stored.filename}"`, file: { filename: stored.filename, contentType: stored.mimeType, content: stored.content } };
}
