import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, normaliseText, textProblem, type FileKind } from '@app/contracts';
import { sanitizeFilename } from './filename.js';

/** What an upload hands the route: the bytes, held in memory (they go into PostgreSQL anyway), and their facts. */
export interface UploadedFile {
  /** Sanitised, with an extension that matches the content. */
  filename: string;
  /** Recognised from the content; never what the client claimed. */
  mimeType: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  buffer: Buffer;
}

export interface Upload {
  file: UploadedFile;
  /** The small text fields the route declared and the client sent. */
  fields: Record<string, string>;
}

export interface UploadOptions {
  /** The one file field (default `file`). */
  field?: string;
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** Kinds of file accepted (recognised from the content). */
  types: readonly FileKind[];
  /** Names of small text fields the route takes besides the file; any other field is refused. */
  fields?: readonly string[];
}

/** A text field's value may not exceed this (they are names and comments, not content). */
const FIELD_VALUE_BYTES = 1000;
/** Part headers per part: a file part needs two (Content-Disposition, Content-Type). */
const PART_HEADER_PAIRS = 10;
/**
 * Room for the multipart framing around the file (boundaries, part headers of at most 16 KiB each, the few small
 * fields). A body longer than the file cap plus this cannot hold an acceptable file, whatever it carries.
 */
const FRAMING_BYTES = 256 * 1024;

/** 20971520 → "20 MB", for limits in messages. */
export function sizeText(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** Tab, LF, FF and CR are text; any other control character means the file is not plain text. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/** UTF-8 text without control characters: the one kind file-type cannot recognise (text has no signature). */
function isPlainText(buffer: Buffer): boolean {
  // Bytes below 0x80 are themselves in UTF-8, so latin1 decoding finds control bytes without a full decode.
  return isUtf8(buffer) && !CONTROL.test(buffer.toString('latin1'));
}

async function recognise(buffer: Buffer): Promise<{ mime: string; ext: string } | undefined> {
  try {
    const found = await fileTypeFromBuffer(buffer);
    if (found) return { mime: found.mime, ext: found.ext };
  } catch {
    // A damaged container (a broken zip, say) is simply not recognised.
  }
  return isPlainText(buffer) ? { mime: 'text/plain', ext: 'txt' } : undefined;
}

/**
 * Text in an encoding other than UTF-8 (Notepad's "Unicode" is UTF-16; older editors save Windows-1252): which,
 * when it is one of those. Such a file is refused by what to do about it, not as "audio/mpeg by its content".
 */
function otherTextEncoding(buffer: Buffer, recognised: boolean): string | undefined {
  // UTF-16's byte order mark passes for an MP3 frame: it is looked at before the content's kind.
  if (buffer.length >= 2 && ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff))) return 'UTF-16';
  if (!recognised && !isUtf8(buffer) && !CONTROL.test(buffer.toString('latin1'))) return 'Windows-1252 or Latin-1';
  return undefined;
}

/** The kind of the content, checked against the allowed kinds and the name's extension. */
/**
 * The file name as the user's file has it: browsers escape `"`, CR and LF in a multipart file name as %22, %0D and
 * %0A (the HTML form-data encoding), which would otherwise be stored as typed escapes (decision 060).
 */
