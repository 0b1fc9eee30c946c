import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  AppError,
  CONTRACT_INVOICE_FILTER_FIELDS,
  contractActions,
  contractEndDate,
  contractResource,
  contractStatusName,
  END_BEFORE_START,
  endAfterStart,
  formatDate,
  invoicePlanningActions,
  planScholarshipPayments,
  todayIn,
} from '@app/contracts';
import { contractFiles, contracts, contractStatuses, invoices, fileTypes, programs, scholarships, students } from '@app/db';
import { contractMailActions } from './contract-mail.js';
import { contractImports } from './contract-import.js';
import { contractFinanceImpls } from './contract-finance.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { planContractScholarshipPayments } from '../../lib/payments/plan.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, type CrudService, type Join, type Row } from '../../lib/crud/crud-service.js';
import { indexedDistinctChoices, tableChoices, type ChoiceSource } from '../../lib/crud/choices.js';
import { columnsMatch, contractMatches, contractPrefixKeys, contractStudentName, prefixFirst, prefixRank, shortTextParts } from '../../lib/search.js';
import { contractMoney } from '../../lib/invoicing/money.js';
import { invoiceConditions } from '../../lib/invoicing/invoice-sql.js';
import { planContractInvoices, switchContractToSemesters } from '../../lib/invoicing/plan.js';
import { contractInvoiceDetails, createTransactionFeeInvoice, INVOICE_DETAIL_COLUMNS } from '../../lib/invoicing/number.js';
import { sendXlsx } from '../../lib/files/xlsx.js';

const c = contracts;
const joinStudent: Join = (q) => q.innerJoin(students, eq(students.id, c.student_id));
const joinStatus: Join = (q) => q.innerJoin(contractStatuses, eq(contractStatuses.id, c.contract_status_id));
const joinScholarship: Join = (q) => q.innerJoin(scholarships, eq(scholarships.id, c.scholarship_id));
const joinProgram: Join = (q) => q.innerJoin(programs, eq(programs.id, c.program_id));
const fileCount = sql<number>`(select count(*)::int from ${contractFiles} where ${contractFiles.contract_id} = ${c.id})`;

const plainFields = [
  'id', 'application_number', 'student_id', 'contract_status_id', 'contract_status_date', 'scholarship_id', 'program_id', 'intake',
  'application_round', 'application_id', 'da_application_id', 'da_offer_type_displayname', 'y1_university_id', 'y2_university_id',
  'year1_finished', 'year2_finished', 'active', 'start_date', 'end_date', 'expected_graduation_date', 'contract_sent_date',
  'contract_signed_date', 'bankinfo_required', 'bankinfo_emailrequest_timestamp', 'bankinfo_updated_timestamp', 'pf_status_email_timestamp',
  'check_universityfee_payment', 'instalments', 'number', 'comments', 'edit_timestamp',
] as const;

