import { eq, ilike, or, sql } from 'drizzle-orm';
import { referenceOf, STUDENT_FEE_AMOUNTS, studentFeeResource, type FieldChanges } from '@app/contracts';
import { scholarships, studentFees, type Tx } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue, type Actor } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { withUpdateEventLine } from '../../lib/crud/update-event-line.js';
import { describeChanges } from '../../lib/events/record.js';
import { describeRepricing, FEE_INVOICE_FIELDS, moneyText, repriceFeeInvoices, type FeeInvoiceField, type RepriceOutcome } from '../../lib/invoicing/plan.js';
import { reachPlannedPayments } from '../../lib/payments/plan.js';

/**
 * A changed amount reaches what was planned from it (decision 038): the planned invoices of each changed fee and
 * the planned allowances, in the change's transaction. Answers the line the fee's update event adds, or undefined
 * when no amount changed.
 */
async function reachPlannedRows(tx: Tx, actor: Actor, id: number, changed: FieldChanges): Promise<string | undefined> {
  const amounts = STUDENT_FEE_AMOUNTS.map(([field]) => field).filter((field) => changed[field]);
  if (amounts.length === 0) return undefined;
  if (changed.intake || changed.scholarship_id) {
    return 'Planned invoices and payments are left as they are: the intake or scholarship changed too (they were planned for the old one)';
  }
  const [fee] = await tx
    .select({ intake: studentFees.intake, scholarship_id: studentFees.scholarship_id, scholarship_code: scholarships.code })
    .from(studentFees)
    .innerJoin(scholarships, eq(scholarships.id, studentFees.scholarship_id))
    .where(eq(studentFees.id, id));
  if (!fee) return undefined;
  const cause = `Student Fee "${referenceOf(studentFeeResource, fee)}" changed ${describeChanges(Object.fromEntries(amounts.map((f) => [f, changed[f]!])))}`;
  const invoiced = amounts.filter((field): field is FeeInvoiceField => field in FEE_INVOICE_FIELDS);
  const lines: string[] = [];
  if (invoiced.length > 0) {
    const total: RepriceOutcome = { repriced: 0, byHand: 0, numbered: 0 };
    let nowZero = false;
    for (const field of invoiced) {
      const change = { old: moneyText(changed[field]!.old), new: moneyText(changed[field]!.new) };
      const outcome = await repriceFeeInvoices(tx, actor, fee, field, change, cause);
      total.repriced += outcome.repriced;
      total.byHand += outcome.byHand;
      total.numbered += outcome.numbered;
      nowZero ||= Number(change.new) === 0 && outcome.repriced > 0;
    }
    lines.push(describeRepricing(total, { planned: 'planned invoice', numbered: 'numbered at the old amount left as they are (a credit note corrects them)', nowZero }));
  }
  const allowance = changed.monthly_allowance_amount;
  if (allowance) {
    const change = { old: moneyText(allowance.old), new: moneyText(allowance.new) };
    const { amount } = await reachPlannedPayments(tx, actor, { kind: 'allowance', cohort: fee }, { amount: change }, cause);
    if (amount) {
      lines.push(
        describeRepricing(amount, {
          planned: 'planned monthly allowance',
          numbered: 'scheduled at the old amount left as they are',
          nowZero: Number(change.new) === 0,
        }),
      );
    }
  }
  return lines.join('. ');
}

export function studentFeeModule(ctx: AppContext): ResourceModule {
  const f = studentFees;
  const service = createCrudService(ctx, {
    resource: studentFeeResource,
    table: f,
    columns: {
      id: f.id,
      intake: f.intake,
      scholarship_id: f.scholarship_id,
      scholarship_code: scholarships.code,
      ...Object.fromEntries(STUDENT_FEE_AMOUNTS.map(([field]) => [field, moneyValue(f[field])])),
      edit_timestamp: f.edit_timestamp,
    },
    joins: (q) => q.innerJoin(scholarships, eq(scholarships.id, f.scholarship_id)),
    search: (term) => or(ilike(scholarships.code, likePattern(term)), ilike(sql`${f.intake}::text`, likePattern(term))),
    unique: { student_fees_intake_scholarship_unique: { field: 'scholarship_id', label: 'Intake and Scholarship' } },
    hooks: withUpdateEventLine(studentFeeResource.title, reachPlannedRows),
  });
  return defineModule(ctx, service);
}
