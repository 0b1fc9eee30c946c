import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { studentFeeResource } from '@app/contracts';
import { invoices, logEvents, scholarshipPayments, studentFees } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { createContract, userWithToken } from '../../test/factories.js';

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

describe('a changed fee reaches what was planned from it (decision 038)', () => {
  let admin: Awaited<ReturnType<typeof userWithToken>>;
  let user: Awaited<ReturnType<typeof userWithToken>>;
  beforeAll(async () => {
    admin = await userWithToken(t.app, t.db, 'Administrator');
    user = await userWithToken(t.app, t.db, 'User');
  });
  // Intakes 2101+ are not valid input, so none of the crud suite's fees (2000–2099) shares them: inserted directly.
  let nextIntake = 2101;
  async function feeOf(values: Partial<typeof studentFees.$inferInsert> = {}) {
    const [fee] = await t.db
      .insert(studentFees)
      .values({ intake: nextIntake++, scholarship_id: 1, registration_fee_amount: '150.00', participationfee1_amount: '1000.00', participationfee2_amount: '1000.00', ...values })
      .returning();
    return fee!;
  }
  const contractOf = (intake: number, values: Partial<Parameters<typeof createContract>[1]> = {}) =>
    createContract(t.db, { intake, scholarship_id: 1, start_date: '2026-09-01', end_date: '2028-08-31', ...values });
  const action = async (contractId: number, name: string) => {
    const res = await t.http().post(`/api/v1.0/contracts/${contractId}/${name}`).set('Authorization', `Bearer ${user.token}`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.message as string;
  };
  const change = async (id: number, body: object) => {
    const res = await putAsRead(t, admin.token, `/studentfees/${id}`, { id, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const feeInvoices = (contractId: number, type = 5, year = 1) =>
    t.db
      .select({ id: invoices.id, semester: invoices.semester, amount: invoices.amount, reference: invoices.document_reference })
      .from(invoices)
      .where(and(eq(invoices.contract_id, contractId), eq(invoices.document_type_id, type), eq(invoices.year, year)))
      .orderBy(asc(invoices.semester));
  const eventsOf = (resource: string, recordIds: number[]) =>
    t.db
      .select({ message: logEvents.le_message, contract_id: logEvents.contract_id, student_id: logEvents.student_id, changes: logEvents.changes })
      .from(logEvents)
      .where(and(eq(logEvents.resource, resource), inArray(logEvents.record_id, recordIds)))
      .orderBy(asc(logEvents.id));
  const feeEvent = async (id: number) => (await eventsOf('studentFee', [id])).at(-1)!.message;

  it('re-prices the planned invoices at the old amount, leaves one changed by hand and a numbered one, and writes an event for each re-priced one', async () => {
    const fee = await feeOf();
    const [plain, byHand, numbered] = [await contractOf(fee.intake), await contractOf(fee.intake), await contractOf(fee.intake)];
    // Another cohort's invoice at the same amount is not this fee's.
    const other = await feeOf();
    const elsewhere = await contractOf(other.intake);
    for (const c of [plain, byHand, numbered, elsewhere]) await action(c.id, 'plan_invoices');
    const [discounted] = await feeInvoices(byHand.id);
    await t.db.update(invoices).set({ amount: '900.00' }).where(eq(invoices.id, discounted!.id));
    const [issued] = await feeInvoices(numbered.id);
    await t.db.update(invoices).set({ number: `T-${numbered.id}`, invoice_date: '2026-09-02' }).where(eq(invoices.id, issued!.id));

    const row = await change(fee.id, { participationfee1_amount: 1200 });
    expect(row.participationfee1_amount).toBe(1200);

    const [repriced] = await feeInvoices(plain.id);
    expect(repriced!.amount).toBe('1200.00');
    expect((await feeInvoices(byHand.id))[0]!.amount).toBe('900.00');
    expect((await feeInvoices(numbered.id))[0]!.amount).toBe('1000.00');
    expect((await feeInvoices(elsewhere.id))[0]!.amount).toBe('1000.00');
    // Only the changed fee: year 2's participation fee and the registration fee keep theirs.
    expect((await feeInvoices(plain.id, 5, 2))[0]!.amount).toBe('1000.00');
    expect((await feeInvoices(plain.id, 3, 1))[0]!.amount).toBe('150.00');

    const reference = `${fee.intake} EU-FULL`;
    expect(await eventsOf('invoice', [repriced!.id, discounted!.id, issued!.id])).toEqual([
      // The planning's create event, then the re-pricing's, in the contract's and student's history.
      expect.objectContaining({ message: `Created Invoice "${repriced!.reference}" (planned)` }),
      expect.objectContaining({ message: `Created Invoice "${discounted!.reference}" (planned)` }),
      expect.objectContaining({ message: `Created Invoice "${issued!.reference}" (planned)` }),
      {
        message: `Updated Invoice "${repriced!.reference}": amount 1000 → 1200 (Student Fee "${reference}" changed participationfee1_amount 1000 → 1200)`,
        contract_id: plain.id,
        student_id: plain.student_id,
        changes: { amount: { old: 1000, new: 1200 } },
      },
    ]);
    expect(await feeEvent(fee.id)).toBe(
      `Updated Student Fee "${reference}": participationfee1_amount 1000 → 1200. 1 planned invoice(s) re-priced; 1 left as changed by hand; ` +
        '1 numbered at the old amount left as they are (a credit note corrects them)',
    );
    // Planning again plans nothing new: the contract has its invoices, now at the new amount.
    expect(await action(plain.id, 'plan_invoices')).toMatch(/^Nothing to plan/);
    const money = (await t.http().get(`/api/v1.0/contracts/${plain.id}`).set('Authorization', `Bearer ${user.token}`)).body;
    expect(money.planned_amount).toBe(150 + 1200 + 1000);
  });

  it('re-prices semester invoices half by half with the split of planning, so they add up to the new fee to the cent', async () => {
    const fee = await feeOf({ participationfee1_amount: '4500.01' });
    const c = await contractOf(fee.intake, { instalments: true });
    // Planned as a whole year, then switched: the switch splits the same way.
    const switched = await contractOf(fee.intake);
    for (const id of [c.id, switched.id]) await action(id, 'plan_invoices');
    await action(switched.id, 'switch_to_semester_payment');
    expect((await feeInvoices(c.id)).map((r) => r.amount)).toEqual(['2250.01', '2250.00']);

    await change(fee.id, { participationfee1_amount: 4600.03 });
    for (const id of [c.id, switched.id]) {
      expect((await feeInvoices(id)).map((r) => [r.semester, r.amount])).toEqual([
        [1, '2300.02'],
        [2, '2300.01'],
      ]);
      const [sum] = await t.db
        .select({ total: sql<string>`sum(${invoices.amount})::text` })
        .from(invoices)
        .where(and(eq(invoices.contract_id, id), eq(invoices.document_type_id, 5), eq(invoices.year, 1)));
      expect(sum!.total).toBe('4600.03');
    }
    expect(await feeEvent(fee.id)).toMatch(/: participationfee1_amount 4500\.01 → 4600\.03\. 4 planned invoice\(s\) re-priced; 0 left as changed by hand$/);
  });

  it('re-prices the planned monthly allowances, not one changed by hand nor a scheduled one', async () => {
    const fee = await feeOf({ monthly_allowance_amount: '300.00' });
    const c = await contractOf(fee.intake, { start_date: '2026-09-01', end_date: '2026-12-31', check_universityfee_payment: false });
    await action(c.id, 'plan_scholarship_payments');
    const allowances = () =>
      t.db
        .select({ id: scholarshipPayments.id, period: scholarshipPayments.period, amount: scholarshipPayments.amount })
        .from(scholarshipPayments)
        .where(eq(scholarshipPayments.contract_id, c.id))
        .orderBy(asc(scholarshipPayments.period));
    const [sep, oct] = await allowances();
    await t.db.update(scholarshipPayments).set({ amount: '150.00' }).where(eq(scholarshipPayments.id, sep!.id));
    await t.db.update(scholarshipPayments).set({ number: `S-${c.id}`, payment_date: '2026-10-01' }).where(eq(scholarshipPayments.id, oct!.id));

    await change(fee.id, { monthly_allowance_amount: 325.5 });
    expect((await allowances()).map((r) => [r.period, r.amount])).toEqual([
      ['2026-09', '150.00'],
      ['2026-10', '300.00'],
      ['2026-11', '325.50'],
      ['2026-12', '325.50'],
    ]);
    const touched = (await allowances()).filter((r) => r.amount === '325.50').map((r) => r.id);
    const events = await eventsOf('scholarship_payment', touched);
    expect(events.filter((e) => e.message.startsWith('Updated'))).toEqual(
      ['2026-11', '2026-12'].map((period) =>
        expect.objectContaining({
          message: `Updated Scholarship Payment "${c.application_number} ${period}": amount 300 → 325.5 (Student Fee "${fee.intake} EU-FULL" changed monthly_allowance_amount 300 → 325.5)`,
          contract_id: c.id,
          changes: { amount: { old: 300, new: 325.5 } },
        }),
      ),
    );
    expect(await feeEvent(fee.id)).toBe(
      `Updated Student Fee "${fee.intake} EU-FULL": monthly_allowance_amount 300 → 325.5. 2 planned monthly allowance(s) re-priced; 1 left as changed by hand; 1 scheduled at the old amount left as they are`,
    );
  });

  it('changes nothing else when nothing was planned from the fee, and says so', async () => {
    const fee = await feeOf();
    const c = await contractOf(fee.intake);
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(logEvents);
    await change(fee.id, { registration_fee_amount: 175 });
    expect(await feeEvent(fee.id)).toBe(`Updated Student Fee "${fee.intake} EU-FULL": registration_fee_amount 150 → 175. 0 planned invoice(s) re-priced; 0 left as changed by hand`);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(logEvents);
    // The fee's own event only.
    expect(after[0]!.n - before[0]!.n).toBe(1);
    expect(await t.db.select().from(invoices).where(eq(invoices.contract_id, c.id))).toEqual([]);
  });

  it('a planned invoice set to a fee of 0 is re-priced to 0 (it cannot be numbered) and the event says to delete it', async () => {
    const fee = await feeOf();
    const c = await contractOf(fee.intake);
    await action(c.id, 'plan_invoices');
    await change(fee.id, { registration_fee_amount: 0 });
    expect((await feeInvoices(c.id, 3, 1))[0]!.amount).toBe('0.00');
    expect(await feeEvent(fee.id)).toMatch(/1 planned invoice\(s\) re-priced; 0 left as changed by hand; at 0 they cannot be numbered: delete those nothing is owed for$/);
    // Back to an amount: the row at 0 is what the old value gave, so it follows again.
    await change(fee.id, { registration_fee_amount: 160 });
    expect((await feeInvoices(c.id, 3, 1))[0]!.amount).toBe('160.00');
  });

  it('names a fee by intake and scholarship in its events', async () => {
    const res = await t.http().post('/api/v1.0/studentfees').set('Authorization', `Bearer ${admin.token}`).send({ intake: 2098, scholarship_id: 2 });
    expect(res.status).toBe(201);
    expect((await t.http().delete(`/api/v1.0/studentfees/${res.body.id}`).set('Authorization', `Bearer ${admin.token}`)).status).toBe(204);
    expect((await eventsOf('studentFee', [res.body.id])).map((e) => e.message)).toEqual(['Created Student Fee "2098 EU-PART"', 'Deleted Student Fee "2098 EU-PART"']);
  });
});
