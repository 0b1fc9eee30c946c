import { ilike, or, sql } from 'drizzle-orm';
import { programResource } from '@app/contracts';
import { programs } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';

export function programModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx, {
    resource: programResource,
    table: programs,
    columns: { id: programs.id, name: programs.name, shortname: programs.shortname, edit_timestamp: programs.edit_timestamp },
    search: (term) => or(ilike(programs.name, likePattern(term)), ilike(programs.shortname, likePattern(term))),
    // The exact-case constraint and the one without case (migration 0036) both guard the short name.
    unique: {
      programs_shortname_unique: { field: 'shortname', label: 'Short Name' },
      programs_shortname_lower_idx: { field: 'shortname', label: 'Short Name' },
    },
  });
  return defineModule(ctx, service);
}

/**
 * `Master A (MSC-A)`: names need not be unique, short names are (without case), so two of the same name are told
 * apart. The contract import and the exports name programs by their short name, not by this label.
 */
export const programChoices = (ctx: AppContext) =>
  tableChoices(ctx.db, { table: programs, id: programs.id, label: sql`${programs.name} || ' (' || ${programs.shortname} || ')'`, order: [programs.name, programs.shortname] });
