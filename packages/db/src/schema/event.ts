import { index, integer, jsonb, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';

export const loggingTypes = pgTable('logging_types', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 50 }).notNull().unique(),
});

/** The event log (DESIGN §8): written in the same transaction as the change it records. */
export const logEvents = pgTable(
  'log_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    le_time: timestamptz('le_time').notNull().defaultNow(),
    eventtype_id: integer('eventtype_id')
      .notNull()
      .references(() => loggingTypes.id),
    le_message: text('le_message').notNull(),
    usr_id: integer('usr_id').references(() => users.id),
    student_id: integer('student_id'),
    contract_id: integer('contract_id'),
    /** The resource key and record id the event is about, when it is about one. */
    resource: varchar('resource', { length: 50 }),
    record_id: integer('record_id'),
    changes: jsonb('changes'),
  },
  (t) => [
    index('log_events_time_idx').on(t.le_time.desc(), t.id.desc()),
    index('log_events_user_idx').on(t.usr_id, t.le_time.desc()),
    index('log_events_type_idx').on(t.eventtype_id, t.le_time.desc()),
    index('log_events_student_idx').on(t.student_id, t.le_time.desc()),
    index('log_events_contract_idx').on(t.contract_id, t.le_time.desc()),
    index('log_events_record_idx').on(t.resource, t.record_id, t.le_time.desc()),
  ],
);
