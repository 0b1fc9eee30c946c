import { describe, expect, it } from 'vitest';
import { universityResource } from '@app/contracts';
import { setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { userWithToken } from '../../test/factories.js';

const t = await setupTestApp();

const valid = (n: number) => ({
  name: `university ${n}`,
  shortname: `U${n}`,
  payment_holder_name: 'Universität Heidelberg Kasse',
  payment_holder_iban: 'DE89 3704 0044 0532 0130 00',
  payment_holder_swift: 'COBADEFFXXX',
  payment_holder_address: 'Grabengasse 1, 69117 Heidelberg',
  payment_bank_address: 'Commerzbank, Hauptstraße 1, Heidelberg',
  payment_amount: 1500.5,
});

crudSuite(t, {
  resource: universityResource,
  valid,
  invalid: {
    body: { name: 'No bank', shortname: 'NB' },
    fields: ['payment_holder_name', 'payment_holder_iban', 'payment_holder_swift', 'payment_holder_address', 'payment_bank_address', 'payment_amount'],
  },
  change: { payment_amount: 2000.25 },
  sortBy: ['name', 'payment_amount'],
});

describe('universities', () => {
  const post = async (body: object) => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    return t.http().post('/api/v1.0/universities').set('Authorization', `Bearer ${admin.token}`).send(body);
  };

  it('stores the IBAN without spaces, the BIC upper-cased, and answers money as a number', async () => {
    const res = await post({ ...valid(1), payment_holder_swift: 'cobadeff' });
    expect(res.status).toBe(201);
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const row = (await t.http().get(`/api/v1.0/universities/${res.body.id}`).set('Authorization', `Bearer ${admin.token}`)).body;
    expect(row).toMatchObject({ payment_holder_iban: 'DE89370400440532013000', payment_holder_swift: 'COBADEFF', payment_amount: 1500.5 });
  });

  it('refuses an IBAN with a wrong check digit and a malformed BIC, naming the fields', async () => {
    const res = await post({ ...valid(2), payment_holder_iban: 'DE89 3704 0044 0532 0130 01', payment_holder_swift: 'COBA1' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      payment_holder_iban: ['Payment holder IBAN is not a valid IBAN'],
      payment_holder_swift: ['Payment holder SWIFT is not a valid BIC (8 or 11 characters)'],
    });
  });

  it('refuses a short name that differs from another only in case (409 naming the field), and labels choices with it', async () => {
    expect((await post({ ...valid(5), name: 'Karlsruhe', shortname: 'KIT-X' })).status).toBe(201);
    const dup = await post({ ...valid(6), name: 'Karlsruhe', shortname: 'kit-x' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: 'A University with this Short Name already exists', errors: { shortname: ['Short Name is already used'] } });
    expect((await post({ ...valid(7), name: 'Karlsruhe', shortname: 'KIT-Y' })).status).toBe(201);
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const choice = (await t.http().get('/api/v1.0/universities/choice').set('Authorization', `Bearer ${admin.token}`)).body as { name: string }[];
    expect(choice.map((c) => c.name).filter((n) => n.startsWith('Karlsruhe'))).toEqual(['Karlsruhe (KIT-X)', 'Karlsruhe (KIT-Y)']);
  });

  it('refuses more than two decimals and negative amounts', async () => {
    expect((await post({ ...valid(3), payment_amount: 10.005 })).body.errors.payment_amount).toEqual(['Payment amount may have at most 2 decimals']);
    expect((await post({ ...valid(4), payment_amount: -1 })).body.errors.payment_amount).toEqual(['Payment amount cannot be negative']);
  });
});
