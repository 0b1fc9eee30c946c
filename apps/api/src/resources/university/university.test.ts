import { describe, expect, it } from 'vitest';
import { and, asc, desc, eq, inArray, like } from 'drizzle-orm';
import { universityResource } from '@app/contracts';
import { invoices, logEvents, scholarshipPayments } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { createContract, userWithToken } from '../../test/factories.js';

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

const post = async (body: object) => {
  const admin = await userWithToken(t.app, t.db, 'Administrator');
  return t.http().post('/api/v1.0/universities').set('Authorization', `Bearer ${admin.token}`).send(body);
};

describe('universities', () => {

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

describe('a changed payment amount reaches the planned university fees (decision 043)', () => {
  it('re-prices the planned fees still at what the old amount gave, whole or a semester half; one changed by hand and a scheduled one are left', async () => {
    const [admin, user] = [await userWithToken(t.app, t.db, 'Administrator'), await userWithToken(t.app, t.db, 'User')];
    const created = await post({ ...valid(10), name: 'Fees reach', shortname: 'FEES-R', payment_amount: 1500.01 });
    const other = await post({ ...valid(11), name: 'Fees stay', shortname: 'FEES-S', payment_amount: 1500.01 });
    const [uni, otherUni] = [created.body.id as number, other.body.id as number];
    /** A contract paying its university fees, its participation-fee invoices (year, semester), planned through the API. */
    async function planned(universityId: number, semesters: number[]) {
      const c = await createContract(t.db, { y1_university_id: universityId, check_universityfee_payment: true, start_date: '2026-09-01', end_date: '2028-08-31' });
      await t.db.insert(invoices).values(
        semesters.map((semester) => ({ contract_id: c.id, year: 1, semester, amount: '4000.00', description: 'Participation fee', planned_date: semester === 2 ? '2027-02-01' : '2026-09-01', document_type_id: 5, document_reference: `U-${c.id}-${semester}` })),
      );
      const res = await t.http().post(`/api/v1.0/contracts/${c.id}/plan_scholarship_payments`).set('Authorization', `Bearer ${user.token}`).send({});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const rows = await t.db
        .select()
        .from(scholarshipPayments)
        .where(and(eq(scholarshipPayments.contract_id, c.id), eq(scholarshipPayments.scholarship_payment_type_id, 2)))
        .orderBy(asc(scholarshipPayments.planned_date));
      return { contract: c, rows };
    }
    const whole = await planned(uni, [0]);
    const halves = await planned(uni, [1, 2]);
    const byHand = await planned(uni, [0]);
    const scheduled = await planned(uni, [0]);
    const elsewhere = await planned(otherUni, [0]);
    expect(halves.rows.map((r) => r.amount)).toEqual(['750.01', '750.00']);
    await t.db.update(scholarshipPayments).set({ amount: '1400.00' }).where(eq(scholarshipPayments.id, byHand.rows[0]!.id));
    await t.db.update(scholarshipPayments).set({ number: `S-${scheduled.contract.id}`, payment_date: '2026-09-01' }).where(eq(scholarshipPayments.id, scheduled.rows[0]!.id));

    const res = await putAsRead(t, admin.token, `/universities/${uni}`, { id: uni, payment_amount: 1800 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const amounts = async (of: { rows: { id: number }[] }) =>
      (await t.db.select().from(scholarshipPayments).where(inArray(scholarshipPayments.id, of.rows.map((r) => r.id))).orderBy(asc(scholarshipPayments.planned_date))).map((r) => r.amount);
    expect(await amounts(whole)).toEqual(['1800.00']);
    expect(await amounts(halves)).toEqual(['900.00', '900.00']);
    expect(await amounts(byHand)).toEqual(['1400.00']);
    expect(await amounts(scheduled)).toEqual(['1500.01']);
    expect(await amounts(elsewhere)).toEqual(['1500.01']);

    const events = await t.db
      .select({ message: logEvents.le_message, contract_id: logEvents.contract_id, changes: logEvents.changes })
      .from(logEvents)
      .where(and(eq(logEvents.resource, 'scholarship_payment'), inArray(logEvents.record_id, halves.rows.map((r) => r.id)), like(logEvents.le_message, 'Updated%')))
      .orderBy(asc(logEvents.record_id));
    const cause = '(University "FEES-R" changed payment_amount 1500.01 → 1800)';
    expect(events).toEqual(
      halves.rows.map((r, i) => ({
        message: `Updated Scholarship Payment "${halves.contract.application_number} ${r.period}": amount ${['750.01', '750'][i]} → 900 ${cause}`,
        contract_id: halves.contract.id,
        changes: { amount: { old: [750.01, 750][i], new: 900 } },
      })),
    );
    const [own] = await t.db.select({ message: logEvents.le_message }).from(logEvents).where(and(eq(logEvents.resource, 'university'), eq(logEvents.record_id, uni))).orderBy(desc(logEvents.id)).limit(1);
    expect(own!.message).toBe(
      'Updated University "FEES-R": payment_amount 1500.01 → 1800. 3 planned university fee(s) re-priced; 1 left as changed by hand; 1 scheduled at the old amount left as they are',
    );
  });
});
