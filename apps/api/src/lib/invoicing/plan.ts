import { and, eq, inArray, isNull, not, or, sql, type SQL } from 'drizzle-orm';
import {
  secondSemesterDate,
  AppError,
  DOCUMENT_TYPE_ADMINISTRATION_FEE,
  DOCUMENT_TYPE_PARTICIPATION_FEE,
  DOCUMENT_TYPE_REGISTRATION_FEE,
  documentReference,
  formatMoney,
  fromCents,
  invoicesToPlan,
  plannedShare,
  splitInSemesters,
  toCents,
  termStart,
  universityFeePeriod,
  whyContractStopped,
} from '@app/contracts';
import { contracts, invoices, scholarshipPayments, scholarships, studentFees, type Tx } from '@app/db';
import { nextEditStamp, type Actor } from '../crud/crud-service.js';
import { describeChanges, recordEvents } from '../events/record.js';

/** What planning did: the action's message, and the total the batch preview adds up. */
export interface PlanOutcome {
  message: string;
  amount: number;
  planned: { id: number; document_reference: string; amount: string }[];
}

/**
 * Plan invoices of a contract (issue 13 point 3) in the caller's transaction, the contract locked by it: from the
 * student-fee row of the contract's intake and scholarship, the invoices `invoicesToPlan` says are missing.
 * Planning twice plans nothing new. A contract without a student-fee row is refused (409 naming intake and
 * scholarship), and so is one that takes no more invoices (not active, offer rejected, dropped out: decision
 * 035). Lives in lib so the contract module (its action) and the invoice module can both use it.
 */
export async function planContractInvoices(tx: Tx, actor: Actor, contractId: number): Promise<PlanOutcome> {
  const [contract] = await tx
    .select({
      application_number: contracts.application_number,
      student_id: contracts.student_id,
      intake: contracts.intake,
      scholarship_id: contracts.scholarship_id,
      scholarship_code: scholarships.code,
      start_date: contracts.start_date,
      instalments: contracts.instalments,
      active: contracts.active,
      contract_status_id: contracts.contract_status_id,
      contract_status_date: contracts.contract_status_date,
    })
    .from(contracts)
    .innerJoin(scholarships, eq(scholarships.id, contracts.scholarship_id))
    .where(eq(contracts.id, contractId));
  if (!contract) throw new AppError('NOT_FOUND', `Contract ${contractId} not found`);
  const stopped = whyContractStopped(contract);
  if (stopped) throw new AppError('CONFLICT', `Nothing planned: ${stopped}`);
  const [fees] = await tx
    .select({
      registration_fee_amount: studentFees.registration_fee_amount,
      participationfee1_amount: studentFees.participationfee1_amount,
      participationfee2_amount: studentFees.participationfee2_amount,
      administrationfee1_amount: studentFees.administrationfee1_amount,
      administrationfee2_amount: studentFees.administrationfee2_amount,
    })
    .from(studentFees)
    .where(and(eq(studentFees.intake, contract.intake), eq(studentFees.scholarship_id, contract.scholarship_id)))
    // Held until this planning commits: a change of the fee waits for it and then re-prices what it planned
    // (repriceFeeInvoices), or this planning waits for the change and plans at the new amount. Neither is lost.
    .for('share');
  if (!fees) {
    throw new AppError('CONFLICT', `There is no student fee for intake ${contract.intake} and scholarship ${contract.scholarship_code}: add it first`);
  }
  const existing = await tx
    .select({ year: invoices.year, semester: invoices.semester, document_type_id: invoices.document_type_id })
    .from(invoices)
    .where(and(eq(invoices.contract_id, contractId), not(invoices.is_creditnote)));
  const drafts = invoicesToPlan(fees, contract, existing);
  if (drafts.length === 0) return { message: 'Nothing to plan: every invoice of this contract is planned already', amount: 0, planned: [] };

  const rows = drafts.map((d) => ({ ...d, contract_id: contractId, document_reference: documentReference(contract.application_number, d), creation_user: actor.user.id, edit_user: actor.user.id }));
  const inserted = await tx.insert(invoices).values(rows).returning({ id: invoices.id, document_reference: invoices.document_reference, amount: invoices.amount });
  await recordEvents(
    tx,
    inserted.map((row) => ({
      type: 'create' as const,
      message: `Created Invoice "${row.document_reference ?? row.id}" (planned)`,
      userId: actor.user.id,
      studentId: contract.student_id,
      contractId,
      resource: 'invoice',
      recordId: row.id,
    })),
  );
  const totalCents = inserted.reduce((sum, r) => sum + toCents(r.amount), 0);
  const planned = inserted.map((r) => ({ id: r.id, document_reference: r.document_reference ?? '', amount: r.amount }));
  return {
    message: `Planned ${planned.length} invoice(s) over ${formatMoney(fromCents(totalCents))}: ${planned.map((p) => p.document_reference).join(', ')}`,
    amount: totalCents / 100,
    planned,
  };
}

