import { ilike, or } from 'drizzle-orm';
import { countryResource } from '@app/contracts';
import { countries } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';

export function countryModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx, {
    resource: countryResource,
    table: countries,
    columns: {
      id: countries.id,
      cntry_code: countries.cntry_code,
      cntry_name: countries.cntry_name,
      edit_timestamp: countries.edit_timestamp,
    },
    search: (term) => or(ilike(countries.cntry_code, likePattern(term)), ilike(countries.cntry_name, likePattern(term))),
    unique: { countries_cntry_code_unique: { field: 'cntry_code', label: 'Code' } },
  });
  return defineModule(ctx, service);
}

export const countryChoices = (ctx: AppContext) => tableChoices(ctx.db, { table: countries, id: countries.id, label: countries.cntry_name });
