import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { MAX_UPLOAD_BYTES } from '@app/contracts';
import { contractFiles, contracts, logEvents, storedFiles } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, userWithToken } from '../../test/factories.js';
import { listen, multipartBody, sample, sha256, streamUpload } from '../../test/files.js';
import { sanitizeFilename } from '../../lib/files/filename.js';
import { storeFile } from '../../lib/files/stored-files.js';

const t = await setupTestApp();
const contract = await createContract(t.db);
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

async function newDocument(filename = 'contract.pdf', contractId = contract.id) {
  const res = await api('post', '/contract_files').send({ contract_id: contractId, filename, description: 'Signed contract' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const upload = (id: number, bytes: Buffer, filename: string, contentType = 'application/octet-stream') =>
  api('post', `/contract_files/${id}/upload`).attach('file', bytes, { filename, contentType });

const download = (id: number, token = user.token) => api('post', `/contract_files/${id}/download`, token).buffer(true).parse(binaryParser);

async function storedFileCount() {
  const [row] = await t.db.select({ n: count() }).from(storedFiles);
  return row!.n;
}

async function documentRow(id: number) {
  const [row] = await t.db.select().from(contractFiles).where(eq(contractFiles.id, id));
  return row;
}

describe('contract documents', () => {
  it('creates the record with file type 1 by default, uploads, lists and counts it on the contract', async () => {
    const id = await newDocument();
    const pdf = sample.pdf();
    // The type the browser claims is ignored: the content says PDF.
    const up = await upload(id, pdf, 'Zeugnis Übersicht.pdf', 'application/octet-stream');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ id, ft_id: 1, file_type: 'Contract', filename: 'Zeugnis Übersicht.pdf', size: pdf.length, uploaded: true, mime_type: 'application/pdf' });
    const list = await api('get', `/contract_files?contract_id=${contract.id}&sort=size|desc`);
    expect(list.status).toBe(200);
    expect(list.body.data.find((f: { id: number }) => f.id === id)).toMatchObject({ size: pdf.length, uploaded: true });
    expect((await api('get', `/contracts/${contract.id}`)).body.files).toBeGreaterThanOrEqual(1);
    const [event] = await t.db.select().from(logEvents).where(eq(logEvents.le_message, `Upload: Document "contract.pdf" — "Zeugnis Übersicht.pdf", ${pdf.length} bytes`));
    expect(event).toMatchObject({ contract_id: contract.id, student_id: contract.student_id, usr_id: user.id });
  });

  it('a document not uploaded yet lists as not uploaded, without size or type', async () => {
    const id = await newDocument();
    expect((await api('get', `/contract_files/${id}`)).body).toMatchObject({ id, uploaded: false, size: null, mime_type: null });
  });

  it('downloads exactly the uploaded bytes under the UTF-8 name, for readers too', async () => {
    const id = await newDocument();
    const pdf = sample.pdf();
    const name = 'Łukasz_Wiśniewski_ü.pdf';
    expect((await upload(id, pdf, name)).body.filename).toBe(name);
    const res = await download(id, reader.token);
    expect(res.status).toBe(200);
    expect(sha256(res.body as Buffer)).toBe(sha256(pdf));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(pdf.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // The ASCII fallback drops accents (Ł has none to drop); current browsers take the exact name from filename*.
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_ukasz_Wisniewski_u.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`);
    const [stored] = await t.db.select().from(storedFiles).where(eq(storedFiles.id, (await documentRow(id))!.file_id!));
    expect(stored).toMatchObject({ filename: name, mime_type: 'application/pdf', size: pdf.length, sha256: sha256(pdf), created_user: user.id });
  });

  it('a stored name with CR, LF and quotes cannot add a header to the download', async () => {
    const id = await newDocument();
    const pdf = sample.pdf();
    const fileId = await storeFile(t.db, { filename: 'Ärger "quoted";\r\nX-Evil: 1.pdf', mimeType: 'application/pdf', size: pdf.length, sha256: sha256(pdf), buffer: pdf }, user.id);
    await t.db.update(contractFiles).set({ file_id: fileId }).where(eq(contractFiles.id, id));
    const res = await download(id);
    expect(res.status).toBe(200);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[^"\r\n]*"; filename\*=UTF-8''[^\s"]+$/);
    expect(disposition).toContain(encodeURIComponent('Ärger'));
    expect(res.headers['x-evil']).toBeUndefined();
  });

  it('recognises office documents and UTF-8 text by their content', async () => {
    const xlsx = await sample.xlsx();
    const sheet = await newDocument();
    const up = await upload(sheet, xlsx, 'Noten.xlsx', 'application/pdf');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.mime_type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const text = Buffer.from('Passport copy\r\nÄÖÜ äöü ß\tŁ\n', 'utf8');
    const note = await newDocument();
    const res = await upload(note, text, 'passport.txt', 'text/plain');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.mime_type).toBe('text/plain');
    const got = await download(note);
    expect(sha256(got.body as Buffer)).toBe(sha256(text));
    // Said to be UTF-8, which is all the upload takes: a browser showing it guesses no other encoding (decision 060).
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('gives a name without extension the extension of its content', async () => {
    const id = await newDocument();
    const res = await upload(id, sample.png(), 'scan');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ filename: 'scan.png', mime_type: 'image/png' });
  });

  it('a new upload replaces the file; the old bytes are deleted, and deleting the document deletes its file', async () => {
    const id = await newDocument();
    await upload(id, sample.pdf(), 'first.pdf');
    const first = (await documentRow(id))!.file_id!;
    const second = sample.png();
    expect((await upload(id, second, 'second.png')).body).toMatchObject({ filename: 'second.png', mime_type: 'image/png', size: second.length });
    const now = (await documentRow(id))!.file_id!;
    expect(now).not.toBe(first);
    expect(await t.db.select().from(storedFiles).where(eq(storedFiles.id, first))).toEqual([]);
    expect(sha256((await download(id)).body as Buffer)).toBe(sha256(second));
    expect((await api('delete', `/contract_files/${id}`)).status).toBe(204);
    expect(await t.db.select().from(storedFiles).where(eq(storedFiles.id, now))).toEqual([]);
  });

  it("deleting a contract deletes its documents' files too", async () => {
    const other = await createContract(t.db);
    const id = await newDocument('x.pdf', other.id);
    await upload(id, sample.pdf(), 'x.pdf');
    const fileId = (await documentRow(id))!.file_id!;
    await t.db.delete(contracts).where(eq(contracts.id, other.id));
    expect(await t.db.select().from(storedFiles).where(eq(storedFiles.id, fileId))).toEqual([]);
  });

  it('sanitises file names: no directories, control or special characters', async () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\x\\report.xlsx')).toBe('report.xlsx');
    expect(sanitizeFilename('a\u0000b<c>d.pdf')).toBe('a_b_c_d.pdf');
    expect(sanitizeFilename('...hidden')).toBe('hidden');
    expect(sanitizeFilename('CON.txt')).toBe('_CON.txt');
    expect(sanitizeFilename('')).toBe('document');
    expect(sanitizeFilename(`${'x'.repeat(300)}.pdf`)).toHaveLength(200);
    expect(sanitizeFilename(`${'x'.repeat(300)}.pdf`).endsWith('.pdf')).toBe(true);
    const id = await newDocument('../secret/../../passwd');
    expect((await documentRow(id))!.filename).toBe('passwd');
    const up = await upload(id, sample.pdf(), '../../etc/Bericht<1>.pdf');
    expect(up.body.filename).toBe('Bericht_1_.pdf');
  });

  it('answers 409 for a download with nothing uploaded, and 404 for an upload to an unknown document', async () => {
    const id = await newDocument();
    const res = await download(id);
    expect(res.status).toBe(409);
    expect(JSON.parse((res.body as Buffer).toString()).message).toBe('No file has been uploaded for this document yet');
    expect((await upload(2_000_000_000, sample.pdf(), 'x.pdf')).status).toBe(404);
  });

  it('lets only User level upload and delete; delete answers 204', async () => {
    const id = await newDocument();
    expect((await api('post', `/contract_files/${id}/upload`, reader.token).attach('file', sample.pdf(), { filename: 'x.pdf' })).status).toBe(403);
    expect((await api('delete', `/contract_files/${id}`, reader.token)).status).toBe(403);
    expect((await api('delete', `/contract_files/${id}`)).status).toBe(204);
    expect((await api('get', `/contract_files/${id}`)).status).toBe(404);
  });

  it('refuses an unknown file type, naming the field', async () => {
    const res = await api('post', '/contract_files').send({ contract_id: contract.id, filename: 'x.pdf', ft_id: 99 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('ft_id');
  });
});

describe('refused uploads change nothing', () => {
  const B = 'XyZboundary42';
  const multipart = `multipart/form-data; boundary=${B}`;
  const pdfPart = (name = 'file', filename = 'a.pdf') => ({ name, filename, type: 'application/pdf', content: sample.pdf() });

  /** The request is refused with a JSON message naming the field; the document, the files and the log stay as they were. */
  async function expectRefused(send: (id: number) => PromiseLike<{ status: number; body: { message?: string; errors?: Record<string, string[]> } }>, status: number, message: RegExp, field = 'file') {
    const id = await newDocument();
    const files = await storedFileCount();
    const before = await documentRow(id);
    const res = await send(id);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(res.body.errors ?? {}).toHaveProperty(field);
    expect(await documentRow(id)).toEqual(before);
    expect(await storedFileCount()).toBe(files);
    expect(await t.db.select().from(logEvents).where(eq(logEvents.record_id, id))).toHaveLength(1); // the create only
    // The next request is served as usual.
    expect((await api('get', `/contract_files/${id}`)).status).toBe(200);
  }

  const raw = (id: number, body: Buffer | string, type = multipart) => api('post', `/contract_files/${id}/upload`).set('Content-Type', type).send(body);

  it('a body that is not multipart: 400', () =>
    expectRefused((id) => api('post', `/contract_files/${id}/upload`).send({ file: 'x' }), 400, /^file: send the file as multipart\/form-data in the field "file"$/));

  it('another multipart type than form-data: 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [pdfPart()]), `multipart/mixed; boundary=${B}`), 400, /^file: send the file as multipart\/form-data/));

  it('multipart without a boundary: 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [pdfPart()]), 'multipart/form-data'), 400, /^file: the multipart\/form-data body has no valid boundary/));

  it('a truncated body (no closing boundary): 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [pdfPart()], false).subarray(0, 120)), 400, /^file: the multipart\/form-data body is malformed or incomplete$/));

  it('a body that ends after the part headers: 400', () =>
    expectRefused((id) => raw(id, `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n`), 400, /^file: the multipart\/form-data body is malformed or incomplete$/));

  it('a part header without a colon: 400', () =>
    expectRefused((id) => raw(id, `--${B}\r\nthis is no header\r\n\r\n%PDF-1.4\r\n--${B}--\r\n`), 400, /^file: the multipart\/form-data body is malformed or incomplete$/));

  it('no file at all: 400', () => expectRefused((id) => raw(id, `--${B}--\r\n`), 400, /^file: no file was sent: send it in the field "file"$/));

  it('an empty file: 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [{ name: 'file', filename: 'empty.pdf', content: '' }])), 400, /^file: the file is empty$/));

  it('two files: 400', () => expectRefused((id) => raw(id, multipartBody(B, [pdfPart(), pdfPart('file', 'b.pdf')])), 400, /^file: send one file only$/));

  it('an unknown field: 400 naming it', () =>
    expectRefused(
      (id) => raw(id, multipartBody(B, [{ name: 'comment', content: 'hello' }, pdfPart()])),
      400,
      /^comment: unknown field "comment": send only the file in the field "file"$/,
      'comment',
    ));

  it('the file under another field name: 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [pdfPart('upload')])), 400, /^file: the file must be sent in the field "file", not "upload"$/));

  it('the field file as text instead of a file: 400', () =>
    expectRefused((id) => raw(id, multipartBody(B, [{ name: 'file', content: 'just text' }])), 400, /^file: this must be a file part/));

  it('a PDF named .xlsx: 400 by its content', () =>
    expectRefused((id) => upload(id, sample.pdf(), 'grades.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), 400, /^file: "grades.xlsx" is PDF by its content; its name must end in \.pdf$/));

  it('an executable named .pdf: 400 by its content', () =>
    expectRefused(
      (id) => upload(id, sample.exe(), 'contract.pdf', 'application/pdf'),
      400,
      /^file: "contract.pdf" \(application\/x-msdownload by its content\) is not an allowed type \(allowed: PDF, JPEG, PNG, DOCX, XLSX, ODT, ODS, TXT \(UTF-8 text\)\)$/,
    ));

  it('binary data of no known kind named .txt: 400', () =>
    expectRefused((id) => upload(id, Buffer.from([0, 1, 2, 3, 254, 255]), 'notes.txt', 'text/plain'), 400, /^file: "notes.txt" \(not recognisable from its content\) is not an allowed type/));

  it('a file over the limit: 413', () =>
    expectRefused((id) => upload(id, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(MAX_UPLOAD_BYTES)]), 'big.pdf'), 413, /^The file is larger than 20 MB$/));
});

describe('a too large upload is answered while it is still being sent', () => {
  const headers = () => ({ Authorization: `Bearer ${user.token}`, 'Content-Type': 'multipart/form-data; boundary=B' });
  const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n');

  it('an endless stream gets its 413 after the cap, and the connection is closed; nothing is stored', async () => {
    const port = await listen(t.app);
    const id = await newDocument();
    const files = await storedFileCount();
    const answer = await streamUpload({
      port,
      path: `/api/v1.0/contract_files/${id}/upload`,
      headers: headers(),
      head,
      filler: Buffer.alloc(64 * 1024),
      // The client would go on to 300 MB; the answer must come long before.
      maxBytes: 300 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('The file is larger than 20 MB');
    expect(answer.connection).toBe('close');
    expect(answer.sentBeforeAnswer).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(answer.sentBeforeAnswer).toBeLessThan(MAX_UPLOAD_BYTES + 16 * 1024 * 1024);
    expect(answer.closedByServer).toBe(true);
    expect((await documentRow(id))!.file_id).toBeNull();
    expect(await storedFileCount()).toBe(files);
    expect((await api('get', `/contract_files/${id}`)).status).toBe(200);
  });

  it('a declared length over the cap is answered before any of the body is sent', async () => {
    const port = await listen(t.app);
    const id = await newDocument();
    const answer = await streamUpload({
      port,
      path: `/api/v1.0/contract_files/${id}/upload`,
      headers: { ...headers(), 'Content-Length': 300 * 1024 * 1024 },
      head,
      // Only the head is sent: the client then waits, as one does with a body it has not written yet.
      maxBytes: head.length,
      end: false,
    });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('The file is larger than 20 MB');
    expect(answer.sentBeforeAnswer).toBeLessThanOrEqual(head.length);
    expect(answer.closedByServer).toBe(true);
  });
});
