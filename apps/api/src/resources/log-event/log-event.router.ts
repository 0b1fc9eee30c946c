import { eq, ilike, or, sql } from 'drizzle-orm';
import { logEventResource } from '@app/contracts';
import { contracts, loggingTypes, logEvents, students, users } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';
import { dayStart } from '../../lib/crud/day.js';

/** The read-only event log overview (`/logging`), newest first. */
export function logEventModule(ctx: AppContext): ResourceModule {
  const tz = ctx.env.APP_TIMEZONE;
  const service = createCrudService(ctx, {
    resource: logEventResource,
    table: logEvents,
    columns: {
      id: logEvents.id,
      le_time: logEvents.le_time,
      eventtype_id: logEvents.eventtype_id,
      eventtype: loggingTypes.name,
      le_message: logEvents.le_message,
      student_id: logEvents.student_id,
      student_name: sql<string | null>`${students.first_name} || ' ' || ${students.last_name}`,
      contract_id: logEvents.contract_id,
      le_contract: contracts.application_number,
      usr_id: logEvents.usr_id,
      usr_name: users.usr_name,
      changes: logEvents.changes,
      resource: logEvents.resource,
    },
    joins: (q) =>
      q
        .innerJoin(loggingTypes, eq(loggingTypes.id, logEvents.eventtype_id))
        .leftJoin(users, eq(users.id, logEvents.usr_id))
        .leftJoin(students, eq(students.id, logEvents.student_id))
        .leftJoin(contracts, eq(contracts.id, logEvents.contract_id)),
    // The quick filter reads the user's and the type's names; the student and contract joins only add columns.
    countJoins: (q) => q.innerJoin(loggingTypes, eq(loggingTypes.id, logEvents.eventtype_id)).leftJoin(users, eq(users.id, logEvents.usr_id)),
    search: (term) => or(ilike(logEvents.le_message, likePattern(term)), ilike(users.usr_name, likePattern(term)), ilike(loggingTypes.name, likePattern(term))),
    filters: {
      student_id: (v) => eq(logEvents.student_id, Number(v)),
      contract_id: (v) => eq(logEvents.contract_id, Number(v)),
      usr_id: (v) => eq(logEvents.usr_id, Number(v)),
      eventtype_id: (v) => eq(logEvents.eventtype_id, Number(v)),
      le_time_from: (v) => sql`${logEvents.le_time} >= ${dayStart(tz, v)}`,
      le_time_to: (v) => sql`${logEvents.le_time} < ${dayStart(tz, v, 1)}`,
      resource: (v) => eq(logEvents.resource, String(v)),
      record_id: (v) => eq(logEvents.record_id, Number(v)),
    },
  });
  return defineModule(ctx, service);
}

export const loggingTypeChoices = (ctx: AppContext) => tableChoices(ctx.db, { table: loggingTypes, id: loggingTypes.id, label: loggingTypes.name, order: 'id' });
