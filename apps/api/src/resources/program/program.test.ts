import { describe, expect, it } from 'vitest';
import { programResource } from '@app/contracts';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { userWithToken } from '../../test/factories.js';

const t = await setupTestApp();

crudSuite(t, {
  resource: programResource,
  valid: (n) => ({ name: `program ${n}`, shortname: `P${n}` }),
  invalid: { body: { name: '' }, fields: ['name', 'shortname'] },
  change: { name: 'renamed program' },
  sortBy: ['name', 'shortname'],
});

describe('programs', () => {
  it('lists by name by default, refuses a duplicate short name, and serves the choice list', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const post = (body: object) => t.http().post('/api/v1.0/programs').set('Authorization', `Bearer ${admin.token}`).send(body);
    await post({ name: 'Zoology', shortname: 'ZOO' });
    await post({ name: 'Anthropology', shortname: 'ANT' });
    const dup = await post({ name: 'Another', shortname: 'ZOO' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A Program with this Short Name already exists');
    const list = await t.http().get('/api/v1.0/programs?search=olog').set('Authorization', `Bearer ${admin.token}`);
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Anthropology', 'Zoology']);
    const choice = await t.http().get('/api/v1.0/programs/choice').set('Authorization', `Bearer ${admin.token}`);
    expect(choice.body.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Anthropology (ANT)', 'Zoology (ZOO)']));
  });

  it('refuses a short name that differs from another only in case (409 naming the field), on create and on update', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const post = (body: object) => t.http().post('/api/v1.0/programs').set('Authorization', `Bearer ${admin.token}`).send(body);
    expect((await post({ name: 'Master Z', shortname: 'MSC-Z' })).status).toBe(201);
    const dup = await post({ name: 'Master Z again', shortname: 'msc-z' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: 'A Program with this Short Name already exists', errors: { shortname: ['Short Name is already used'] } });
    const other = await post({ name: 'Master Y', shortname: 'MSC-Y' });
    const renamed = await putAsRead(t, admin.token, `/programs/${other.body.id}`, { id: other.body.id, shortname: 'Msc-Z' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors).toEqual({ shortname: ['Short Name is already used'] });
    // Its own short name in another case is a change of its own.
    expect((await putAsRead(t, admin.token, `/programs/${other.body.id}`, { id: other.body.id, shortname: 'Msc-Y' })).status).toBe(200);
  });

  it('labels each choice with its short name, so two programs of the same name can be told apart', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const post = (body: object) => t.http().post('/api/v1.0/programs').set('Authorization', `Bearer ${admin.token}`).send(body);
    const a = await post({ name: 'Master Twin', shortname: 'TWIN-B' });
    const b = await post({ name: 'Master Twin', shortname: 'TWIN-A' });
    const choice = (await t.http().get('/api/v1.0/programs/choice').set('Authorization', `Bearer ${admin.token}`)).body as { id: number; name: string }[];
    expect(choice.filter((c) => c.name.startsWith('Master Twin'))).toEqual([
      { id: b.body.id, name: 'Master Twin (TWIN-A)' },
      { id: a.body.id, name: 'Master Twin (TWIN-B)' },
    ]);
  });
});