/**
 * Switch to semester payment (issue 13 point 3), in the caller's transaction with the contract locked: every
 * planned whole-year participation or administration fee of the contract becomes two semester invoices whose
 * amounts add up to the cent (the second planned six months after the first), and the contract pays in
 * instalments from now on. Numbered invoices stay as they are: they are corrected by credit notes.
 */
export async function switchContractToSemesters(tx: Tx, actor: Actor, contractId: number): Promise<PlanOutcome> {
  const [contract] = await tx
    .select({ application_number: contracts.application_number, student_id: contracts.student_id, instalments: contracts.instalments, start_date: contracts.start_date })
    .from(contracts)
    .where(eq(contracts.id, contractId));
  if (!contract) throw new AppError('NOT_FOUND', `Contract ${contractId} not found`);
  const yearly = await tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.contract_id, contractId),
        isNull(invoices.number),
        not(invoices.is_creditnote),
        eq(invoices.semester, 0),
        inArray(invoices.document_type_id, [DOCUMENT_TYPE_PARTICIPATION_FEE, DOCUMENT_TYPE_ADMINISTRATION_FEE]),
      ),
    )
    .orderBy(invoices.year, invoices.document_type_id, invoices.id)
    // Create Invoice locks the invoice, not its contract: an invoice being numbered is waited for, and read again
    // it is no longer planned, so it stays whole (a numbered invoice is never deleted; its number never lost).
    .for('update');
  if (!contract.instalments) {
    await tx.update(contracts).set({ instalments: true, edit_user: actor.user.id, edit_timestamp: nextEditStamp(contracts.edit_timestamp) }).where(eq(contracts.id, contractId));
  }
  if (yearly.length === 0) return { message: 'The contract pays per semester; there was no planned yearly invoice to split', amount: 0, planned: [] };

  const planned: PlanOutcome['planned'] = [];
  /** An event of the split, in the contract's and student's history. */
  const splitEvent = (resource: 'invoice' | 'scholarship_payment', type: 'create' | 'delete', recordId: number, message: string) => ({
    type,
    message,
    userId: actor.user.id,
    studentId: contract.student_id,
    contractId,
    resource,
    recordId,
  });
  for (const invoice of yearly) {
    const halves = splitInSemesters(invoice.amount);
    const semesters = ([1, 2] as const).map((semester) => ({
      contract_id: contractId,
      year: invoice.year,
      semester,
      document_type_id: invoice.document_type_id,
      pro_forma: invoice.pro_forma,
      amount: semester === 1 ? halves[0] : halves[1],
      description: `${invoice.description}, semester ${semester}`,
      planned_date: invoice.planned_date === null || semester === 1 ? invoice.planned_date : secondSemesterDate(invoice.planned_date, contract.start_date, invoice.year),
      comments: invoice.comments,
      document_reference: documentReference(contract.application_number, { year: invoice.year, semester, document_type_id: invoice.document_type_id }),
      creation_user: actor.user.id,
      edit_user: actor.user.id,
    }));
    // The university fee payments planned against the yearly invoice are split with it (decision 037); one already
    // scheduled paid the university for the whole year, so the invoice stays whole.
    // Locked like the invoice: a fee payment being scheduled is waited for, and then refuses the split below.
    const fees = await tx.select().from(scholarshipPayments).where(eq(scholarshipPayments.linked_invoice_id, invoice.id)).for('update');
    const scheduled = fees.find((f) => f.number !== null);
    if (scheduled) {
      throw new AppError(
        'CONFLICT',
        `Invoice "${invoice.document_reference ?? invoice.id}" cannot be split: the university fee ${scheduled.number} of its whole year is scheduled already`,
      );
    }
    if (fees.length > 0) await tx.delete(scholarshipPayments).where(inArray(scholarshipPayments.id, fees.map((f) => f.id)));
    await tx.delete(invoices).where(eq(invoices.id, invoice.id));
    const inserted = await tx.insert(invoices).values(semesters).returning({ id: invoices.id, document_reference: invoices.document_reference, amount: invoices.amount });
    await recordEvents(tx, fees.map((f) => splitEvent('scholarship_payment', 'delete', f.id, `Deleted Scholarship Payment "${f.period ?? f.id}": split into semesters with its invoice`)));
    for (const fee of fees) {
      const feeHalves = splitInSemesters(fee.amount);
      const made = await tx.insert(scholarshipPayments).values(
        inserted.map((semesterInvoice, k) => {
          const day = k === 0 ? fee.planned_date : secondSemesterDate(fee.planned_date, contract.start_date, invoice.year);
          return {
            contract_id: contractId,
            scholarship_payment_type_id: fee.scholarship_payment_type_id,
            university_id: fee.university_id,
            linked_invoice_id: semesterInvoice.id,
            plan_key: fee.plan_key === null ? null : `U${semesterInvoice.id}`,
            amount: feeHalves[k]!,
            planned_date: day,
            // The semester the fee is for (decision 055), not the day it is planned for.
            period: universityFeePeriod(termStart(contract.start_date, invoice.year, k + 1)),
            description: `${fee.description ?? 'University fee'} semester ${k + 1}`,
            comments: fee.comments,
            creation_user: actor.user.id,
            edit_user: actor.user.id,
          };
        }),
      ).returning({ id: scholarshipPayments.id, period: scholarshipPayments.period });
      await recordEvents(tx, made.map((m) => splitEvent('scholarship_payment', 'create', m.id, `Created Scholarship Payment "${m.period ?? m.id}" (planned, semester)`)));
    }
    await recordEvents(tx, [
      splitEvent('invoice', 'delete', invoice.id, `Deleted Invoice "${invoice.document_reference ?? invoice.id}": split into semesters`),
      ...inserted.map((row) => splitEvent('invoice', 'create', row.id, `Created Invoice "${row.document_reference ?? row.id}" (planned, semester)`)),
    ]);
    planned.push(...inserted.map((row) => ({ id: row.id, document_reference: row.document_reference ?? '', amount: row.amount })));
  }
  const totalCents = planned.reduce((sum, r) => sum + toCents(r.amount), 0);
  return {
    message: `Switched to semester payment: ${yearly.length} yearly invoice(s) split into ${planned.length} semester invoices over ${formatMoney(fromCents(totalCents))}`,
    amount: totalCents / 100,
    planned,
  };
}

