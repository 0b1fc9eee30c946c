import { eq, ilike, or, sql } from 'drizzle-orm';
import { STUDENT_FEE_AMOUNTS, studentFeeResource } from '@app/contracts';
import { scholarships, studentFees } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, moneyValue } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';

export function studentFeeModule(ctx: AppContext): ResourceModule {
  const f = studentFees;
  const service = createCrudService(ctx.db, {
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
  });
  return defineModule(ctx, service);
}
