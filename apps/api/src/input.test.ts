import { getTableName, type Table } from 'drizzle-orm';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { resourceModules } from './resources/index.js';
import { setupTestApp } from './test/app.js';
import { createCountry, createStudent, userWithToken } from './test/factories.js';

const t = await setupTestApp();
const admin = await userWithToken(t.app, t.db, 'Administrator');
const get = (path: string) => t.http().get(`/api/v1.0${path}`).set('Authorization', `Bearer ${admin.token}`);
const post = (path: string) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${admin.token}`);

async function put(path: string, body: object) {
  const seen = (await get(path)).body.edit_timestamp as string;
  return t.http().put(`/api/v1.0${path}`).set('Authorization', `Bearer ${admin.token}`).set('If-Match', seen).send(body);
}

describe('query strings', () => {
  it('answers 400 naming query keys named like Object.prototype members, never 500', async () => {
    for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const res = await get(`/countries?${key}=1`);
      expect(res.status, key).toBe(400);
      expect(res.body.errors[key], key).toEqual([`${key} is not a known field`]);
    }
  });

  it('answers 400 naming an unknown query parameter on a route that takes none', async () => {
    const country = await createCountry(t.db);
    for (const path of [`/countries/${country.id}`, '/countries/choice', '/auth/me', '/config/version']) {
      const res = await get(`${path}?__proto__=1&x=2`);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toBe('Unknown query parameter: __proto__, x');
      expect(Object.keys(res.body.errors).sort(), path).toEqual(['__proto__', 'x']);
    }
  });

  it('refuses NUL and lone surrogates in a search or filter, naming it', async () => {
    for (const [query, field] of [
      ['search=a%00b', 'search'],
      ['name=%00', 'name'],
      ['address=x%00', 'address'],
    ] as const) {
      const res = await get(`/students?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[field]?.[0], query).toMatch(/NUL|surrogate/);
    }
    // A decoded lone surrogate can only come from JSON: `\ud800` in a search parameter of an action.
    const res = await post('/students/download_report').set('Content-Type', 'application/json').send('{"filter":{"search":"\\ud800"}}');
    expect(res.status).toBe(400);
    expect(res.body.errors['filter.search'][0]).toMatch(/surrogate/);
  });

  it('answers 400 for a path that cannot be percent-decoded, and for a login whose user name is not text', async () => {
    const res = await get('/students/%ED%A0%80');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/percent-encoding/);
    const login = await t.http().post('/api/v1.0/auth/login').send({ username: { toString: 1 }, password: 'x' });
    expect(login.status).toBe(400);
    expect(login.body.errors.username).toBeDefined();
  });

  it('checks ids and whole-number filters against the int4 range (400, not 500)', async () => {
    for (const path of ['/countries/2147483648', '/countries/-1', '/countries/1e309', '/countries/NaN', '/students/99999999999999999999']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.errors.id, path).toBeDefined();
    }
    for (const query of ['student_id=2147483648', 'contract_id=-2147483649', 'intake=1e309', 'program_id=NaN', 'student_id=1.5']) {
      const res = await get(`/contracts?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.errors), query).toEqual([query.split('=')[0]]);
    }
    expect((await get('/contracts?page=2147483648')).status).toBe(400);
    const batch = await post('/contracts/batch/mark_sent').send({ ids: [2147483648] });
    expect(batch.status).toBe(400);
    expect(batch.body.errors['ids.0']).toBeDefined();
    expect((await get('/contracts?student_id=2147483647')).status).toBe(200);
  });

  it('refuses dates outside 1900-01-01 … 2199-12-31 and dates that are not on the calendar', async () => {
    for (const date of ['0000-01-01', '1899-12-31', '2200-01-01', '10000-01-01', '2026-02-30', '2023-02-29']) {
      const res = await get(`/students?bankinfo_requested_before=${date}`);
      expect(res.status, date).toBe(400);
      expect(res.body.errors.bankinfo_requested_before, date).toBeDefined();
    }
    expect((await get('/students?bankinfo_requested_before=2024-02-29')).status).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('refuses NUL and a lone surrogate in any text field with a 400 naming it, and changes nothing', async () => {
    const country = await createCountry(t.db);
    const nul = await put(`/countries/${country.id}`, { id: country.id, cntry_name: 'Bad\u0000name' });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.cntry_name[0]).toMatch(/NUL/);
    const surrogate = await t
      .http()
      .post('/api/v1.0/countries')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Content-Type', 'application/json')
      .send('{"cntry_code":"QQS","cntry_name":"x\\udc00y"}');
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.errors.cntry_name[0]).toMatch(/surrogate/);
    expect((await get(`/countries/${country.id}`)).body.cntry_name).toBe(country.cntry_name);
    expect((await get('/countries?search=QQS')).body.data).toEqual([]);
  });

  it('refuses NUL in an action input and in a login, naming the field', async () => {
    const login = await t.http().post('/api/v1.0/auth/login').send({ username: 'a\u0000', password: 'x' });
    expect(login.status).toBe(400);
    expect(login.body.errors.username).toBeDefined();
    const student = await createStudent(t.db);
    const action = await post('/students/download_report').send({ ids: [student.id], filter: { name: '\u0000' } });
    expect(action.status).toBe(400);
    expect(action.body.errors['filter.name']).toBeDefined();
  });

  it('refuses a line break or control character in a one-line field with a 400 naming it; comments keep their lines (decision 060)', async () => {
    const student = await createStudent(t.db);
    const path = `/students/${student.id}`;
    const broken = await put(path, { id: student.id, last_name: 'Müller\nBcc: x', comments: 'first line' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors).toEqual({ last_name: ['Last name must be one line (no line breaks)'] });
    const bell = await put(path, { id: student.id, first_name: 'An\u0007na' });
    expect(bell.body.errors).toEqual({ first_name: ['First name must not contain control characters (U+0007)'] });
    expect((await get(path)).body).toMatchObject({ last_name: student.last_name, first_name: student.first_name, comments: student.comments });
    const lines = await put(path, { id: student.id, comments: 'Called twice:\n\tno answer' });
    expect(lines.status).toBe(200);
    expect(lines.body.comments).toBe('Called twice:\n\tno answer');
  });

  it('stores text normalised to NFC', async () => {
    const country = await createCountry(t.db);
    const res = await put(`/countries/${country.id}`, { id: country.id, cntry_name: 'Co\u0301te d’Ivoire' });
    expect(res.status).toBe(200);
    expect(res.body.cntry_name).toBe('C\u00f3te d’Ivoire');
  });

  it('stores and searches text without the invisible characters pasted with it (decision 061)', async () => {
    const student = await createStudent(t.db);
    const res = await put(`/students/${student.id}`, { id: student.id, last_name: '\uFEFFQuelle\u200Bnberg\u00AD' });
    expect(res.status).toBe(200);
    expect(res.body.last_name).toBe('Quellenberg');
    const found = await get(`/students?search=${encodeURIComponent('Quelle\u2060nberg')}`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((row: { id: number }) => row.id)).toContain(student.id);
  });

  it('answers 400 for body keys named like Object.prototype members', async () => {
    const res = await post('/countries').set('Content-Type', 'application/json').send('{"cntry_code":"QQP","cntry_name":"P","__proto__":{"x":1},"constructor":1,"toString":2}');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['__proto__', 'constructor', 'toString']);
  });

  it('refuses a body nested too deeply, and dates out of range in a record', async () => {
    const deep = await post('/countries').set('Content-Type', 'application/json').send(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status).toBe(400);
    const student = await createStudent(t.db);
    for (const birth_date of ['0000-01-01', '10000-01-01', '2026-02-30', '1899-12-31']) {
      const res = await put(`/students/${student.id}`, { id: student.id, birth_date });
      expect(res.status, birth_date).toBe(400);
      expect(res.body.errors.birth_date, birth_date).toBeDefined();
    }
  });

  it('names a value of the wrong type as such, and only a field left out as required', async () => {
    const res = await post('/studentfees').send({ intake: '2031', scholarship_id: '1', administrationfee2_amount: '200.05' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      intake: ['Intake must be a year'],
      scholarship_id: ['Scholarship must be the number of a record'],
      administrationfee2_amount: ['Admin Fee Y2 must be an amount'],
    });
    const missing = await post('/studentfees').send({ scholarship_id: null, administrationfee2_amount: 200.05 });
    expect(missing.body.errors).toEqual({ intake: ['intake is required'], scholarship_id: ['scholarship_id is required'] });
    const country = await createCountry(t.db);
    const typed = await put(`/countries/${country.id}`, { id: country.id, cntry_name: 5 });
    expect(typed.body.errors).toEqual({ cntry_name: ['Name must be text'] });
  });

  it('caps text lengths from the column sizes', async () => {
    const country = await createCountry(t.db);
    const res = await put(`/countries/${country.id}`, { id: country.id, cntry_name: 'x'.repeat(100_000) });
    expect(res.status).toBe(400);
    expect(res.body.errors.cntry_name[0]).toMatch(/at most/);
  });
});

describe('text lengths', () => {
  it('caps every text a record takes at most at its column size (and a text column at some size)', async () => {
    const columns = await t.pool.query<{ table_name: string; column_name: string; size: number | null; data_type: string }>(
      `select table_name, column_name, character_maximum_length as size, data_type from information_schema.columns where table_schema = 'public'`,
    );
    const checked: string[] = [];
    for (const { resource, service } of resourceModules(t.ctx)) {
      if (resource.readOnly) continue;
      const table = getTableName(service.config.table as Table);
      const schema = z.toJSONSchema(resource.createSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, unknown> };
      for (const [field, property] of Object.entries(schema.properties)) {
        const text = [property, ...((property as { anyOf?: unknown[] }).anyOf ?? [])].find((p) => (p as { type?: string }).type === 'string') as { maxLength?: number; enum?: unknown[] } | undefined;
        const column = columns.rows.find((c) => c.table_name === table && c.column_name === field);
        if (!text || text.enum || !column || !['character varying', 'text'].includes(column.data_type)) continue;
        checked.push(`${table}.${field}`);
        expect(text.maxLength, `${table}.${field}`).toBeDefined();
        if (column.size !== null) expect(text.maxLength, `${table}.${field}`).toBeLessThanOrEqual(column.size);
      }
    }
    expect(checked.length).toBeGreaterThan(30);
  });
});

describe('response headers', () => {
  it('answers every /api response with Cache-Control: no-store, login and errors included', async () => {
    const answers = [
      await t.http().post('/api/v1.0/auth/login').send({ username: admin.login, password: admin.password }),
      await t.http().post('/api/v1.0/auth/login').send({ username: admin.login, password: 'wrong' }),
      await get('/countries'),
      await get('/countries/0'),
      await t.http().get('/api/v1.0/auth/me'),
      await t.http().get('/api/nothing'),
      await get('/nothing'),
    ];
    for (const res of answers) expect(res.headers['cache-control'], `${res.status} ${res.text.slice(0, 50)}`).toBe('no-store');
  });

  it('sends the security headers and no X-Powered-By, for the API and the web app alike', async () => {
    for (const path of ['/api/v1.0/auth/me', '/']) {
      const res = await t.http().get(path);
      expect(res.headers['x-powered-by'], path).toBeUndefined();
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['content-security-policy'], path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['content-security-policy'], path).toMatch(/script-src 'self'/);
      expect(res.headers['x-frame-options'], path).toBe('DENY');
    }
  });
});