export function contractModule(ctx: AppContext, studentService: CrudService): ResourceModule {
  const today = () => todayIn(ctx.env.APP_TIMEZONE);
  const money = contractMoney(ctx.db, c.id);
  const service = createCrudService(ctx, {
    resource: contractResource,
    table: c,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, c[f] as AnyPgColumn])),
      // The contract's copy of its student's names (migration 0021): sorted and searched without the join.
      student_name: contractStudentName,
      first_name: c.first_name,
      last_name: c.last_name,
      student_email: students.email_address,
      contract_status_name: contractStatuses.name,
      scholarship_code: scholarships.code,
      program_shortname: programs.shortname,
      ...money.columns,
      files: fileCount,
    },
    joins: (q) => money.join(joinProgram(joinScholarship(joinStatus(joinStudent(q))))),
    exportJoins: (q) => money.joinAll(joinProgram(joinScholarship(joinStatus(joinStudent(q))))),
    // Search and filters are on the contract itself (the name search is a subquery); the joins are to-one on required keys.
    countJoins: (q) => q,
    sortJoins: {
      // The contract's own names: no join.
      student_name: (q) => q,
      contract_status_name: joinStatus,
      scholarship_code: joinScholarship,
      program_shortname: joinProgram,
    },
    neverNull: ['contract_status_name', 'scholarship_code', 'program_shortname'],
    // A handful of names, each one's contracts walked by id (contracts_status_idx, _scholarship_idx, _program_idx).
    lookupSorts: {
      contract_status_name: { key: c.contract_status_id, id: contractStatuses.id },
      scholarship_code: { key: c.scholarship_id, id: scholarships.id },
      program_shortname: { key: c.program_id, id: programs.id },
    },
    // The application number or the student's name (lib/search.ts, the invoice quick filter's contracts too).
    search: contractMatches,
    // Student names and application numbers that start with the text first: the contract's own columns. The
    // names are compared first, as the search matches them far more often: a name that starts with the text
    // spares lower-casing the application number (4,176 contracts for "Yıl": page 4.9 → 3.1 ms).
    searchRank: (term) => prefixRank(contractPrefixKeys, term),
    searchParts: (term) => shortTextParts(term, [contractMatches(term)], prefixFirst(contractPrefixKeys, term)),
    filters: {
      contract_id: (v) => eq(c.id, Number(v)),
      student_id: (v) => eq(c.student_id, Number(v)),
      intake: (v) => eq(c.intake, Number(v)),
      application_round: (v) => eq(c.application_round, Number(v)),
      contract_status_id: (v) => eq(c.contract_status_id, Number(v)),
      program_id: (v) => eq(c.program_id, Number(v)),
      scholarship_id: (v) => eq(c.scholarship_id, Number(v)),
      instalments: (v) => eq(c.instalments, v === 'true'),
      active: (v) => eq(c.active, v === 'true'),
      ...invoiceFieldFilters,
    },
    // A contract with (say) an open invoice is a probe of its invoices per contract: counted by estimate when many.
    estimatedFilters: CONTRACT_INVOICE_FILTER_FIELDS,
    unique: { contracts_application_number_unique: { field: 'application_number', label: 'Application Number' } },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.id) }),
    hooks: {
      // The end date follows the start date unless it is given (spec §4), wherever the contract comes from.
      beforeCreate: (_tx, values) => withEndDate(values),
      beforeUpdate: (_tx, changes, current) => {
        const stored = withEndDate(changes);
        // An update sends only what changed: an end date alone is checked against the stored start.
        const dates = { start_date: String(stored.start_date ?? current.start_date), end_date: String(stored.end_date ?? current.end_date) };
        if (!endAfterStart(dates)) throw new AppError('BAD_REQUEST', 'Invalid contract: end_date', { end_date: [END_BEFORE_START] });
        return stored;
      },
      // A student's first contract becomes their active one.
      afterChange: async (tx, change) => {
        if (change.op !== 'create') return;
        await tx
          .update(students)
          .set({ active_contract_id: change.id })
          .where(and(eq(students.id, Number(change.row.student_id)), isNull(students.active_contract_id)));
      },
    },
  });

  // The imports write students through the students' own service (rules, audit, the bank-info hook).
  const imports = contractImports(ctx, service, studentService);
  return defineModule(ctx, service, [
    recordAction(invoicePlanningActions.planInvoices, (tx, actor, { id }) => planContractInvoices(tx, actor, id)),
    recordAction(invoicePlanningActions.switchToSemesterPayment, (tx, actor, { id }) => switchContractToSemesters(tx, actor, id)),
    recordAction(planScholarshipPayments, (tx, actor, { id }) => planContractScholarshipPayments(tx, actor, id)),
    recordAction(invoicePlanningActions.createTransactionFee, async (tx, actor, { id, row }, input) => {
      const contract = { id, application_number: String(row.application_number), year1_finished: row.year1_finished === true };
      const fee = await createTransactionFeeInvoice(ctx, tx, actor, contract, input);
      return { message: `Transaction fee ${fee.number} created` };
    }),
    recordAction(invoicePlanningActions.downloadInvoiceDetails, (_tx, _actor, { id, row }) => {
      const filename = `Invoice_Details_${String(row.application_number)}.xlsx`;
      return Promise.resolve({
        eventType: 'export',
        message: `Exported ${filename}`,
        file: {
          filename,
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          // Read after the action's transaction: a contract has a handful of invoices.
          write: (res) => sendXlsx(res, filename, 'Invoices', INVOICE_DETAIL_COLUMNS, contractInvoiceDetails(ctx.db, id), { timeZone: ctx.env.APP_TIMEZONE }),
        },
      });
    }),
    recordAction(contractActions.updateStatus, async (tx, actor, { row }, input) => {
      const from = Number(row.contract_status_id);
      const changes = await service.applyChanges(tx, row, { contract_status_id: input.contract_status_id, contract_status_date: today() }, actor);
      return {
        eventType: 'statusChange',
        changes,
        message: `${contractStatusName(from)} → ${contractStatusName(input.contract_status_id)}`,
      };
    }),
    recordAction(contractActions.markSent, async (tx, actor, { row }) => {
      const changes = await service.applyChanges(tx, row, { contract_sent_date: today() }, actor);
      return { changes, message: `Contract sent on ${formatDate(String(changes.contract_sent_date?.new ?? ''))}` };
    }),
    ...contractMailActions(ctx),
    ...contractFinanceImpls(ctx),
    ...imports.actions,
  ], imports.routes);
}

