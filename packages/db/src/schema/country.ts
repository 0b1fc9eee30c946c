import { integer, pgTable, varchar, index } from 'drizzle-orm/pg-core';
import { editAudit } from './auth.js';

export const countries = pgTable(
  'countries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    cntry_code: varchar('cntry_code', { length: 3 }).notNull().unique(),
    cntry_name: varchar('cntry_name', { length: 100 }).notNull(),
    ...editAudit(),
  },
  (t) => [index('countries_name_idx').on(t.cntry_name, t.id)],
);
