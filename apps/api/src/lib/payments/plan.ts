import { and, eq, inArray, isNull, like, not, or, sql, type SQL } from 'drizzle-orm';
import {
  addMonths,
  AppError,
  DOCUMENT_TYPE_PARTICIPATION_FEE,
  formatMoney,
  fromCents,
  plannedShare,
  referenceOf,
  SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE,
  SCHOLARSHIP_PAYMENT_TYPE_MILESTONE,
  SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE,
  scholarshipPaymentResource,
  scholarshipPaymentsToPlan,
  toCents,
  whyContractStopped,
  type FieldChanges,
} from '@app/contracts';
import { contracts, invoices, milestones, scholarshipPayments, studentFees, universities, type Tx } from '@app/db';
import { bankDataProblem } from './bank-data.js';
import { accountOf, paymentDetails } from './details.js';
import { nextEditStamp, type Actor } from '../crud/crud-service.js';
import { describeChanges, recordEvents } from '../events/record.js';
import { countLeftAlone, type RepriceOutcome, type ValueChange } from '../invoicing/plan.js';

/**
 * Plan the scholarship payments of a contract (issue 15 point 2, decision 022) in the caller's transaction, the
 * contract locked by it: what `scholarshipPaymentsToPlan` makes of its milestones, monthly allowance and
 * participation-fee invoices, less what was planned before (a row's `plan_key` is unique per contract, so
 * planning twice, even at the same moment, plans nothing new). A contract that may not be paid (not active, its
 * offer rejected, its student dropped out: decision 035) plans nothing: a 409 with the reason.
 */
export async function planContractScholarshipPayments(tx: Tx, actor: Actor, contractId: number): Promise<{ message: string; amount: number }> {
  const [contract] = await tx
    .select({
      student_id: contracts.student_id,
      application_number: contracts.application_number,
      active: contracts.active,
      contract_status_id: contracts.contract_status_id,
      contract_status_date: contracts.contract_status_date,
      intake: contracts.intake,
      scholarship_id: contracts.scholarship_id,
      start_date: contracts.start_date,
      end_date: contracts.end_date,
      check_universityfee_payment: contracts.check_universityfee_payment,
      y1_university_id: contracts.y1_university_id,
      y2_university_id: contracts.y2_university_id,
    })
    .from(contracts)
    .where(eq(contracts.id, contractId));
  if (!contract) throw new AppError('NOT_FOUND', `Contract ${contractId} not found`);
  const refused = whyContractStopped(contract);
  if (refused) throw new AppError('CONFLICT', `Nothing planned: ${refused}`);
  const sameCohort = (t: typeof milestones | typeof studentFees) => and(eq(t.intake, contract.intake), eq(t.scholarship_id, contract.scholarship_id));
  // One after another: a transaction is one connection, whose queries PostgreSQL answers in turn anyway (pg
  // deprecates queuing them on one client, and pg 9 refuses it).
  // FOR SHARE until this planning commits: a change of a milestone, the allowance or a university's payment amount
  // waits for it and then re-prices what it planned (decisions 038, 043), or this planning waits for the change and
  // plans at the new value.
  const ms = await tx
    .select({ id: milestones.id, year: milestones.year, milestone_date: milestones.milestone_date, milestone_amount: milestones.milestone_amount })
    .from(milestones)
    .where(sameCohort(milestones))
    .for('share');
  const [fee] = await tx.select({ monthly: studentFees.monthly_allowance_amount }).from(studentFees).where(sameCohort(studentFees)).for('share');
  const feeInvoices = await tx
    .select({ id: invoices.id, year: invoices.year, semester: invoices.semester, planned_date: invoices.planned_date, invoice_date: invoices.invoice_date })
    .from(invoices)
    .where(and(eq(invoices.contract_id, contractId), eq(invoices.document_type_id, DOCUMENT_TYPE_PARTICIPATION_FEE), not(invoices.is_creditnote)));
  const unis = await tx
    .select({ id: universities.id, payment_amount: universities.payment_amount })
    .from(universities)
    .where(inArray(universities.id, [contract.y1_university_id, contract.y2_university_id ?? contract.y1_university_id]))
    .for('share');
  const drafts = scholarshipPaymentsToPlan({
    contract,
    milestones: ms,
    monthlyAllowance: fee?.monthly ?? null,
    feeInvoices,
    universities: new Map(unis.map((u) => [u.id, u])),
  });
  const inserted =
    drafts.length === 0
      ? []
      : await tx
          .insert(scholarshipPayments)
          .values(drafts.map((d) => ({ ...d, contract_id: contractId, creation_user: actor.user.id, edit_user: actor.user.id })))
          .onConflictDoNothing({ target: [scholarshipPayments.contract_id, scholarshipPayments.plan_key], where: sql`plan_key is not null` })
          .returning({
            id: scholarshipPayments.id,
            period: scholarshipPayments.period,
            amount: scholarshipPayments.amount,
            type: scholarshipPayments.scholarship_payment_type_id,
            university_id: scholarshipPayments.university_id,
          });
  await recordEvents(
    tx,
    inserted.map((row) => ({
      type: 'create' as const,
      message: `Created Scholarship Payment "${row.period ?? row.id}" (planned)`,
      userId: actor.user.id,
      studentId: contract.student_id,
      contractId,
      resource: 'scholarship_payment',
      recordId: row.id,
    })),
  );
  const byHand =
    contract.check_universityfee_payment && feeInvoices.length === 0 ? ' University fees are left to be made by hand: the contract has no participation-fee invoice to link them to.' : '';
  if (inserted.length === 0) return { message: `Nothing to plan: every scholarship payment of this contract is planned already.${byHand}`, amount: 0 };
  const totalCents = inserted.reduce((sum, r) => sum + toCents(r.amount), 0);
  const unpayable = await payeeProblems(tx, inserted);
  const warning = unpayable.length > 0 ? ` Not payable yet: ${unpayable.join('; ')}. Schedule Payments refuses these payments until the bank data is fixed.` : '';
  return { message: `Planned ${inserted.length} scholarship payment(s) over ${formatMoney(fromCents(totalCents))}.${byHand}${warning}`, amount: totalCents / 100 };
}

