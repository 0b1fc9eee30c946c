import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { milestoneResource } from '@app/contracts';
import { logEvents, milestones, scholarshipPayments } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { crudSuite } from '../../test/crud-suite.js';
import { createContract, userWithToken } from '../../test/factories.js';

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

describe('a changed milestone reaches the payments planned from it (decision 038)', () => {
  let admin: Awaited<ReturnType<typeof userWithToken>>;
  let user: Awaited<ReturnType<typeof userWithToken>>;
  beforeAll(async () => {
    admin = await userWithToken(t.app, t.db, 'Administrator');
    user = await userWithToken(t.app, t.db, 'User');
  });
  // Intakes past 2100 are not valid input: no milestone of the crud suite shares them.
  let nextIntake = 2101;
  async function milestoneOf(values: Partial<typeof milestones.$inferInsert> = {}) {
    const [m] = await t.db.insert(milestones).values({ intake: nextIntake++, scholarship_id: 1, year: 1, milestone_date: '2026-10-01', milestone_amount: '500.00', ...values }).returning();
    return m!;
  }
  async function plannedFor(intake: number) {
    const c = await createContract(t.db, { intake, scholarship_id: 1, start_date: '2026-09-01', end_date: '2028-08-31', check_universityfee_payment: false });
    const res = await t.http().post(`/api/v1.0/contracts/${c.id}/plan_scholarship_payments`).set('Authorization', `Bearer ${user.token}`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [payment] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.contract_id, c.id));
    return { contract: c, payment: payment! };
  }
  const change = async (id: number, body: object) => {
    const res = await putAsRead(t, admin.token, `/milestones/${id}`, { id, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const payment = async (id: number) => (await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, id)))[0]!;
  const eventsOf = (resource: string, ids: number[]) =>
    t.db
      .select({ message: logEvents.le_message, contract_id: logEvents.contract_id, changes: logEvents.changes })
      .from(logEvents)
      .where(and(eq(logEvents.resource, resource), inArray(logEvents.record_id, ids)))
      .orderBy(asc(logEvents.id));

  it('re-prices and re-dates the planned payments still at the old amount and date; one changed by hand keeps its amount, a scheduled one is left', async () => {
    const m = await milestoneOf();
    const plain = await plannedFor(m.intake);
    const byHand = await plannedFor(m.intake);
    const scheduled = await plannedFor(m.intake);
    expect(plain.payment).toMatchObject({ plan_key: `M${m.id}`, amount: '500.00', planned_date: '2026-10-01', period: 'Y1' });
    await t.db.update(scholarshipPayments).set({ amount: '450.00' }).where(eq(scholarshipPayments.id, byHand.payment.id));
    await t.db.update(scholarshipPayments).set({ number: `S-${scheduled.contract.id}`, payment_date: '2026-10-01' }).where(eq(scholarshipPayments.id, scheduled.payment.id));

    await change(m.id, { milestone_amount: 700, milestone_date: '2026-10-15' });

    expect(await payment(plain.payment.id)).toMatchObject({ amount: '700.00', planned_date: '2026-10-15' });
    // Its amount was changed by hand: kept; its date was not: it moves.
    expect(await payment(byHand.payment.id)).toMatchObject({ amount: '450.00', planned_date: '2026-10-15' });
    expect(await payment(scheduled.payment.id)).toMatchObject({ amount: '500.00', planned_date: '2026-10-01' });

    const cause = `(Milestone "${m.intake} EU-FULL Y1 01-10-2026" changed milestone_date 01-10-2026 → 15-10-2026; milestone_amount 500 → 700)`;
    const updates = (await eventsOf('scholarship_payment', [plain.payment.id, byHand.payment.id, scheduled.payment.id])).filter((e) => e.message.startsWith('Updated'));
    expect(updates).toEqual([
      {
        message: `Updated Scholarship Payment "${plain.contract.application_number} Y1": amount 500 → 700; planned_date 01-10-2026 → 15-10-2026 ${cause}`,
        contract_id: plain.contract.id,
        changes: { amount: { old: 500, new: 700 }, planned_date: { old: '2026-10-01', new: '2026-10-15' } },
      },
      {
        message: `Updated Scholarship Payment "${byHand.contract.application_number} Y1": planned_date 01-10-2026 → 15-10-2026 ${cause}`,
        contract_id: byHand.contract.id,
        changes: { planned_date: { old: '2026-10-01', new: '2026-10-15' } },
      },
    ]);
    const [own] = (await eventsOf('milestone', [m.id])).slice(-1);
    expect(own!.message).toBe(
      `Updated Milestone "${m.intake} EU-FULL Y1 01-10-2026": milestone_date 01-10-2026 → 15-10-2026; milestone_amount 500 → 700. ` +
        '1 planned payment(s) re-priced; 1 left as changed by hand; 1 scheduled at the old amount left as they are. ' +
        '2 planned payment(s) moved to the new date; 0 left as changed by hand; 1 scheduled on the old date left as they are',
    );
  });

  it('a milestone given a date moves the payments planned on the contract start plus its years, and back', async () => {
    const m = await milestoneOf({ year: 2, milestone_date: null });
    const { payment: p } = await plannedFor(m.intake);
    expect(p.planned_date).toBe('2027-09-01');
    await change(m.id, { milestone_date: '2027-10-01' });
    expect((await payment(p.id)).planned_date).toBe('2027-10-01');
    await change(m.id, { milestone_date: null });
    expect((await payment(p.id)).planned_date).toBe('2027-09-01');
  });

  it('leaves the planned payments when the intake, scholarship or year changes with the amount, and says so', async () => {
    const m = await milestoneOf();
    const { payment: p } = await plannedFor(m.intake);
    await change(m.id, { milestone_amount: 800, year: 2 });
    expect((await payment(p.id)).amount).toBe('500.00');
    const [own] = (await eventsOf('milestone', [m.id])).slice(-1);
    expect(own!.message).toMatch(/\. Planned payments are left as they are: the intake, scholarship or year changed too \(they were planned for the old one\)$/);
  });

  it('names a milestone by intake, scholarship, year and date in its events', async () => {
    const post = await t.http().post('/api/v1.0/milestones').set('Authorization', `Bearer ${admin.token}`).send({ intake: 2097, scholarship_id: 2, year: 2, milestone_date: '2098-03-31' });
    expect(post.status).toBe(201);
    expect((await t.http().delete(`/api/v1.0/milestones/${post.body.id}`).set('Authorization', `Bearer ${admin.token}`)).status).toBe(204);
    expect((await eventsOf('milestone', [post.body.id])).map((e) => e.message)).toEqual(['Created Milestone "2097 EU-PART Y2 31-03-2098"', 'Deleted Milestone "2097 EU-PART Y2 31-03-2098"']);
  });
});