/** The student-fee amounts invoices are planned from (`invoicesToPlan`): the document type and year of each. */
export const FEE_INVOICE_FIELDS = {
  registration_fee_amount: { documentTypeId: DOCUMENT_TYPE_REGISTRATION_FEE, year: 1 },
  participationfee1_amount: { documentTypeId: DOCUMENT_TYPE_PARTICIPATION_FEE, year: 1 },
  participationfee2_amount: { documentTypeId: DOCUMENT_TYPE_PARTICIPATION_FEE, year: 2 },
  administrationfee1_amount: { documentTypeId: DOCUMENT_TYPE_ADMINISTRATION_FEE, year: 1 },
  administrationfee2_amount: { documentTypeId: DOCUMENT_TYPE_ADMINISTRATION_FEE, year: 2 },
} as const;

export type FeeInvoiceField = keyof typeof FEE_INVOICE_FIELDS;

/** A money value of a change (a number from the row or the input) as NUMERIC text. */
export const moneyText = (value: unknown): string => Number(value).toFixed(2);

/** A changed amount (NUMERIC text) or date of a fee, milestone or university. */
export interface ValueChange<T = string> {
  old: T;
  new: T;
}

/** What a change of a fee or milestone did to the rows planned from it (decision 038). */
export interface RepriceOutcome {
  /** Not yet numbered, at what the old value gave: now at what the new one gives. */
  repriced: number;
  /** Not yet numbered, at another amount (a discount by hand): left alone. */
  byHand: number;
  /** Numbered at what the old value gave: never touched (an invoice is corrected by a credit note). */
  numbered: number;
}

/**
 * Of the rows in reach of a change (`scope`, over the rows and their contracts), those it leaves alone, counted
 * before it is made (afterwards the rows it changed no longer carry the old value): not numbered and not at what the
 * old value gave (`atOld`: changed by hand), and numbered at it.
 */
