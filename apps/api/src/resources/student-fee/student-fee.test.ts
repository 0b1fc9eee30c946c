import { describe, expect, it } from 'vitest';
import { studentFeeResource } from '@app/contracts';
import { setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { userWithToken } from '../../test/factories.js';

const t = await setupTestApp();

// Unique per (intake, scholarship): intakes 2000–2099 × the 8 seeded scholarships.
const valid = (n: number) => ({ intake: 2000 + (n % 100), scholarship_id: 1 + (Math.floor(n / 100) % 8), registration_fee_amount: 250 });

crudSuite(t, {
  resource: studentFeeResource,
  valid,
  invalid: { body: { registration_fee_amount: 'ten' }, fields: ['intake', 'scholarship_id', 'registration_fee_amount'] },
  change: { monthly_allowance_amount: 934.5 },
  sortBy: ['intake', 'scholarship_code'],
});

describe('student fees', () => {
  it('defaults new amounts to 0, shows the scholarship code, and refuses a second fee for the same intake and scholarship', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const post = (body: object) => t.http().post('/api/v1.0/studentfees').set('Authorization', `Bearer ${admin.token}`).send(body);
    const res = await post({ intake: 2024, scholarship_id: 3 });
    expect(res.status).toBe(201);
    const row = (await t.http().get(`/api/v1.0/studentfees/${res.body.id}`).set('Authorization', `Bearer ${admin.token}`)).body;
    expect(row).toMatchObject({
      intake: 2024,
      scholarship_code: 'AF-FULL',
      registration_fee_amount: 0,
      participationfee1_amount: 0,
      participationfee2_amount: 0,
      administrationfee1_amount: 0,
      administrationfee2_amount: 0,
      monthly_allowance_amount: 0,
    });
    const dup = await post({ intake: 2024, scholarship_id: 3 });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A Student Fee with this Intake and Scholarship already exists');
    const unknown = await post({ intake: 2025, scholarship_id: 999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ scholarship_id: ['scholarship_id refers to a scholarships that does not exist'] });
  });
});
