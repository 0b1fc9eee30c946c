import { ilike, or, sql } from 'drizzle-orm';
import { universityResource } from '@app/contracts';
import { universities } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';

export function universityModule(ctx: AppContext): ResourceModule {
  const u = universities;
  const service = createCrudService(ctx.db, {
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
  });
  return defineModule(ctx, service);
}

/**
 * `Master A (MSC-A)`: names need not be unique, short names are (without case), so two of the same name are told
 * apart. The contract import and the exports name universities by their short name, not by this label.
 */
export const universityChoices = (ctx: AppContext) =>
  tableChoices(ctx.db, { table: universities, id: universities.id, label: sql`${universities.name} || ' (' || ${universities.shortname} || ')'`, order: [universities.name, universities.shortname] });
