import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { contracts, invoices, logEvents, studentFees } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { createContract, createUser, userWithToken } from '../../test/factories.js';
import type { Actor } from '../crud/crud-service.js';
import { planContractInvoices, switchContractToSemesters } from './plan.js';

const t = await setupTestApp();
const staff = await createUser(t.db, { role: 'User' });
const actor: Actor = { user: { id: staff.id, usr_login_name: staff.login, usr_name: 'Staff', userrole_name: 'User' } as Actor['user'] };

let intake = 2050;
async function contractWithFees(values: Partial<typeof contracts.$inferInsert> = {}, fees: Partial<typeof studentFees.$inferInsert> = {}) {
  const year = intake++;
  await t.db.insert(studentFees).values({
    intake: year,
    scholarship_id: 1,
    registration_fee_amount: '150.00',
    participationfee1_amount: '4500.01',
    participationfee2_amount: '4500.00',
    administrationfee1_amount: '100.00',
    administrationfee2_amount: '100.00',
    ...fees,
  });
  return createContract(t.db, { intake: year, scholarship_id: 1, start_date: '2026-09-01', end_date: '2028-08-31', ...values });
}
const plan = (contractId: number) => t.db.transaction((tx) => planContractInvoices(tx, actor, contractId));
const invoicesOf = (contractId: number) =>
  t.db
    .select({ reference: invoices.document_reference, type: invoices.document_type_id, year: invoices.year, semester: invoices.semester, amount: invoices.amount, pro_forma: invoices.pro_forma, planned_date: invoices.planned_date })
    .from(invoices)
    .where(eq(invoices.contract_id, contractId))
    .orderBy(invoices.year, invoices.document_type_id, invoices.semester);

