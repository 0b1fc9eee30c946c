import { createHash } from 'node:crypto';
import type { DbOrTx } from '@app/db';
import { layoutPdf } from '../files/pdf.js';
import { sanitizeFilename } from '../files/filename.js';
import { readStoredFile, storeFile, type StoredFile } from '../files/stored-files.js';
import type { Env } from '../../env.js';
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
 */
export async function createStoredPdf(
  ctx: { db: DbOrTx; env: Env },
  internalname: string,
  data: object,
  filename: string,
  userId: number | null,
): Promise<{ fileId: number; size: number; sha256: string }> {
  const buffer = await renderPdf(ctx, internalname, data);
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  const name = sanitizeFilename(filename.toLowerCase().endsWith('.pdf') ? filename : `${filename}.pdf`);
  const fileId = await storeFile(ctx.db, { filename: name, mimeType: 'application/pdf', size: buffer.length, sha256, buffer }, userId);
  return { fileId, size: buffer.length, sha256 };
}

/** A stored PDF, exactly as it was stored. */
export function readStoredPdf(db: DbOrTx, fileId: number): Promise<StoredFile | undefined> {
  return readStoredFile(db, fileId);
}
