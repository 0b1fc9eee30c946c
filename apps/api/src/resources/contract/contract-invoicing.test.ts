import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { contracts, invoices, logEvents, scholarshipPayments, studentFees, universities } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { createContract, userWithToken } from '../../test/factories.js';
import { waitFor } from '../../test/wait.js';

const t = await setupTestApp();
await startTestWorkers(t);
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const api = (path: string, token = user.token) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
let intake = 2060;
async function contractWithFees() {
  const year = intake++;
  await t.db.insert(studentFees).values({ intake: year, scholarship_id: 1, registration_fee_amount: '150.00', participationfee1_amount: '4500.01', participationfee2_amount: '4500.00' });
  return createContract(t.db, { intake: year, scholarship_id: 1, start_date: '2026-09-01', end_date: '2028-08-31' });
}
const count = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.contract_id, id))).length;

describe('contracts: Plan invoices and Switch to semester payment (issue 13 point 3)', () => {
  it('plans through POST /contracts/{id}/plan_invoices, once', async () => {
    const c = await contractWithFees();
    const res = await api(`/contracts/${c.id}/plan_invoices`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/^Planned 3 invoice\(s\) over € 9\.150,01/);
    expect(await count(c.id)).toBe(3);
    const row = (await t.http().get(`/api/v1.0/contracts/${c.id}`).set('Authorization', `Bearer ${user.token}`)).body;
    expect(row).toMatchObject({ planned_amount: 9150.01, invoiced_amount: 0, to_be_payed_amount: 0 });
    expect((await api(`/contracts/${c.id}/plan_invoices`).send({})).body.message).toMatch(/^Nothing to plan/);
    expect(await count(c.id)).toBe(3);
  });

  it('plans nothing for a contract that takes no more invoices (not active, offer rejected, dropped out), and says why (decision 035)', async () => {
    for (const [values, why] of [
      [{ active: false }, 'is not active'],
      [{ contract_status_id: 2 }, 'was rejected'],
      [{ contract_status_id: 6, contract_status_date: '2027-03-01' }, 'dropped out on 01-03-2027'],
    ] as const) {
      const c = await contractWithFees();
      await t.db.update(contracts).set(values).where(eq(contracts.id, c.id));
      const res = await api(`/contracts/${c.id}/plan_invoices`).send({});
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.message).toMatch(new RegExp(`^Nothing planned: .*${c.application_number} ${why}$`));
      expect(await count(c.id)).toBe(0);
    }
  });

  it('is refused to a Reader (403) and for a contract without fees (409)', async () => {
    const c = await contractWithFees();
    expect((await api(`/contracts/${c.id}/plan_invoices`, reader.token).send({})).status).toBe(403);
    expect((await api('/contracts/batch/plan_invoices', reader.token).send({ ids: [c.id] })).status).toBe(403);
    const bare = await createContract(t.db, { intake: 2098, scholarship_id: 3 });
    const res = await api(`/contracts/${bare.id}/plan_invoices`).send({});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^There is no student fee for intake 2098/);
  });

  it('the batch preview plans nothing and answers the total; the run plans', async () => {
    const [a, b] = [await contractWithFees(), await contractWithFees()];
    const preview = await api('/contracts/batch/plan_invoices').send({ ids: [a.id, b.id], dry_run: true });
    expect(preview.status, JSON.stringify(preview.body)).toBe(202);
    const dry = await waitForRun(t, user.token, preview.body.run_id);
    expect(dry).toMatchObject({ status: 'finished', dry_run: true, total: 2, failed: 0, amount: 18300.02 });
    expect(await count(a.id)).toBe(0);
    const run = await waitForRun(t, user.token, (await api('/contracts/batch/plan_invoices').send({ ids: [a.id, b.id] })).body.run_id);
    expect(run).toMatchObject({ status: 'finished', failed: 0 });
    expect([await count(a.id), await count(b.id)]).toEqual([3, 3]);
  });

  it('switches to semester payment through POST /contracts/{id}/switch_to_semester_payment', async () => {
    const c = await contractWithFees();
    await api(`/contracts/${c.id}/plan_invoices`).send({});
    const res = await api(`/contracts/${c.id}/switch_to_semester_payment`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Switched to semester payment: 2 yearly invoice(s) split into 4 semester invoices over € 9.000,01');
    expect(await count(c.id)).toBe(5);
  });

  it('splits the university fees planned against a yearly invoice with it; one already scheduled keeps the invoice whole (decision 037)', async () => {
    const c = await contractWithFees();
    await t.db.update(universities).set({ payment_amount: '1000.01' }).where(eq(universities.id, c.y1_university_id));
    await api(`/contracts/${c.id}/plan_invoices`).send({});
    expect((await api(`/contracts/${c.id}/plan_scholarship_payments`).send({})).status).toBe(200);
    const fees = async () =>
      (await t.db.select().from(scholarshipPayments).where(and(eq(scholarshipPayments.contract_id, c.id), eq(scholarshipPayments.scholarship_payment_type_id, 2)))).sort((a, b) => a.planned_date.localeCompare(b.planned_date));
    expect((await fees()).map((f) => f.amount)).toEqual(['1000.01', '1000.01']);

    const res = await api(`/contracts/${c.id}/switch_to_semester_payment`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const split = await fees();
    expect(split.map((f) => [f.amount, f.description])).toEqual([
      ['500.01', 'University fee year 1 semester 1'],
      ['500.00', 'University fee year 1 semester 2'],
      ['500.01', 'University fee year 2 semester 1'],
      ['500.00', 'University fee year 2 semester 2'],
    ]);
    // Each in the period of its semester (decision 055): the contract's years from its start, /01 and /02.
    const first = Number(String(c.start_date).slice(0, 4));
    expect(split.map((f) => f.period)).toEqual([`${first}-${first + 1}/01`, `${first}-${first + 1}/02`, `${first + 1}-${first + 2}/01`, `${first + 1}-${first + 2}/02`]);
    // Each settles its own semester invoice, and planning again plans no fee twice.
    const semesterInvoices = await t.db.select().from(invoices).where(and(eq(invoices.contract_id, c.id), eq(invoices.document_type_id, 5)));
    expect(split.map((f) => semesterInvoices.find((i) => i.id === f.linked_invoice_id)?.semester)).toEqual([1, 2, 1, 2]);
    // The log tells it: two fee payments deleted with their yearly invoices, four made for the semesters.
    const logged = (await t.db.select().from(logEvents).where(and(eq(logEvents.contract_id, c.id), eq(logEvents.resource, 'scholarship_payment')))).map((e) => e.le_message);
    expect(logged.filter((m) => m.endsWith('split into semesters with its invoice'))).toHaveLength(2);
    expect(logged.filter((m) => m.endsWith('(planned, semester)'))).toHaveLength(4);
    expect((await api(`/contracts/${c.id}/plan_scholarship_payments`).send({})).body.message).toMatch(/^Nothing to plan/);
    expect(await fees()).toHaveLength(4);
  });

  it('refuses to split a yearly invoice whose university fee is scheduled already, and changes nothing', async () => {
    const c = await contractWithFees();
    await t.db.update(universities).set({ payment_amount: '800.00' }).where(eq(universities.id, c.y1_university_id));
    await api(`/contracts/${c.id}/plan_invoices`).send({});
    await api(`/contracts/${c.id}/plan_scholarship_payments`).send({});
    const [fee] = await t.db.select().from(scholarshipPayments).where(and(eq(scholarshipPayments.contract_id, c.id), eq(scholarshipPayments.scholarship_payment_type_id, 2))).orderBy(scholarshipPayments.planned_date);
    await t.db.update(scholarshipPayments).set({ number: `S-T-${c.id}`, payment_date: '2026-10-01' }).where(eq(scholarshipPayments.id, fee!.id));
    const before = await count(c.id);
    const res = await api(`/contracts/${c.id}/switch_to_semester_payment`).send({});
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(new RegExp(`cannot be split: the university fee S-T-${c.id} of its whole year is scheduled already$`));
    expect(await count(c.id)).toBe(before);
  });
});

