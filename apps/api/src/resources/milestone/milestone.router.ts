import { eq, ilike, or, sql } from 'drizzle-orm';
import { milestoneResource, referenceOf, type FieldChanges } from '@app/contracts';
import { milestones, scholarships, type Tx } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue, type Actor } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { withUpdateEventLine } from '../../lib/crud/update-event-line.js';
import { describeChanges } from '../../lib/events/record.js';
import { describeRepricing, moneyText } from '../../lib/invoicing/plan.js';
import { reachPlannedPayments } from '../../lib/payments/plan.js';

/** A date of a change as text or null. */
const dayText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * A changed amount or date reaches the planned payments of the milestone (decision 038), in the change's
 * transaction. Answers the line the milestone's update event adds, or undefined when neither changed.
 */
async function reachPlannedRows(tx: Tx, actor: Actor, id: number, changed: FieldChanges): Promise<string | undefined> {
  const amount = changed.milestone_amount;
  const date = changed.milestone_date;
  if (!amount && !date) return undefined;
  if (changed.intake || changed.scholarship_id || changed.year) {
    return 'Planned payments are left as they are: the intake, scholarship or year changed too (they were planned for the old one)';
  }
  const [milestone] = await tx
    .select({ intake: milestones.intake, scholarship_code: scholarships.code, year: milestones.year, milestone_date: milestones.milestone_date })
    .from(milestones)
    .innerJoin(scholarships, eq(scholarships.id, milestones.scholarship_id))
    .where(eq(milestones.id, id));
  if (!milestone) return undefined;
  // Named by what it was (the date changing is part of what happened).
  const before = { ...milestone, milestone_date: date ? (date.old as string | null) : milestone.milestone_date };
  const fields = Object.fromEntries(Object.entries(changed).filter(([field]) => field === 'milestone_amount' || field === 'milestone_date'));
  const cause = `${milestoneResource.title} "${referenceOf(milestoneResource, before)}" changed ${describeChanges(fields)}`;
  const outcome = await reachPlannedPayments(
    tx,
    actor,
    { kind: 'milestone', id, year: milestone.year },
    {
      ...(amount && { amount: { old: moneyText(amount.old), new: moneyText(amount.new) } }),
      ...(date && { date: { old: dayText(date.old), new: dayText(date.new) } }),
    },
    cause,
  );
  const lines: string[] = [];
  if (outcome.amount) {
    lines.push(describeRepricing(outcome.amount, { planned: 'planned payment', numbered: 'scheduled at the old amount left as they are', nowZero: Number(amount?.new) === 0 }));
  }
  if (outcome.date) {
    lines.push(describeRepricing(outcome.date, { planned: 'planned payment', verb: 'moved to the new date', numbered: 'scheduled on the old date left as they are' }));
  }
  return lines.length > 0 ? lines.join('. ') : undefined;
}

export function milestoneModule(ctx: AppContext): ResourceModule {
  const m = milestones;
  const service = createCrudService(ctx, {
    resource: milestoneResource,
    table: m,
    columns: {
      id: m.id,
      intake: m.intake,
      scholarship_id: m.scholarship_id,
      scholarship_code: scholarships.code,
      year: m.year,
      milestone_date: m.milestone_date,
      milestone_amount: moneyValue(m.milestone_amount),
      edit_timestamp: m.edit_timestamp,
    },
    joins: (q) => q.innerJoin(scholarships, eq(scholarships.id, m.scholarship_id)),
    search: (term) => or(ilike(scholarships.code, likePattern(term)), ilike(sql`${m.intake}::text`, likePattern(term))),
    filters: {
      intake: (v) => eq(m.intake, Number(v)),
      scholarship_type: (v) => eq(scholarships.type, String(v)),
      scholarship_id: (v) => eq(m.scholarship_id, Number(v)),
      year: (v) => eq(m.year, Number(v)),
    },
    hooks: withUpdateEventLine(milestoneResource.title, reachPlannedRows),
  });
  return defineModule(ctx, service);
}
