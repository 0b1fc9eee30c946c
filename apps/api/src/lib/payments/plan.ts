import { and, eq, inArray, not, sql } from 'drizzle-orm';
import { AppError, DOCUMENT_TYPE_PARTICIPATION_FEE, formatMoney, fromCents, scholarshipPaymentsToPlan, toCents, whyContractStopped } from '@app/contracts';
import { contracts, invoices, milestones, scholarshipPayments, studentFees, universities, type Tx } from '@app/db';
import type { Actor } from '../crud/crud-service.js';
import { recordEvent } from '../events/record.js';

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
  const ms = await tx
    .select({ id: milestones.id, year: milestones.year, milestone_date: milestones.milestone_date, milestone_amount: milestones.milestone_amount })
    .from(milestones)
    .where(sameCohort(milestones));
  const [fee] = await tx.select({ monthly: studentFees.monthly_allowance_amount }).from(studentFees).where(sameCohort(studentFees));
  const feeInvoices = await tx
    .select({ id: invoices.id, year: invoices.year, semester: invoices.semester, planned_date: invoices.planned_date, invoice_date: invoices.invoice_date })
    .from(invoices)
    .where(and(eq(invoices.contract_id, contractId), eq(invoices.document_type_id, DOCUMENT_TYPE_PARTICIPATION_FEE), not(invoices.is_creditnote)));
  const unis = await tx
    .select({ id: universities.id, payment_amount: universities.payment_amount })
    .from(universities)
    .where(inArray(universities.id, [contract.y1_university_id, contract.y2_university_id ?? contract.y1_university_id]));
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
          .returning({ id: scholarshipPayments.id, period: scholarshipPayments.period, amount: scholarshipPayments.amount });
  for (const row of inserted) {
    await recordEvent(tx, {
      type: 'create',
      message: `Created Scholarship Payment "${row.period ?? row.id}" (planned)`,
      userId: actor.user.id,
      studentId: contract.student_id,
      contractId,
      resource: 'scholarship_payment',
      recordId: row.id,
    });
  }
  const byHand =
    contract.check_universityfee_payment && feeInvoices.length === 0 ? ' University fees are left to be made by hand: the contract has no participation-fee invoice to link them to.' : '';
  if (inserted.length === 0) return { message: `Nothing to plan: every scholarship payment of this contract is planned already.${byHand}`, amount: 0 };
  const totalCents = inserted.reduce((sum, r) => sum + toCents(r.amount), 0);
  return { message: `Planned ${inserted.length} scholarship payment(s) over ${formatMoney(fromCents(totalCents))}.${byHand}`, amount: totalCents / 100 };
}
