import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgSequence, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { editAudit, users } from './auth.js';
import { timestamptz } from './columns.js';
import { programs, scholarships, universities } from './reference.js';
import { storedFiles } from './stored-file.js';
import { students } from './student.js';

export const contractStatuses = pgTable('contract_statuses', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 50 }).notNull().unique(),
});

export const fileTypes = pgTable('file_types', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull().unique(),
});

export const applicationNumberSeq = pgSequence('application_number_seq', { startWith: 1 });

export const contracts = pgTable(
  'contracts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    application_number: varchar('application_number', { length: 20 })
      .notNull()
      .unique()
      .default(sql`'A' || lpad(nextval('application_number_seq')::text, 6, '0')`),
    student_id: integer('student_id')
      .notNull()
      .references(() => students.id),
    contract_status_id: integer('contract_status_id')
      .notNull()
      .default(1)
      .references(() => contractStatuses.id),
    contract_status_date: date('contract_status_date'),
    scholarship_id: integer('scholarship_id')
      .notNull()
      .references(() => scholarships.id),
    program_id: integer('program_id')
      .notNull()
      .references(() => programs.id),
    intake: smallint('intake').notNull(),
    application_round: smallint('application_round').notNull(),
    application_id: varchar('application_id', { length: 50 }).notNull(),
    da_application_id: varchar('da_application_id', { length: 50 }),
    da_offer_type_displayname: varchar('da_offer_type_displayname', { length: 100 }),
    y1_university_id: integer('y1_university_id')
      .notNull()
      .references(() => universities.id),
    y2_university_id: integer('y2_university_id').references(() => universities.id),
    year1_finished: boolean('year1_finished').notNull().default(false),
    year2_finished: boolean('year2_finished').notNull().default(false),
    active: boolean('active').notNull().default(true),
    start_date: date('start_date').notNull(),
    end_date: date('end_date').notNull(),
    expected_graduation_date: date('expected_graduation_date'),
    contract_sent_date: date('contract_sent_date'),
    contract_signed_date: date('contract_signed_date'),
    bankinfo_required: boolean('bankinfo_required').notNull().default(true),
    bankinfo_emailrequest_timestamp: timestamptz('bankinfo_emailrequest_timestamp'),
    bankinfo_updated_timestamp: timestamptz('bankinfo_updated_timestamp'),
    pf_status_email_timestamp: timestamptz('pf_status_email_timestamp'),
    check_universityfee_payment: boolean('check_universityfee_payment').notNull().default(true),
    instalments: boolean('instalments').notNull().default(false),
    number: varchar('number', { length: 50 }),
    comments: text('comments'),
    ...editAudit(),
    /**
     * The student's names, copied here by triggers (migration 0021: whatever a write sets, they are the
     * student's, and a student's new name reaches their contracts), with their keys as the students table stores
     * them. The contract quick filter searches, ranks and sorts a contract by its own row: reaching each match's
     * student cost two index probes per contract (100k contracts, "Yıl" finds 4,176: page 19 → 4 ms).
     * The `$default` only satisfies the insert type; the trigger writes over it.
     */
    first_name: varchar('first_name', { length: 100 })
      .notNull()
      .$default(() => ''),
    last_name: varchar('last_name', { length: 100 })
      .notNull()
      .$default(() => ''),
    name_key: text('name_key').generatedAlwaysAs(sql`f_unaccent(lower(first_name || ' ' || last_name))`),
    last_name_key: text('last_name_key').generatedAlwaysAs(sql`f_unaccent(lower(last_name))`),
    first_name_key: text('first_name_key').generatedAlwaysAs(sql`f_unaccent(lower(first_name))`),
  },
  (t) => [
    index('contracts_student_idx').on(t.student_id),
    index('contracts_status_idx').on(t.contract_status_id, t.id),
    index('contracts_intake_idx').on(t.intake, t.application_round),
    index('contracts_program_idx').on(t.program_id, t.id),
    index('contracts_scholarship_idx').on(t.scholarship_id, t.id),
    // The overview's own sort columns, with the id that breaks ties.
    index('contracts_start_date_idx').on(t.start_date, t.id),
    index('contracts_end_date_idx').on(t.end_date, t.id),
    index('contracts_sent_idx').on(t.contract_sent_date, t.id),
    index('contracts_edit_idx').on(t.edit_timestamp, t.id),
    // The student's names as the contract overview sorts and searches them (the default sort is the last name).
    index('contracts_last_name_idx').on(t.last_name, t.id),
    index('contracts_first_name_idx').on(t.first_name, t.id),
    // The student's name as the overviews of contracts, invoices and payments show and sort it (lib/search.ts
    // contractStudentName): an invoice overview by name walks the contracts in this order and reads each one's
    // invoices (0026; 0.5 s → 0.3 ms for the numbered invoices).
    index('contracts_student_name_idx').on(sql`(${t.first_name} || ' ' || ${t.last_name})`, t.id),
    // The overview's other sort columns (issue 11: any sort of the descriptor).
    index('contracts_bankinfo_request_idx').on(t.bankinfo_emailrequest_timestamp, t.id),
    index('contracts_bankinfo_updated_idx').on(t.bankinfo_updated_timestamp, t.id),
    index('contracts_pf_status_email_idx').on(t.pf_status_email_timestamp, t.id),
  ],
);

/** Contract documents: the record; its bytes, size and type are the stored file it points at once uploaded. */
export const contractFiles = pgTable(
  'contract_files',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    contract_id: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    ft_id: integer('ft_id')
      .notNull()
      .default(1)
      .references(() => fileTypes.id),
    description: varchar('description', { length: 500 }),
    filename: varchar('filename', { length: 200 }).notNull(),
    /** Null until a file is uploaded; each document owns its file (unique), which is deleted with it. */
    file_id: integer('file_id')
      .unique()
      .references(() => storedFiles.id),
    uploaded_timestamp: timestamptz('uploaded_timestamp'),
    uploaded_user: integer('uploaded_user').references(() => users.id),
    ...editAudit(),
  },
  (t) => [index('contract_files_contract_idx').on(t.contract_id)],
);
