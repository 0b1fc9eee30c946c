import { eq, ilike, or, sql } from 'drizzle-orm';
import { referenceOf, universityResource, type FieldChanges } from '@app/contracts';
import { universities, type Tx } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue, type Actor } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { withUpdateEventLine } from '../../lib/crud/update-event-line.js';
import { tableChoices } from '../../lib/crud/choices.js';
import { describeChanges } from '../../lib/events/record.js';
import { describeRepricing, moneyText } from '../../lib/invoicing/plan.js';
import { reachPlannedPayments } from '../../lib/payments/plan.js';

/**
 * A changed payment amount reaches the planned university fees paid to the university (decision 043), in the
 * change's transaction. Answers the line the university's update event adds, or undefined when it did not change.
 */
async function reachPlannedFees(tx: Tx, actor: Actor, id: number, changed: FieldChanges): Promise<string | undefined> {
  const amount = changed.payment_amount;
  if (!amount) return undefined;
  const [university] = await tx.select({ name: universities.name, shortname: universities.shortname }).from(universities).where(eq(universities.id, id));
  if (!university) return undefined;
  const cause = `${universityResource.title} "${referenceOf(universityResource, university)}" changed ${describeChanges({ payment_amount: amount })}`;
  const change = { old: moneyText(amount.old), new: moneyText(amount.new) };
  const outcome = await reachPlannedPayments(tx, actor, { kind: 'university', id }, { amount: change }, cause);
  if (!outcome.amount) return undefined;
  return describeRepricing(outcome.amount, { planned: 'planned university fee', numbered: 'scheduled at the old amount left as they are', nowZero: Number(change.new) === 0 });
}

export function universityModule(ctx: AppContext): ResourceModule {
  const u = universities;
  const service = createCrudService(ctx, {
    resource: universityResource,
    table: u,
    columns: {
      id: u.id,
      name: u.name,
      shortname: u.shortname,
      payment_holder_name: u.payment_holder_name,
      payment_holder_iban: u.payment_holder_iban,
      payment_holder_swift: u.payment_holder_swift,
      payment_holder_address: u.payment_holder_address,
      payment_bank_address: u.payment_bank_address,
      payment_amount: moneyValue(u.payment_amount),
      edit_timestamp: u.edit_timestamp,
    },
    search: (term) => or(ilike(u.name, likePattern(term)), ilike(u.shortname, likePattern(term))),
    // The exact-case constraint and the one without case (migration 0036) both guard the short name.
    unique: {
      universities_shortname_unique: { field: 'shortname', label: 'Short Name' },
      universities_shortname_lower_idx: { field: 'shortname', label: 'Short Name' },
    },
    hooks: withUpdateEventLine(universityResource.title, reachPlannedFees),
  });
  return defineModule(ctx, service);
}

/**
 * `Master A (MSC-A)`: names need not be unique, short names are (without case), so two of the same name are told
 * apart. The contract import and the exports name universities by their short name, not by this label.
 */
export const universityChoices = (ctx: AppContext) =>
  tableChoices(ctx.db, { table: universities, id: universities.id, label: sql`${universities.name} || ' (' || ${universities.shortname} || ')'`, order: [universities.name, universities.shortname] });