/**
 * Why the payees of newly planned payments cannot be paid yet (decision 054): the bank data Schedule Payments will
 * check, read as it reads it (`paymentDetails`), each problem once. Planning goes on; staff learn it now, not at
 * scheduling.
 */
async function payeeProblems(tx: Tx, planned: readonly { id: number }[]): Promise<string[]> {
  const details = await paymentDetails(tx, inArray(scholarshipPayments.id, planned.map((p) => p.id)));
  return [...new Set(details.map((d) => bankDataProblem(accountOf(d))).filter((p): p is string => p !== null))];
}

/** Where planned scholarship payments come from (decision 038; a university's payment amount: decision 043). */
export type PaymentSource =
  | { kind: 'allowance'; cohort: { intake: number; scholarship_id: number } }
  | { kind: 'milestone'; id: number; year: number }
  | { kind: 'university'; id: number };

/** Some of the rows in reach (`where`, all when absent): those at `atOld` get `set`. */
interface Share {
  where?: SQL;
  atOld: SQL;
  set: Record<string, unknown>;
}

/**
 * The monthly allowance of a student fee, a milestone or a university's payment amount changed (decisions 038,
 * 043), in the transaction of the change: the planned payments made from it (`plan_key` `A{month}` of the fee's
 * cohort, `M{milestone id}`, or `U{invoice id}` paid to the university) that still carry exactly what the old amount
 * gave — a university fee of a semester invoice is its half — get what the new one gives; of a milestone, those
 * still planned on the day its old date gave (the date, or the contract's start plus the years before it) move to
 * the day the new one gives. Each row touched gets one event in its contract's history. A row at another amount or
 * day was changed by hand and is left; a numbered (scheduled) one is never touched. The planning that reads the
 * source holds it FOR SHARE.
 */
