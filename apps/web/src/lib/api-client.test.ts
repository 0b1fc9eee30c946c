import { describe, expect, it, vi } from 'vitest';
import { api, ApiError, filenameFromDisposition, onUnauthorized, queryString } from './api-client';
import { stubApi } from '../test/api-stub';
import { failure } from '../test/fixtures';

describe('api client', () => {
  it('throws a typed ApiError with the status, message and field errors, and logs the failure', async () => {
    stubApi({ 'POST /countries': failure(400, 'Invalid country', { cntry_code: ['Code is required'] }) });
    const error = await api.post('/countries', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'Invalid country', errors: { cntry_code: ['Code is required'] } });
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('POST /api/v1.0/countries failed: 400'));
  });

  it('tells the listeners about a 401, except for calls that expect one (login)', async () => {
    stubApi({ 'GET /countries': failure(401, 'Not logged in'), 'POST /auth/login': failure(401, 'Wrong username or password') });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    await expect(api.get('/countries')).rejects.toMatchObject({ status: 401 });
    expect(listener).toHaveBeenCalledTimes(1);
    await expect(api.post('/auth/login', { username: 'x', password: 'y' }, { ignoreUnauthorized: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });

  it('reports an unreachable server as an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/auth/me')).rejects.toMatchObject({ status: 0 });
    expect(console.warn).toHaveBeenCalled();
  });

  it('leaves empty values out of the query string', () => {
    expect(queryString({ page: 1, search: '', intake: undefined, open: false, x: null })).toBe('?page=1&open=false');
    expect(queryString({})).toBe('');
  });

  it('reads the file name of a Content-Disposition header, preferring the UTF-8 filename*', () => {
    expect(filenameFromDisposition('attachment; filename="Contracts.xlsx"')).toBe('Contracts.xlsx');
    expect(filenameFromDisposition('attachment; filename=Students.xlsx')).toBe('Students.xlsx');
    expect(filenameFromDisposition(`attachment; filename="Mu?ller.pdf"; filename*=UTF-8''M%C3%BCller.pdf`)).toBe('Müller.pdf');
    expect(filenameFromDisposition('attachment; filename="a \\"quoted\\" name.txt"')).toBe('a "quoted" name.txt');
    expect(filenameFromDisposition('attachment')).toBeUndefined();
    expect(filenameFromDisposition(null)).toBeUndefined();
  });

  it('downloads a file with the server’s name, and sends an upload as multipart form data', async () => {
    const stub = stubApi({
      'POST /contract_files/1/download': { file: { content: new Blob(['%PDF-1.4 fixture'], { type: 'application/pdf' }), filename: 'contract.pdf' } },
      'POST /contract_files/1/upload': { body: { id: 1 } },
    });
    const file = await api.download('/contract_files/1/download');
    expect(file.filename).toBe('contract.pdf');
    expect(file.blob.size).toBeGreaterThan(0);
    await api.upload('/contract_files/1/upload', new File(['abc'], 'a.txt', { type: 'text/plain' }));
    const sent = stub.last('POST /contract_files/1/upload')!;
    expect(sent.body).toBeInstanceOf(FormData);
    expect(sent.headers['content-type']).toBeUndefined();
    expect(((sent.body as FormData).get('file') as File).name).toBe('a.txt');
  });
});
