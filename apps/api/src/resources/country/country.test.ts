import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { connect, countries } from '@app/db';
import { countryModule } from './country.router.js';
import { setupTestApp } from '../../test/app.js';
import { createCountry, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
let admin: Awaited<ReturnType<typeof userWithToken>>;
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = admin.token) =>
  t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

// Names that sort predictably and a prefix no other test uses.
beforeAll(async () => {
  admin = await userWithToken(t.app, t.db, 'Administrator');
  for (let i = 0; i < 120; i++) {
    await createCountry(t.db, { cntry_code: `P${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`, cntry_name: `Paging ${String(i).padStart(3, '0')}` });
  }
});

describe('GET /countries (list)', () => {
  it('pages 50 at a time, sorted by name, with the pagination block', async () => {
    const first = await api('get', '/countries?search=Paging');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data[0]).toEqual({ id: expect.any(Number), cntry_code: 'PAA', cntry_name: 'Paging 000', edit_timestamp: expect.any(String) });
    expect(first.body.links.pagination).toEqual({ total: 120, per_page: 50, current_page: 1, last_page: 3, from: 1, to: 50 });
    const third = await api('get', '/countries?search=Paging&page=3');
    expect(third.body.data).toHaveLength(20);
    expect(third.body.data[19].cntry_name).toBe('Paging 119');
    expect(third.body.links.pagination).toMatchObject({ current_page: 3, from: 101, to: 120 });
    const beyond = await api('get', '/countries?search=Paging&page=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.links.pagination).toMatchObject({ from: 0, to: 0, total: 120 });
  });

  it('honours per_page and caps it at 200', async () => {
    const res = await api('get', '/countries?search=Paging&per_page=7');
    expect(res.body.data).toHaveLength(7);
    const tooMany = await api('get', '/countries?per_page=201');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toHaveProperty('per_page');
  });

  it('sorts by several keys in order, with id as the last key', async () => {
    await createCountry(t.db, { cntry_code: 'MSA', cntry_name: 'Multisort Same' });
    await createCountry(t.db, { cntry_code: 'MSC', cntry_name: 'Multisort Same' });
    await createCountry(t.db, { cntry_code: 'MSB', cntry_name: 'Multisort Other' });
    const byNameThenCodeDesc = await api('get', '/countries?search=Multisort&sort=cntry_name|asc,cntry_code|desc');
    expect(byNameThenCodeDesc.body.data.map((r: { cntry_code: string }) => r.cntry_code)).toEqual(['MSB', 'MSC', 'MSA']);
    const byNameDescThenCode = await api('get', '/countries?search=Multisort&sort=cntry_name|desc,cntry_code|asc');
    expect(byNameDescThenCode.body.data.map((r: { cntry_code: string }) => r.cntry_code)).toEqual(['MSA', 'MSC', 'MSB']);
  });

  it('quick filter matches code or name, case-insensitively, treating % and _ literally', async () => {
    await createCountry(t.db, { cntry_code: 'QFX', cntry_name: 'Quickfind Land' });
    expect((await api('get', '/countries?search=quickFIND')).body.data.map((r: { cntry_code: string }) => r.cntry_code)).toEqual(['QFX']);
    expect((await api('get', '/countries?search=qfx')).body.data).toHaveLength(1);
    expect((await api('get', '/countries?search=%25')).body.data).toHaveLength(0);
    expect((await api('get', '/countries?search=_')).body.data).toHaveLength(0);
  });

  it('answers 400 for an unknown sort field, a bad direction, or an unknown filter', async () => {
    const badField = await api('get', '/countries?sort=password|asc');
    expect(badField.status).toBe(400);
    expect(badField.body.errors.sort[0]).toMatch(/cannot sort by "password"/);
    expect((await api('get', '/countries?sort=cntry_name|up')).status).toBe(400);
    const unknown = await api('get', '/countries?colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty('colour');
    expect((await api('get', '/countries?page=0')).status).toBe(400);
    expect((await api('get', '/countries?page=1&page=2')).status).toBe(400);
  });
});

describe('GET /countries/:id', () => {
  it('answers the record, 404 for an unknown id and 400 for a non-numeric one', async () => {
    const c = await createCountry(t.db, { cntry_code: 'GET', cntry_name: 'Gettable' });
    expect((await api('get', `/countries/${c.id}`)).body).toMatchObject({ id: c.id, cntry_code: 'GET', cntry_name: 'Gettable' });
    const missing = await api('get', '/countries/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Country 999999 not found');
    const bad = await api('get', '/countries/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('id');
  });
});

describe('POST /countries', () => {
  it('creates the record and answers 201 with its id, the code upper-cased', async () => {
    const res = await api('post', '/countries').send({ cntry_code: 'nw', cntry_name: 'Newland' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
    const [row] = await t.db.select().from(countries).where(eq(countries.id, res.body.id));
    expect(row).toMatchObject({ cntry_code: 'NW', cntry_name: 'Newland', edit_user: admin.id });
  });

  it('answers 400 naming each missing or bad field, and stores nothing', async () => {
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(countries);
    const missing = await api('post', '/countries').send({ cntry_name: '' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['cntry_code', 'cntry_name']);
    expect(missing.body.errors.cntry_name).toEqual(['Name is required']);
    const bad = await api('post', '/countries').send({ cntry_code: '12', cntry_name: 'Digits' });
    expect(bad.body.errors.cntry_code).toEqual(['Code must be 2 or 3 letters']);
    const extra = await api('post', '/countries').send({ cntry_code: 'EX', cntry_name: 'Extra', id: 5, edit_timestamp: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.errors).toEqual({ id: ['id cannot be set here'], edit_timestamp: ['edit_timestamp cannot be set here'] });
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(countries);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('answers 409 with a message for a duplicate code', async () => {
    await createCountry(t.db, { cntry_code: 'DUP' });
    const res = await api('post', '/countries').send({ cntry_code: 'dup', cntry_name: 'Duplicate' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'A Country with this Code already exists', errors: { cntry_code: ['Code is already used'] } });
  });
});

describe('PUT /countries/:id', () => {
  it('changes only the fields sent and answers the updated record', async () => {
    const c = await createCountry(t.db, { cntry_code: 'UPD', cntry_name: 'Before' });
    const res = await api('put', `/countries/${c.id}`)
      .set('If-Match', c.edit_timestamp.toISOString())
      .send({ id: c.id, cntry_name: 'After' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, cntry_code: 'UPD', cntry_name: 'After' });
    expect(new Date(res.body.edit_timestamp).getTime()).toBeGreaterThan(c.edit_timestamp.getTime());
    const [row] = await t.db.select().from(countries).where(eq(countries.id, c.id));
    expect(row).toMatchObject({ cntry_code: 'UPD', cntry_name: 'After', edit_user: admin.id });
  });

  it('answers 409 naming who changed it when If-Match is stale, and changes nothing', async () => {
    const c = await createCountry(t.db, { cntry_code: 'STL', cntry_name: 'Stale' });
    const seen = c.edit_timestamp.toISOString();
    const first = await api('put', `/countries/${c.id}`).set('If-Match', seen).send({ id: c.id, cntry_name: 'First edit' });
    expect(first.status).toBe(200);
    const second = await api('put', `/countries/${c.id}`).set('If-Match', seen).send({ id: c.id, cntry_name: 'Second edit' });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/^This Country was changed by Test Administrator at \d{2}-\d{2}-\d{4} \d{2}:\d{2} after you opened it/);
    const [row] = await t.db.select().from(countries).where(eq(countries.id, c.id));
    expect(row!.cntry_name).toBe('First edit');
  });

  it('answers 400 for invalid fields or a body id that differs from the URL, 404 for an unknown id', async () => {
    const c = await createCountry(t.db);
    const bad = await api('put', `/countries/${c.id}`).send({ id: c.id, cntry_code: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('cntry_code');
    const mismatch = await api('put', `/countries/${c.id}`).send({ id: c.id + 1, cntry_name: 'X' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toHaveProperty('id');
    expect((await api('put', '/countries/999999').send({ id: 999999, cntry_name: 'X' })).status).toBe(404);
    const [row] = await t.db.select().from(countries).where(eq(countries.id, c.id));
    expect(row!.cntry_name).toBe(c.cntry_name);
  });

  it('answers 409 when the new code belongs to another country', async () => {
    await createCountry(t.db, { cntry_code: 'TKN' });
    const c = await createCountry(t.db);
    const res = await api('put', `/countries/${c.id}`).set('If-Match', c.edit_timestamp.toISOString()).send({ id: c.id, cntry_code: 'TKN' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A Country with this Code already exists');
  });
});

describe('DELETE /countries/:id', () => {
  it('answers 204, then the record is gone (404)', async () => {
    const c = await createCountry(t.db);
    expect((await api('delete', `/countries/${c.id}`)).status).toBe(204);
    expect((await api('get', `/countries/${c.id}`)).status).toBe(404);
    expect((await api('delete', `/countries/${c.id}`)).status).toBe(404);
  });

  it('with If-Match deletes only the version the client saw: one changed since stays, and the 409 says who changed it', async () => {
    const c = await createCountry(t.db, { cntry_code: 'DIM', cntry_name: 'Delete if match' });
    const seen = c.edit_timestamp.toISOString();
    const renamed = await api('put', `/countries/${c.id}`).set('If-Match', seen).send({ id: c.id, cntry_name: 'Renamed meanwhile' }).expect(200);
    const stale = await api('delete', `/countries/${c.id}`).set('If-Match', seen);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^This Country was changed by Test Administrator at \d{2}-\d{2}-\d{4} \d{2}:\d{2} after you opened it/);
    expect((await api('get', `/countries/${c.id}`)).body.cntry_name).toBe('Renamed meanwhile');
    expect((await api('delete', `/countries/${c.id}`).set('If-Match', 'yesterday')).status).toBe(400);
    expect((await api('delete', `/countries/${c.id}`).set('If-Match', renamed.body.edit_timestamp)).status).toBe(204);
  });

  it('a change of a record deleted meanwhile says it may have been deleted', async () => {
    const c = await createCountry(t.db);
    await api('delete', `/countries/${c.id}`).expect(204);
    const late = await api('put', `/countries/${c.id}`).set('If-Match', c.edit_timestamp.toISOString()).send({ id: c.id, cntry_name: 'Too late' });
    expect(late.status).toBe(404);
    expect(late.body.message).toBe(`Country ${c.id} not found: it may have been deleted`);
  });
});

describe('countries choice list', () => {
  it('answers {id, name} sorted by name, and the checksum changes when the list changes', async () => {
    const list = await api('get', '/countries/choice/');
    expect(list.status).toBe(200);
    expect(list.body[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    await createCountry(t.db, { cntry_code: 'CAD', cntry_name: 'Choice ad' });
    await createCountry(t.db, { cntry_code: 'CAB', cntry_name: 'Choice Äb' });
    await createCountry(t.db, { cntry_code: 'CAC', cntry_name: 'Choice Ac' });
    const names = (await api('get', '/countries/choice/')).body.map((c: { name: string }) => c.name);
    // Accents and case sort as people expect, not by code point.
    expect(names.filter((n: string) => n.startsWith('Choice'))).toEqual(['Choice Äb', 'Choice Ac', 'Choice ad']);
    const before = (await api('get', '/countries/choice_checksum/')).body.checksum;
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    expect((await api('get', '/countries/choice_checksum/')).body.checksum).toBe(before);
    const c = await createCountry(t.db, { cntry_code: 'CHK', cntry_name: 'Checksum' });
    const afterCreate = (await api('get', '/countries/choice_checksum/')).body.checksum;
    expect(afterCreate).not.toBe(before);
    await api('put', `/countries/${c.id}`).set('If-Match', c.edit_timestamp.toISOString()).send({ id: c.id, cntry_name: 'Checksum renamed' }).expect(200);
    expect((await api('get', '/countries/choice_checksum/')).body.checksum).not.toBe(afterCreate);
  });

  it('answers the list with its checksum as ETag, and 304 without a body while it has not changed', async () => {
    const first = await api('get', '/countries/choice/');
    const etag = first.headers.etag as string;
    expect(etag).toBe(`"${(await api('get', '/countries/choice_checksum/')).body.checksum}"`);
    const unchanged = await api('get', '/countries/choice/').set('If-None-Match', etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    await createCountry(t.db, { cntry_code: 'ETG', cntry_name: 'Etag land' });
    const changed = await api('get', '/countries/choice/').set('If-None-Match', etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body.map((c: { name: string }) => c.name)).toContain('Etag land');
  });
});

describe('countries permissions', () => {
  it('lets a Reader read, and refuses Reader and User writes with 403, changing nothing', async () => {
    const c = await createCountry(t.db, { cntry_code: 'RDR', cntry_name: 'Readonly' });
    for (const role of ['Reader', 'User'] as const) {
      const u = await userWithToken(t.app, t.db, role);
      expect((await api('get', '/countries', u.token)).status).toBe(200);
      expect((await api('get', `/countries/${c.id}`, u.token)).status).toBe(200);
      const create = await api('post', '/countries', u.token).send({ cntry_code: 'NOP', cntry_name: 'Nope' });
      expect(create.status).toBe(403);
      expect(create.body.message).toBe('Your role does not allow this');
      expect((await api('put', `/countries/${c.id}`, u.token).send({ id: c.id, cntry_name: 'Changed' })).status).toBe(403);
      expect((await api('delete', `/countries/${c.id}`, u.token)).status).toBe(403);
    }
    const rows = await t.db.select().from(countries).where(eq(countries.cntry_code, 'NOP'));
    expect(rows).toEqual([]);
    expect((await api('get', `/countries/${c.id}`)).body.cntry_name).toBe('Readonly');
  });

  it('answers 401 to anonymous calls', async () => {
    expect((await t.http().get('/api/v1.0/countries')).status).toBe(401);
    expect((await t.http().post('/api/v1.0/countries').send({ cntry_code: 'AN', cntry_name: 'Anon' })).status).toBe(401);
  });
});

describe('an export read only in part', () => {
  it('gives its connection back with the snapshot ended: the next write on that connection works', async () => {
    // One connection: what the export leaves on it, the next query meets.
    const one = connect(t.databaseUrl, { max: 1 });
    try {
      const { service } = countryModule({ ...t.ctx, db: one.db });
      const rows = service.iterate({ sort: [{ field: 'cntry_name', direction: 'asc' }], search: undefined, filters: {}, exactCount: false }, ['id', 'cntry_name'], undefined, 100);
      expect((await rows.next()).done).toBe(false);
      // The reader stops (the client went away): the generator is closed half-way through the rows.
      await rows.return(undefined);
      const { rows: state } = await one.pool.query<{ readOnly: string }>(`select current_setting('transaction_read_only') as "readOnly"`);
      expect(state[0]!.readOnly).toBe('off');
      const [made] = await one.db.insert(countries).values({ cntry_code: 'ZZX', cntry_name: 'After an export' }).returning({ id: countries.id });
      expect(made!.id).toBeGreaterThan(0);
    } finally {
      await one.close();
    }
  });
});

describe('an export read in batches', () => {
  it('yields every row once and in order, each row whole after its batch let go of it, whether the batch size divides the rows or not', async () => {
    const { service } = countryModule(t.ctx);
    for (const batchSize of [40, 7]) {
      const rows: unknown[][] = [];
      const read = service.iterate({ sort: [{ field: 'cntry_name', direction: 'asc' }], search: 'Paging', filters: {}, exactCount: false }, ['cntry_code', 'cntry_name'], undefined, batchSize);
      for await (const row of read) rows.push(row);
      expect(rows).toHaveLength(120);
      expect(rows[0]).toEqual(['PAA', 'Paging 000']);
      expect(rows[40]).toEqual(['PBO', 'Paging 040']);
      expect(rows[119]).toEqual(['PEP', 'Paging 119']);
      expect(rows.map((r) => r[1])).toEqual(Array.from({ length: 120 }, (_, i) => `Paging ${String(i).padStart(3, '0')}`));
    }
  });
});
