import { describe, expect, it } from 'vitest';
import { programResource } from '@app/contracts';
import { setupTestApp } from '../../test/app.js';
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
    expect(choice.body.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Anthropology', 'Zoology']));
  });
});
