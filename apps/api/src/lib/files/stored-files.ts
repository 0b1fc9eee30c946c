import { eq } from 'drizzle-orm';
import { storedFiles, type DbOrTx } from '@app/db';
import type { UploadedFile } from './upload.js';

/** A file to keep: an upload, or (later) a generated PDF or import result. */
export type FileToStore = Pick<UploadedFile, 'filename' | 'mimeType' | 'size' | 'sha256' | 'buffer'>;

export interface StoredFile {
  id: number;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  content: Buffer;
}

/**
 * Keeps a file's bytes in `stored_files` (the one place any file lives) and answers its id. Pass the
 * transaction of the record that will point at it, so the two are committed together or not at all.
 */
export async function storeFile(tx: DbOrTx, file: FileToStore, userId: number | null): Promise<number> {
  const [row] = await tx
    .insert(storedFiles)
    .values({
      filename: file.filename,
      mime_type: file.mimeType,
      size: file.size,
      sha256: file.sha256,
      content: file.buffer,
      created_user: userId,
    })
    .returning({ id: storedFiles.id });
  return row!.id;
}

/** A stored file with its bytes, or undefined. */
export async function readStoredFile(db: DbOrTx, id: number): Promise<StoredFile | undefined> {
  const [row] = await db
    .select({
      id: storedFiles.id,
      filename: storedFiles.filename,
      mimeType: storedFiles.mime_type,
      size: storedFiles.size,
      sha256: storedFiles.sha256,
      content: storedFiles.content,
    })
    .from(storedFiles)
    .where(eq(storedFiles.id, id));
  return row;
}
