import { eq, ilike, or, sql } from 'drizzle-orm';
import { milestoneResource } from '@app/contracts';
import { milestones, scholarships } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';

export function milestoneModule(ctx: AppContext): ResourceModule {
  const m = milestones;
  const service = createCrudService(ctx.db, {
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
  });
  return defineModule(ctx, service);
}
