import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MAX_UPLOAD_BYTES } from '@app/contracts';
import { contractFiles, logEvents } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, userWithToken } from '../../test/factories.js';
import { sanitizeFilename } from '../../lib/files/filename.js';

const t = await setupTestApp();
const contract = await createContract(t.db);
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

async function newDocument(filename = 'contract.pdf') {
  const res = await api('post', '/contract_files').send({ contract_id: contract.id, filename, description: 'Signed contract' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

describe('contract documents', () => {
  it('creates the record with file type 1 by default, uploads, lists and counts it on the contract', async () => {
    const id = await newDocument();
    const pdf = Buffer.from('%PDF-1.4 fake but real bytes \u0000\u0001\u0002');
    const up = await api('post', `/contract_files/${id}/upload`).attach('file', pdf, { filename: 'Zeugnis Übersicht.pdf', contentType: 'application/pdf' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ id, ft_id: 1, file_type: 'Contract', filename: 'Zeugnis Übersicht.pdf', size: pdf.length, uploaded: true, mime_type: 'application/pdf' });
    const list = await api('get', `/contract_files?contract_id=${contract.id}`);
    expect(list.body.data.map((f: { id: number }) => f.id)).toContain(id);
    expect((await api('get', `/contracts/${contract.id}`)).body.files).toBeGreaterThanOrEqual(1);
    const [event] = await t.db.select().from(logEvents).where(eq(logEvents.le_message, `Upload: Document "contract.pdf" — "Zeugnis Übersicht.pdf", ${pdf.length} bytes`));
    expect(event).toMatchObject({ contract_id: contract.id, student_id: contract.student_id, usr_id: user.id });
  });

  it('downloads the same bytes with a safe Content-Disposition, for readers too', async () => {
    const id = await newDocument();
    const bytes = Buffer.from([0, 1, 2, 3, 254, 255]);
    await api('post', `/contract_files/${id}/upload`).attach('file', bytes, { filename: 'Ärger "quoted";\r\nX-Evil: 1.bin', contentType: 'application/octet-stream' });
    const res = await api('post', `/contract_files/${id}/download`, reader.token).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[^"\r\n]*"; filename\*=UTF-8''[^\s"]+$/);
    expect(disposition).toContain(encodeURIComponent('Ärger'));
    expect(res.headers['x-evil']).toBeUndefined();
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
    const [row] = await t.db.select().from(contractFiles).where(eq(contractFiles.id, id));
    expect(row!.filename).toBe('passwd');
  });

  it('answers 413 for a file over the limit and stores nothing', async () => {
    const id = await newDocument();
    const res = await api('post', `/contract_files/${id}/upload`).attach('file', Buffer.alloc(MAX_UPLOAD_BYTES + 1), { filename: 'big.bin' });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The file is larger than 20 MB');
    const [row] = await t.db.select().from(contractFiles).where(eq(contractFiles.id, id));
    expect(row!.content).toBeNull();
  });

  it('answers 400 without a file or without multipart, and 409 for a download with nothing uploaded', async () => {
    const id = await newDocument();
    const none = await api('post', `/contract_files/${id}/upload`).field('description', 'no file');
    expect(none.status).toBe(400);
    expect(none.body.errors).toHaveProperty('file');
    expect((await api('post', `/contract_files/${id}/upload`).send({ file: 'x' })).status).toBe(400);
    const download = await api('post', `/contract_files/${id}/download`);
    expect(download.status).toBe(409);
    expect(download.body.message).toBe('No file has been uploaded for this document yet');
  });

  it('lets only User level upload and delete; delete answers 204', async () => {
    const id = await newDocument();
    expect((await api('post', `/contract_files/${id}/upload`, reader.token).attach('file', Buffer.from('x'), { filename: 'x.txt' })).status).toBe(403);
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
