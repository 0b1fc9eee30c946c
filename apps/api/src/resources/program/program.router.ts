import { ilike, or } from 'drizzle-orm';
import { programResource } from '@app/contracts';
import { programs } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';

export function programModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx.db, {
    resource: programResource,
    table: programs,
    columns: { id: programs.id, name: programs.name, shortname: programs.shortname, edit_timestamp: programs.edit_timestamp },
    search: (term) => or(ilike(programs.name, likePattern(term)), ilike(programs.shortname, likePattern(term))),
    unique: { programs_shortname_unique: { field: 'shortname', label: 'Short Name' } },
  });
  return defineModule(ctx, service);
}

export const programChoices = (ctx: AppContext) => tableChoices(ctx.db, { table: programs, id: programs.id, label: programs.name });