describe('plan invoices (issue 13 point 3)', () => {
  it('plans the registration fee (pro forma) and the fees of years 1 and 2 from the student fee row, with their references', async () => {
    const c = await contractWithFees();
    const outcome = await plan(c.id);
    expect(outcome.amount).toBe(9350.01);
    expect(outcome.message).toMatch(/^Planned 5 invoice\(s\) over € 9\.350,01: /);
    const rows = await invoicesOf(c.id);
    const ref = (s: string) => `${c.application_number}-${s}`;
    expect(rows).toEqual([
      { reference: ref('Y1-T3'), type: 3, year: 1, semester: 0, amount: '150.00', pro_forma: true, planned_date: '2026-09-01' },
      { reference: ref('Y1-T5'), type: 5, year: 1, semester: 0, amount: '4500.01', pro_forma: false, planned_date: '2026-09-01' },
      { reference: ref('Y1-T7'), type: 7, year: 1, semester: 0, amount: '100.00', pro_forma: false, planned_date: '2026-09-01' },
      { reference: ref('Y2-T5'), type: 5, year: 2, semester: 0, amount: '4500.00', pro_forma: false, planned_date: '2027-09-01' },
      { reference: ref('Y2-T7'), type: 7, year: 2, semester: 0, amount: '100.00', pro_forma: false, planned_date: '2027-09-01' },
    ]);
    const events = await t.db.select({ n: sql<number>`count(*)::int` }).from(logEvents).where(and(eq(logEvents.contract_id, c.id), eq(logEvents.resource, 'invoice')));
    expect(events[0]!.n).toBe(5);
  });

  it('with instalments plans semesters whose amounts add up to the yearly fee, in SQL too', async () => {
    const c = await contractWithFees({ instalments: true });
    await plan(c.id);
    const [sum] = await t.db
      .select({ total: sql<string>`sum(${invoices.amount})::text`, n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(eq(invoices.contract_id, c.id), eq(invoices.year, 1), eq(invoices.document_type_id, 5)));
    expect(sum).toEqual({ total: '4500.01', n: 2 });
    const semesters = (await invoicesOf(c.id)).filter((r) => r.type === 5 && r.year === 1);
    expect(semesters.map((r) => [r.semester, r.amount, r.planned_date])).toEqual([
      [1, '2250.01', '2026-09-01'],
      [2, '2250.00', '2027-03-01'],
    ]);
  });

  it('planning twice plans nothing new', async () => {
    const c = await contractWithFees();
    await plan(c.id);
    const again = await plan(c.id);
    expect(again).toMatchObject({ amount: 0, planned: [], message: 'Nothing to plan: every invoice of this contract is planned already' });
    expect(await invoicesOf(c.id)).toHaveLength(5);
  });

  it('refuses a contract without a student fee row (409 naming intake and scholarship) and plans nothing', async () => {
    const c = await createContract(t.db, { intake: 2099, scholarship_id: 2 });
    await expect(plan(c.id)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/^There is no student fee for intake 2099 and scholarship /) });
    expect(await invoicesOf(c.id)).toHaveLength(0);
  });

  it('switch to semester payment splits the planned yearly fees into semesters to the cent, and leaves numbered ones', async () => {
    const c = await contractWithFees({}, { participationfee2_amount: '4500.03' });
    await plan(c.id);
    // Year 1's participation fee is numbered already: it stays whole.
    await t.db
      .update(invoices)
      .set({ number: `T-${c.id}-1`, invoice_date: '2026-09-05' })
      .where(and(eq(invoices.contract_id, c.id), eq(invoices.year, 1), eq(invoices.document_type_id, 5)));
    const outcome = await t.db.transaction((tx) => switchContractToSemesters(tx, actor, c.id));
    expect(outcome.message).toBe('Switched to semester payment: 3 yearly invoice(s) split into 6 semester invoices over € 4.700,03');
    const rows = await invoicesOf(c.id);
    expect(rows.map((r) => [r.type, r.year, r.semester, r.amount, r.planned_date])).toEqual([
      [3, 1, 0, '150.00', '2026-09-01'],
      [5, 1, 0, '4500.01', '2026-09-01'],
      [7, 1, 1, '50.00', '2026-09-01'],
      [7, 1, 2, '50.00', '2027-03-01'],
      [5, 2, 1, '2250.02', '2027-09-01'],
      [5, 2, 2, '2250.01', '2028-03-01'],
      [7, 2, 1, '50.00', '2027-09-01'],
      [7, 2, 2, '50.00', '2028-03-01'],
    ]);
    expect(rows.find((r) => r.type === 5 && r.year === 2 && r.semester === 2)!.reference).toBe(`${c.application_number}-Y2-S2-T5`);
    const [after] = await t.db.select({ instalments: contracts.instalments }).from(contracts).where(eq(contracts.id, c.id));
    expect(after!.instalments).toBe(true);
    // Planning afterwards adds nothing, and switching again splits nothing.
    expect((await plan(c.id)).planned).toEqual([]);
    expect((await t.db.transaction((tx) => switchContractToSemesters(tx, actor, c.id))).planned).toEqual([]);
  });
});

describe('a fee change and a planning at the same moment (decision 038)', () => {
  it('the change waits for the planning that read the fee, then re-prices what it planned', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const c = await contractWithFees();
    const [fee] = await t.db.select({ id: studentFees.id }).from(studentFees).where(eq(studentFees.intake, c.intake));
    let changed = false;
    let put: Promise<{ status: number }> | undefined;
    await t.db.transaction(async (tx) => {
      await planContractInvoices(tx, actor, c.id);
      put = putAsRead(t, admin.token, `/studentfees/${fee!.id}`, { id: fee!.id, participationfee1_amount: 4600 }).then((res) => {
        changed = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The planning holds the fee FOR SHARE: the change cannot commit in between.
      expect(changed).toBe(false);
    });
    expect((await put!).status).toBe(200);
    const [y1] = await t.db.select({ amount: invoices.amount }).from(invoices).where(and(eq(invoices.contract_id, c.id), eq(invoices.document_type_id, 5), eq(invoices.year, 1)));
    expect(y1!.amount).toBe('4600.00');
  });
});