describe('Switch to semester payment raced with Create Invoice and Create Payment (decision 049)', () => {
  /**
   * Holds the row's lock in a transaction of its own, starts the requests one after another, each once the one
   * before waits for that lock (so PostgreSQL grants it in this order), then lets go and answers their replies.
   */
  async function queuedBehindLock(table: 'invoices' | 'scholarship_payments', id: number, requests: (() => PromiseLike<{ status: number; body: { message?: string; number?: string } }>)[]) {
    const holder = await t.pool.connect();
    const waiting = async () => (await t.pool.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0]!.n;
    try {
      await holder.query('begin');
      await holder.query(`select id from ${table} where id = $1 for update`, [id]);
      const replies = [];
      for (const [k, request] of requests.entries()) {
        // A supertest request is sent when its `then` is called: Promise.resolve calls it now.
        replies.push(Promise.resolve(request()));
        await waitFor(`request ${k + 1} waiting for the lock`, waiting, (n) => n > k);
      }
      await holder.query('commit');
      return await Promise.all(replies);
    } finally {
      holder.release();
    }
  }
  const yearlyFee = async (contractId: number, year: number) =>
    (await t.db.select().from(invoices).where(and(eq(invoices.contract_id, contractId), eq(invoices.document_type_id, 5), eq(invoices.year, year))))[0]!;

  it('an invoice numbered while the switch waits stays whole and keeps its number; the other yearly invoice is split', async () => {
    const c = await contractWithFees();
    await api(`/contracts/${c.id}/plan_invoices`).send({});
    const y1 = await yearlyFee(c.id, 1);
    const [numbered, switched] = await queuedBehindLock('invoices', y1.id, [
      () => api(`/invoices/${y1.id}/create_pdf`).send({}),
      () => api(`/contracts/${c.id}/switch_to_semester_payment`).send({}),
    ]);
    expect(numbered!.status, JSON.stringify(numbered!.body)).toBe(200);
    expect(switched!.status, JSON.stringify(switched!.body)).toBe(200);
    expect(switched!.body.message).toBe('Switched to semester payment: 1 yearly invoice(s) split into 2 semester invoices over € 4.500,00');
    const [kept] = await t.db.select().from(invoices).where(eq(invoices.id, y1.id));
    expect(kept).toMatchObject({ semester: 0, amount: '4500.01', number: expect.stringMatching(/^\d{4}-\d{5}$/) });
  });

  it('a university fee scheduled while the switch waits refuses the split, and nothing changes', async () => {
    const c = await contractWithFees();
    await t.db
      .update(universities)
      .set({ payment_amount: '800.00', payment_holder_iban: 'AT611904300234573201', payment_holder_swift: 'BKAUATWWXXX', payment_holder_address: 'Universitätsring 1, 1010 Wien' })
      .where(eq(universities.id, c.y1_university_id));
    await api(`/contracts/${c.id}/plan_invoices`).send({});
    expect((await api(`/contracts/${c.id}/plan_scholarship_payments`).send({})).status).toBe(200);
    const y1 = await yearlyFee(c.id, 1);
    const [fee] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.linked_invoice_id, y1.id));
    const before = await count(c.id);
    const [scheduled, switched] = await queuedBehindLock('scholarship_payments', fee!.id, [
      () => api(`/scholarship_payments/${fee!.id}/create_payment`).send({}),
      () => api(`/contracts/${c.id}/switch_to_semester_payment`).send({}),
    ]);
    expect(scheduled!.status, JSON.stringify(scheduled!.body)).toBe(200);
    expect(switched!.status, JSON.stringify(switched!.body)).toBe(409);
    expect(switched!.body.message).toMatch(new RegExp(`the university fee ${scheduled!.body.number} of its whole year is scheduled already$`));
    const [still] = await t.db.select().from(scholarshipPayments).where(eq(scholarshipPayments.id, fee!.id));
    expect(still!.number).toBe(scheduled!.body.number);
    expect(await count(c.id)).toBe(before);
  });
});