export async function countLeftAlone(
  tx: Tx,
  table: typeof invoices | typeof scholarshipPayments,
  scope: SQL,
  atOld: SQL,
): Promise<Pick<RepriceOutcome, 'byHand' | 'numbered'>> {
  const [counts] = await tx
    .select({
      byHand: sql<number>`(count(*) filter (where ${table.number} is null and not (${atOld})))::int`,
      numbered: sql<number>`(count(*) filter (where ${table.number} is not null and ${atOld}))::int`,
    })
    .from(table)
    .innerJoin(contracts, eq(contracts.id, table.contract_id))
    .where(scope);
  return { byHand: counts?.byHand ?? 0, numbered: counts?.numbered ?? 0 };
}

/**
 * The line a fee's or milestone's update event gets (decision 038): "2 planned invoice(s) re-priced; 1 left as
 * changed by hand", and the numbered rows at the old amount, and a word on rows now at 0 (which cannot be numbered).
 */
export function describeRepricing(
  outcome: RepriceOutcome,
  words: { planned: string; verb?: string; numbered: string; nowZero?: boolean },
): string {
  const parts = [`${outcome.repriced} ${words.planned}(s) ${words.verb ?? 're-priced'}`, `${outcome.byHand} left as changed by hand`];
  if (outcome.numbered > 0) parts.push(`${outcome.numbered} ${words.numbered}`);
  if (words.nowZero && outcome.repriced > 0) parts.push('at 0 they cannot be numbered: delete those nothing is owed for');
  return parts.join('; ');
}

/**
 * A student fee's amount changed (decision 038), in the transaction of the change: the planned invoices of that
 * fee (its document type and year) of the contracts of the fee's intake and scholarship that still carry exactly
 * what the old amount gave — the whole fee, or its semester's half — get what the new amount gives, each with an
 * event in its contract's history. Planned invoices at another amount were changed by hand and are left alone;
 * numbered ones are never touched: a credit note corrects them. The planning that reads the fee holds it FOR
 * SHARE, so an invoice planned at the same moment is planned at the new amount or re-priced here.
 */
export async function repriceFeeInvoices(
  tx: Tx,
  actor: Actor,
  cohort: { intake: number; scholarship_id: number },
  field: FeeInvoiceField,
  change: ValueChange,
  /** The change as each re-priced invoice's event names it: `Student Fee "2024 EU-FULL" changed participationfee1_amount 1000 → 1200`. */
  cause: string,
): Promise<RepriceOutcome> {
  const { documentTypeId, year } = FEE_INVOICE_FIELDS[field];
  const ofFee = and(
    eq(contracts.intake, cohort.intake),
    eq(contracts.scholarship_id, cohort.scholarship_id),
    eq(invoices.document_type_id, documentTypeId),
    eq(invoices.year, year),
    not(invoices.is_creditnote),
  );
  const shares = ([0, 1, 2] as const).map((semester) => ({ semester, old: plannedShare(change.old, semester), new: plannedShare(change.new, semester) }));
  const atOld: SQL = or(...shares.map((s) => and(eq(invoices.semester, s.semester), eq(invoices.amount, s.old))))!;
  // Counted before the change: afterwards the re-priced rows no longer carry the old amount.
  const counts = await countLeftAlone(tx, invoices, ofFee!, atOld);
  let repriced = 0;
  for (const share of shares) {
    if (share.old === share.new) continue;
    // The conditions are checked again on a row another transaction holds (numbering it): one numbered meanwhile is left.
    const rows = await tx
      .update(invoices)
      .set({ amount: share.new, edit_user: actor.user.id, edit_timestamp: nextEditStamp(invoices.edit_timestamp) })
      .from(contracts)
      .where(and(eq(contracts.id, invoices.contract_id), ofFee, isNull(invoices.number), eq(invoices.semester, share.semester), eq(invoices.amount, share.old)))
      .returning({ id: invoices.id, document_reference: invoices.document_reference, contract_id: invoices.contract_id, student_id: contracts.student_id });
    const changes = { amount: { old: Number(share.old), new: Number(share.new) } };
    await recordEvents(
      tx,
      rows.map((r) => ({
        type: 'update' as const,
        message: `Updated Invoice "${r.document_reference ?? r.id}": ${describeChanges(changes)} (${cause})`,
        userId: actor.user.id,
        studentId: r.student_id,
        contractId: r.contract_id,
        resource: 'invoice',
        recordId: r.id,
        changes,
      })),
    );
    repriced += rows.length;
  }
  return { repriced, ...counts };
}
