import { sql } from 'drizzle-orm';
import { date, index, integer, numeric, pgTable, smallint, unique, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { editAudit } from './auth.js';

/** Euro amounts: NUMERIC(12,2), never a float (DESIGN §5). */
export const moneyColumn = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const programs = pgTable(
  'programs',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: varchar('name', { length: 200 }).notNull(),
    shortname: varchar('shortname', { length: 50 }).notNull().unique(),
    ...editAudit(),
  },
  // Short names are unique without case (migration 0036): the contract import finds a program by its short name
  // without case, and 'MSC-Z' beside 'msc-z' matched both. The exact-case constraint stays: the seeds' ON CONFLICT
  // (shortname) names it.
  (t) => [index('programs_name_idx').on(t.name, t.id), uniqueIndex('programs_shortname_lower_idx').on(sql`lower(${t.shortname})`)],
);

export const universities = pgTable(
  'universities',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: varchar('name', { length: 200 }).notNull(),
    shortname: varchar('shortname', { length: 50 }).notNull().unique(),
    payment_holder_name: varchar('payment_holder_name', { length: 200 }).notNull(),
    payment_holder_iban: varchar('payment_holder_iban', { length: 42 }).notNull(),
    payment_holder_swift: varchar('payment_holder_swift', { length: 11 }).notNull(),
    payment_holder_address: varchar('payment_holder_address', { length: 500 }).notNull(),
    payment_bank_address: varchar('payment_bank_address', { length: 500 }).notNull(),
    payment_amount: moneyColumn('payment_amount').notNull().default('0'),
    ...editAudit(),
  },
  // Unique without case, as programs (migration 0036).
  (t) => [index('universities_name_idx').on(t.name, t.id), uniqueIndex('universities_shortname_lower_idx').on(sql`lower(${t.shortname})`)],
);

/** Seeded lookup (code, type, region) behind the scholarship choice lists. */
export const scholarships = pgTable('scholarships', {
  id: integer('id').primaryKey(),
  code: varchar('code', { length: 30 }).notNull().unique(),
  type: varchar('type', { length: 100 }).notNull(),
  region: varchar('region', { length: 100 }).notNull(),
});

export const studentFees = pgTable(
  'student_fees',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    intake: smallint('intake').notNull(),
    scholarship_id: integer('scholarship_id')
      .notNull()
      .references(() => scholarships.id),
    registration_fee_amount: moneyColumn('registration_fee_amount').notNull().default('0'),
    participationfee1_amount: moneyColumn('participationfee1_amount').notNull().default('0'),
    participationfee2_amount: moneyColumn('participationfee2_amount').notNull().default('0'),
    administrationfee1_amount: moneyColumn('administrationfee1_amount').notNull().default('0'),
    administrationfee2_amount: moneyColumn('administrationfee2_amount').notNull().default('0'),
    monthly_allowance_amount: moneyColumn('monthly_allowance_amount').notNull().default('0'),
    ...editAudit(),
  },
  (t) => [unique('student_fees_intake_scholarship_unique').on(t.intake, t.scholarship_id), index('student_fees_intake_idx').on(t.intake, t.id)],
);

export const milestones = pgTable(
  'milestones',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    intake: smallint('intake').notNull(),
    scholarship_id: integer('scholarship_id')
      .notNull()
      .references(() => scholarships.id),
    year: smallint('year').notNull(),
    milestone_date: date('milestone_date'),
    milestone_amount: moneyColumn('milestone_amount').notNull().default('0'),
    ...editAudit(),
  },
  (t) => [index('milestones_intake_idx').on(t.intake, t.id), index('milestones_scholarship_idx').on(t.scholarship_id)],
);