export function formFilename(sent: string): string {
  return sent.replace(/%22|%0D|%0A/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
}

async function checkKind(buffer: Buffer, name: string, field: string, types: readonly FileKind[]): Promise<{ filename: string; kind: FileKind }> {
  const refuse = (text: string) => new AppError('BAD_REQUEST', `${field}: ${text}`, { [field]: [text] });
  const found = await recognise(buffer);
  const encoding = types.some((k) => k.mime === 'text/plain') ? otherTextEncoding(buffer, found !== undefined) : undefined;
  if (encoding) throw refuse(`"${name}" is text in ${encoding}, not UTF-8: save it as UTF-8 (in Notepad: Save as, Encoding UTF-8) and upload it again`);
  const kind = found && types.find((k) => k.mime === found.mime);
  if (!kind) {
    const what = found ? `${found.mime} by its content` : 'not recognisable from its content';
    throw refuse(`"${name}" (${what}) is not an allowed type (allowed: ${types.map((k) => k.label).join(', ')})`);
  }
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  // A name without an extension gets the content's; a different one is refused, because the file would then
  // open in the wrong program (or pass for something it is not).
  if (extension === '') return { filename: sanitizeFilename(`${name}.${kind.extensions[0]}`), kind };
  if (!kind.extensions.includes(extension)) {
    throw refuse(`"${name}" is ${kind.label} by its content; its name must end in ${kind.extensions.map((e) => `.${e}`).join(' or ')}`);
  }
  return { filename: name, kind };
}

/**
 * One multipart/form-data file upload, through busboy: exactly one file in `field`, only the declared small
 * text fields, the size cap counted while streaming. Every malformed or unwanted body is a 400 naming the field,
 * a file over the cap a 413 answered at once without reading the rest. The route gets `req.upload`.
 */
export function acceptUpload(options: UploadOptions): RequestHandler {
  const field = options.field ?? 'file';
  const known = new Set(options.fields ?? []);
  const maxBytes = options.maxBytes;
  const maxBody = maxBytes + FRAMING_BYTES;
  const bad = (text: string, name = field) => new AppError('BAD_REQUEST', `${name}: ${text}`, { [name]: [text] });
  const tooLarge = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${sizeText(maxBytes)}`, { [field]: [`larger than ${sizeText(maxBytes)}`] });

  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next(bad(`send the file as multipart/form-data in the field "${field}"`));
      return;
    }
    // A declared length says at once that the body is too large: answered before a byte of it is read.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBody) {
      stopReading();
      next(tooLarge());
      return;
    }

    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // Browsers send the file name as raw UTF-8 bytes; busboy would read them as latin1.
        defParamCharset: 'utf8',
        limits: {
          files: 1,
          // One more than declared, so an unknown field reaches the 'field' event and is refused by its name.
          fields: known.size + 1,
          parts: known.size + 2,
          fieldSize: FIELD_VALUE_BYTES,
          headerPairs: PART_HEADER_PAIRS,
          // busboy reports the limit when a file reaches it, so one byte more lets a file of exactly maxBytes pass.
          fileSize: maxBytes + 1,
        },
      });
    } catch {
      // No boundary, or a Content-Type busboy cannot parse.
      next(bad(`the multipart/form-data body has no valid boundary; send the file in the field "${field}"`));
      return;
    }

    let settled = false;
    let received = 0;
    let file: { name: string; chunks: Buffer[]; size: number; hash: ReturnType<typeof createHash> } | undefined;
    const fields = Object.create(null) as Record<string, string>;

    /**
     * Stops taking the body: an unfinished body is not read any further (no 300 MB read to answer a 413); the
     * answer says `Connection: close` and the connection is closed once the answer is out.
     */
    function stopReading() {
      if (req.complete) return;
      req.pause();
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.destroy());
    }

    function fail(error: AppError) {
      if (settled) return;
      settled = true;
      // busboy gets nothing more and is left to the garbage collector (destroying it from inside its own
      // callbacks would pull its parser away mid-chunk).
      req.unpipe(bb);
      req.off('data', count);
      bb.removeAllListeners();
      bb.on('error', () => undefined);
      stopReading();
      next(error);
    }

    function count(chunk: Buffer) {
      // Bytes outside the file (a long preamble, say) count too, so no body is read without end.
      received += chunk.length;
      if (received > maxBody) fail(tooLarge());
    }

    bb.on('file', (name, stream, info) => {
      stream.on('error', () => undefined);
      if (name !== field) {
        fail(bad(`the file must be sent in the field "${field}", not "${name}"`));
        return;
      }
      const current = { name: info.filename ?? '', chunks: [] as Buffer[], size: 0, hash: createHash('sha256') };
      file = current;
      stream.on('limit', () => fail(tooLarge()));
      stream.on('data', (chunk: Buffer) => {
        current.chunks.push(chunk);
        current.size += chunk.length;
        current.hash.update(chunk);
      });
    });
    bb.on('field', (name, value, info) => {
      if (name === field) fail(bad('this must be a file part (with a file name), not a text field'));
      else if (!known.has(name)) fail(bad(`unknown field "${name}": send only the file in the field "${field}"`, name));
      else if (info.nameTruncated || info.valueTruncated) fail(bad(`longer than ${FIELD_VALUE_BYTES} bytes`, name));
      else if (textProblem(value)) fail(bad(textProblem(value) ?? '', name));
      else fields[name] = normaliseText(value);
    });
    bb.on('filesLimit', () => fail(bad('send one file only')));
    bb.on('fieldsLimit', () => fail(bad(`too many fields: send only the file in the field "${field}"`)));
    bb.on('partsLimit', () => fail(bad(`too many parts: send only the file in the field "${field}"`)));
    bb.on('error', () => fail(bad('the multipart/form-data body is malformed or incomplete')));
    bb.on('close', () => {
      if (settled) return;
      if (!file) {
        fail(bad(`no file was sent: send it in the field "${field}"`));
        return;
      }
      if (file.size === 0) {
        fail(bad('the file is empty'));
        return;
      }
      const done = file;
      const buffer = Buffer.concat(done.chunks, done.size);
      checkKind(buffer, sanitizeFilename(formFilename(done.name)), field, options.types).then(
        ({ filename, kind }) => {
          settled = true;
          req.upload = { file: { filename, mimeType: kind.mime, size: done.size, sha256: done.hash.digest('hex'), buffer }, fields };
          next();
        },
        (error: unknown) => fail(error as AppError),
      );
    });
    // A client that goes away mid-body: nobody reads the answer, but the route must not run.
    req.on('close', () => {
      if (!req.complete) fail(bad('the upload was interrupted'));
    });
    req.on('data', count);
    req.pipe(bb);
  };
}

/** The upload `acceptUpload` put on the request (mounted before the route, so it is always there). */
export function uploadOf(req: Request): Upload {
  if (!req.upload) throw new Error('acceptUpload() is not mounted before this route');
  return req.upload;
}
