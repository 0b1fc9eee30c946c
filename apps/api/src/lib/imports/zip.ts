import yauzl from 'yauzl';
import { AppError } from '@app/contracts';

/**
 * Reading an uploaded zip (a .zip of bank-info sheets, and every .xlsx, which is a zip too) without trusting it
 * (issue 16): entry names with `..` or an absolute path and links are refused, the entry count, the total
 * uncompressed size and each entry's compression ratio are limited (zip bombs), sizes are counted while
 * inflating (an entry that lies about its size is stopped), and nothing is written to disk: the entries that
 * are read come back as buffers.
 */
export interface ZipLimits {
  /** Most entries (files and folders) the archive may list. */
  maxEntries: number;
  /** Most bytes all entries together may inflate to. */
  maxTotalBytes: number;
  /** Most bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Largest uncompressed ÷ compressed of an entry (deflate of ordinary data stays far below). */
  maxRatio: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 1000,
  maxTotalBytes: 100 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
  maxRatio: 200,
};

/**
 * An .xlsx read as an import (decision 053): its parts are held in memory by the spreadsheet reader, many times
 * their size, so a sheet may unpack to far less than an archive of sheets. 2,000 rows of 60 columns are a few MB.
 */
export const XLSX_LIMITS: ZipLimits = { ...ZIP_LIMITS, maxTotalBytes: 32 * 1024 * 1024, maxEntryBytes: 16 * 1024 * 1024 };

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const refuse = (text: string) => new AppError('BAD_REQUEST', `file: ${text}`, { file: [text] });

/** The type bits of a Unix mode (kept in the upper half of the external attributes when made on Unix). */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Whether a name is safe to hold: relative, without `..` segments or backslashes, no drive letter, no NUL. */
export function safeEntryName(name: string): boolean {
  if (name === '' || name.includes('\0') || name.includes('\\')) return false;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return false;
  return !name.split('/').some((segment) => segment === '..');
}

function open(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are checked here, so the refusal can say which entry; yauzl's own check would stop with its message.
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(refuse('not a readable zip archive')) : resolve(zip),
    );
  });
}

function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  // Bit 11: the name is UTF-8; otherwise CP437, of which ASCII is the part a safe name needs.
  return (entry.generalPurposeBitFlag & 0x800) !== 0 ? raw.toString('utf8') : raw.toString('latin1');
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, cap: number, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) {
        reject(refuse(`the entry "${name}" cannot be read`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > cap) {
          stream.destroy();
          reject(refuse(`the entry "${name}" is larger than it says (a zip bomb?)`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', () => reject(refuse(`the entry "${name}" is damaged`)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Checks every entry of the archive against the rules and limits and reads those `wanted` picks (by name), in
 * memory. Any breach refuses the whole file with a 400 naming it; nothing has been done with it then.
 */
export async function readZip(buffer: Buffer, wanted: (name: string) => boolean, limits: ZipLimits = ZIP_LIMITS): Promise<ZipEntry[]> {
  const zip = await open(buffer);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw refuse(`the archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`);
  }
  const out: ZipEntry[] = [];
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(refuse('not a readable zip archive')));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const name = entryName(entry);
          if (!safeEntryName(name)) throw refuse(`the entry "${name}" points outside the archive`);
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          if (mode === S_IFLNK) throw refuse(`the entry "${name}" is a link`);
          if (entry.isEncrypted()) throw refuse(`the entry "${name}" is encrypted`);
          total += entry.uncompressedSize;
          const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
          if (entry.uncompressedSize > limits.maxEntryBytes) throw refuse(`the entry "${name}" unpacks to more than ${mb(limits.maxEntryBytes)} MB`);
          if (total > limits.maxTotalBytes) throw refuse(`the archive unpacks to more than ${mb(limits.maxTotalBytes)} MB (a zip bomb?)`);
          if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio) {
            throw refuse(`the entry "${name}" is compressed more than ${limits.maxRatio} times (a zip bomb?)`);
          }
          if (!name.endsWith('/') && wanted(name)) out.push({ name, data: await readEntry(zip, entry, entry.uncompressedSize, name) });
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return out;
}