export async function reachPlannedPayments(
  tx: Tx,
  actor: Actor,
  source: PaymentSource,
  change: { amount?: ValueChange; date?: ValueChange<string | null> },
  /** The change as each touched payment's event names it: `Milestone "2024 EU-FULL Y1" changed milestone_amount 500 → 700`. */
  cause: string,
): Promise<{ amount?: RepriceOutcome; date?: RepriceOutcome }> {
  const sp = scholarshipPayments;
  const scope =
    source.kind === 'allowance'
      ? and(
          eq(sp.scholarship_payment_type_id, SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE),
          like(sp.plan_key, 'A%'),
          eq(contracts.intake, source.cohort.intake),
          eq(contracts.scholarship_id, source.cohort.scholarship_id),
        )!
      : source.kind === 'milestone'
        ? and(eq(sp.scholarship_payment_type_id, SCHOLARSHIP_PAYMENT_TYPE_MILESTONE), eq(sp.plan_key, `M${source.id}`))!
        : and(eq(sp.scholarship_payment_type_id, SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE), like(sp.plan_key, 'U%'), eq(sp.university_id, source.id))!;
  const touched = new Map<number, { contract_id: number; student_id: number; application_number: string; period: string | null; changes: FieldChanges }>();
  const returned = {
    id: sp.id,
    contract_id: sp.contract_id,
    student_id: contracts.student_id,
    application_number: contracts.application_number,
    period: sp.period,
    planned_date: sp.planned_date,
    start_date: contracts.start_date,
  };
  type Returned = { id: number; contract_id: number; student_id: number; application_number: string; period: string | null };
  const touch = ({ id, contract_id, student_id, application_number, period }: Returned, field: string, old: unknown, now: unknown) => {
    const entry = touched.get(id) ?? { contract_id, student_id, application_number, period, changes: {} };
    entry.changes[field] = { old, new: now };
    touched.set(id, entry);
  };
  /**
   * Counts the rows left alone, then changes each share (`changed` false: counted, nothing to change). Answers the
   * rows changed with the share they were in.
   */
  const reach = async (shares: (Share & { changed: boolean })[]) => {
    const counts = await countLeftAlone(tx, sp, scope, or(...shares.map((s) => and(s.where, s.atOld)))!);
    const update = (share: Share) =>
      tx
        .update(sp)
        .set({ ...share.set, edit_user: actor.user.id, edit_timestamp: nextEditStamp(sp.edit_timestamp) })
        .from(contracts)
        .where(and(eq(contracts.id, sp.contract_id), scope, isNull(sp.number), share.where, share.atOld))
        .returning(returned);
    const rows: (Awaited<ReturnType<typeof update>>[number] & { share: number })[] = [];
    for (const [i, share] of shares.entries()) if (share.changed) rows.push(...(await update(share)).map((r) => ({ ...r, share: i })));
    return { rows, counts };
  };

  const outcome: { amount?: RepriceOutcome; date?: RepriceOutcome } = {};
  if (change.amount && toCents(change.amount.old) !== toCents(change.amount.new)) {
    // A university fee settles a fee invoice, whole or of a semester (scholarshipPaymentsToPlan): each at its share.
    const semesterOf = sql`(select ${invoices.semester} from ${invoices} where ${invoices.id} = ${sp.linked_invoice_id})`;
    const semesters = source.kind === 'university' ? [0, 1, 2] : [0];
    const amounts = semesters.map((semester) => ({ semester, old: plannedShare(change.amount!.old, semester), new: plannedShare(change.amount!.new, semester) }));
    const { rows, counts } = await reach(
      amounts.map((a) => ({
        where: source.kind === 'university' ? sql`${semesterOf} = ${a.semester}` : undefined,
        atOld: sql`${sp.amount} = ${a.old}`,
        set: { amount: a.new },
        changed: a.old !== a.new,
      })),
    );
    for (const row of rows) touch(row, 'amount', Number(amounts[row.share]!.old), Number(amounts[row.share]!.new));
    outcome.amount = { repriced: rows.length, ...counts };
  }
  if (change.date && source.kind === 'milestone' && change.date.old !== change.date.new) {
    // A milestone without a date is paid on the contract's start plus the years before it (scholarshipPaymentsToPlan:
    // addMonths, which keeps the day or takes the month's last, as PostgreSQL's date + interval does).
    const years = source.year - 1;
    const dayOf = (day: string | null): SQL => (day === null ? sql`(${contracts.start_date} + make_interval(years => ${years}))::date` : sql`${day}::date`);
    const { old } = change.date;
    const { rows, counts } = await reach([{ atOld: sql`${sp.planned_date} = ${dayOf(old)}`, set: { planned_date: dayOf(change.date.new) }, changed: true }]);
    for (const row of rows) touch(row, 'planned_date', old ?? addMonths(row.start_date, 12 * years), row.planned_date);
    outcome.date = { repriced: rows.length, ...counts };
  }
  await recordEvents(
    tx,
    [...touched].map(([id, row]) => ({
      type: 'update' as const,
      message: `Updated Scholarship Payment "${referenceOf(scholarshipPaymentResource, { id, number: null, contract: row.application_number, period: row.period })}": ${describeChanges(row.changes)} (${cause})`,
      userId: actor.user.id,
      studentId: row.student_id,
      contractId: row.contract_id,
      resource: 'scholarship_payment',
      recordId: id,
      changes: row.changes,
    })),
  );
  return outcome;
}
