import { describe, expect, it } from 'vitest';
import { milestoneResource } from '@app/contracts';
import { setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { userWithToken } from '../../test/factories.js';

const t = await setupTestApp();

crudSuite(t, {
  resource: milestoneResource,
  valid: (n) => ({ intake: 2000 + (n % 100), scholarship_id: 1 + (n % 8), year: 1 + (n % 2), milestone_date: '2024-10-01', milestone_amount: 300 }),
  invalid: { body: { milestone_date: '01.10.2024' }, fields: ['intake', 'scholarship_id', 'year', 'milestone_date'] },
  change: { milestone_amount: 450.75, milestone_date: '2025-03-31' },
  sortBy: ['intake', 'year'],
});

describe('milestones', () => {
  it('defaults a new amount to 0 and filters by intake, scholarship type, scholarship and year', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const auth = { Authorization: `Bearer ${admin.token}` };
    const post = (body: object) => t.http().post('/api/v1.0/milestones').set(auth).send(body);
    expect((await post({ intake: 2150, scholarship_id: 1, year: 1 })).body.errors.intake).toEqual(['Intake must be a year up to 2100']);
    const created = await post({ intake: 2099, scholarship_id: 1, year: 1 });
    await post({ intake: 2099, scholarship_id: 2, year: 2, milestone_amount: 10 });
    await post({ intake: 2099, scholarship_id: 3, year: 2, milestone_amount: 20 });
    const row = (await t.http().get(`/api/v1.0/milestones/${created.body.id}`).set(auth)).body;
    expect(row).toMatchObject({ milestone_amount: 0, scholarship_code: 'EU-FULL', milestone_date: null });
    const q = async (query: string) => (await t.http().get(`/api/v1.0/milestones?intake=2099&${query}`).set(auth)).body.data.map((m: { scholarship_code: string }) => m.scholarship_code);
    expect(await q('sort=scholarship_code|asc')).toEqual(['AF-FULL', 'EU-FULL', 'EU-PART']);
    expect(await q('scholarship_type=Full%20scholarship&sort=scholarship_code|asc')).toEqual(['AF-FULL', 'EU-FULL']);
    expect(await q('scholarship_id=2')).toEqual(['EU-PART']);
    expect(await q('year=2&sort=scholarship_code|desc')).toEqual(['EU-PART', 'AF-FULL']);
    expect((await t.http().get('/api/v1.0/milestones?year=two').set(auth)).status).toBe(400);
  });

  it('serves the scholarship choice lists', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const get = async (path: string) => (await t.http().get(`/api/v1.0/${path}`).set('Authorization', `Bearer ${admin.token}`)).body;
    expect(await get('scholarships/choice')).toContainEqual({ id: 1, name: 'EU-FULL' });
    expect(await get('scholarships_type/choice')).toEqual([
      { id: 'Full scholarship', name: 'Full scholarship' },
      { id: 'Partial scholarship', name: 'Partial scholarship' },
      { id: 'Self-funded', name: 'Self-funded' },
      { id: 'Tuition waiver', name: 'Tuition waiver' },
    ]);
    expect((await get('scholarships_region/choice')).map((c: { name: string }) => c.name)).toEqual(['Africa', 'Asia', 'Europe', 'Latin America', 'Worldwide']);
    expect((await get('scholarships_type/choice_checksum')).checksum).toMatch(/^[0-9a-f]{32}$/);
  });
});