/**
 * The contract filter's invoice fields (issue 18 point 1, decision 020): a contract matches when one of its
 * invoices meets every invoice field given, with the invoice overview's own conditions — one EXISTS over
 * invoices_contract_idx, made by the first invoice field given; the others add nothing of their own.
 */
const invoiceFieldFilters = Object.fromEntries(
  CONTRACT_INVOICE_FILTER_FIELDS.map((field) => [
    field,
    (_value: unknown, all: Readonly<Record<string, unknown>>) => {
      const given = CONTRACT_INVOICE_FILTER_FIELDS.filter((f) => all[f] !== undefined);
      if (given[0] !== field) return undefined;
      const conditions = invoiceConditions(Object.fromEntries(given.map((f) => [f, all[f]])));
      return sql`exists (select 1 from ${invoices} where ${invoices.contract_id} = ${c.id} and ${conditions})`;
    },
  ]),
);

/** A new start date without an end date brings the end date with it: start + 2 years − 1 day. */
function withEndDate(values: Row): Row {
  return typeof values.start_date === 'string' && values.end_date === undefined ? { ...values, end_date: contractEndDate(values.start_date) } : values;
}

/** The contract-related choice lists (spec §7). */
export function contractChoices(ctx: AppContext): Record<'contracts' | 'contract_status' | 'contracts_intake' | 'contracts_round' | 'contracts_year' | 'file_types', ChoiceSource> {
  const rounds = [0, 1, 2, 3, 4, 5].map((r) => ({ id: r, name: String(r) }));
  return {
    contracts: tableChoices(ctx.db, { table: c, id: c.id, label: c.application_number, matches: (term) => columnsMatch([c.application_number], term) }),
    contract_status: tableChoices(ctx.db, { table: contractStatuses, id: contractStatuses.id, label: contractStatuses.name, order: 'id' }),
    contracts_intake: indexedDistinctChoices(ctx.db, { table: c, key: c.intake }),
    contracts_round: { list: async () => rounds, checksum: async () => 'rounds-0-5' },
    // The years of the start dates, from the start-date index: the next year starts on 1 January after the last.
    contracts_year: indexedDistinctChoices(ctx.db, {
      table: c,
      key: c.start_date,
      value: sql`extract(year from ${c.start_date})::int`,
      after: (year) => sql`${c.start_date} >= make_date(${year} + 1, 1, 1)`,
    }),
    file_types: tableChoices(ctx.db, { table: fileTypes, id: fileTypes.id, label: fileTypes.name, order: 'id' }),
  };
}
