import { and, asc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  AppError,
  canTransition,
  ContractBulkEditSchema,
  contractEndDate,
  contractResource,
  ContractStatusChangeSchema,
  contractStatusName,
} from '@app/contracts';
import { contractFiles, contracts, contractStatuses, fileTypes, programs, scholarships, students } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, type Row } from '../../lib/crud/crud-service.js';
import { actorOf, crudRouter, idParam } from '../../lib/crud/crud-router.js';
import { distinctChoices, tableChoices, type ChoiceSource } from '../../lib/crud/choices.js';
import { exportXlsx } from '../../lib/crud/export.js';
import { parseInput } from '../../lib/errors.js';
import { describeChanges, diffFields, recordEvent } from '../../lib/events/record.js';
import type { SheetColumn } from '../../lib/files/xlsx.js';
import { route } from '../../lib/routes.js';
import { nameMatches } from '../../lib/search.js';

const c = contracts;
const studentName = sql<string>`${students.first_name} || ' ' || ${students.last_name}`;
const fileCount = sql<number>`(select count(*)::int from ${contractFiles} where ${contractFiles.contract_id} = ${c.id})`;
// Amounts come from invoices and payments once invoicing exists; computed in SQL, never stored.
const zero = sql<number>`0::float8`;

const plainFields = [
  'id', 'application_number', 'student_id', 'contract_status_id', 'contract_status_date', 'scholarship_id', 'program_id', 'intake',
  'application_round', 'application_id', 'da_application_id', 'da_offer_type_displayname', 'y1_university_id', 'y2_university_id',
  'year1_finished', 'year2_finished', 'active', 'start_date', 'end_date', 'expected_graduation_date', 'contract_sent_date',
  'contract_signed_date', 'bankinfo_required', 'bankinfo_emailrequest_timestamp', 'bankinfo_updated_timestamp', 'pf_status_email_timestamp',
  'check_universityfee_payment', 'instalments', 'number', 'comments', 'edit_timestamp',
] as const;

/** Contracts.xlsx: the overview's columns. */
const reportColumns: SheetColumn[] = [
  { header: 'Application Number', key: 'application_number' },
  { header: 'Student Name', key: 'student_name', width: 28 },
  { header: 'Status', key: 'contract_status_name' },
  { header: 'Code', key: 'scholarship_code', width: 12 },
  { header: 'Program', key: 'program_shortname', width: 12 },
  { header: 'Intake', key: 'intake', format: 'number', width: 8 },
  { header: 'Round', key: 'application_round', format: 'number', width: 8 },
  { header: 'Start Date', key: 'start_date', format: 'date' },
  { header: 'End Date', key: 'end_date', format: 'date' },
  { header: 'Contract Sent', key: 'contract_sent_date', format: 'date' },
  { header: 'Bank Request', key: 'bankinfo_emailrequest_timestamp', format: 'datetime' },
  { header: 'Bank Updated', key: 'bankinfo_updated_timestamp', format: 'datetime' },
  { header: 'PF Status Sent', key: 'pf_status_email_timestamp', format: 'datetime' },
  { header: 'Invoiced', key: 'invoiced_amount', format: 'money', width: 14 },
  { header: 'Paid', key: 'payed_amount', format: 'money', width: 14 },
  { header: 'Last Edit', key: 'edit_timestamp', format: 'datetime' },
];

export function contractRouter(ctx: AppContext) {
  const today = sql`(now() at time zone ${ctx.env.APP_TIMEZONE})::date`;
  const service = createCrudService(ctx.db, {
    resource: contractResource,
    table: c,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, c[f] as AnyPgColumn])),
      student_name: studentName,
      first_name: students.first_name,
      last_name: students.last_name,
      contract_status_name: contractStatuses.name,
      scholarship_code: scholarships.code,
      program_shortname: programs.shortname,
      invoiced_amount: zero,
      payed_amount: zero,
      to_be_payed_amount: zero,
      planned_amount: zero,
      files: fileCount,
    },
    joins: (q) =>
      q
        .innerJoin(students, eq(students.id, c.student_id))
        .innerJoin(contractStatuses, eq(contractStatuses.id, c.contract_status_id))
        .innerJoin(scholarships, eq(scholarships.id, c.scholarship_id))
        .innerJoin(programs, eq(programs.id, c.program_id)),
    // A union of two index searches (application number, student name): an OR across the join would scan.
    search: (term) =>
      inArray(
        c.id,
        union(
          ctx.db.select({ id: c.id }).from(c).where(ilike(c.application_number, likePattern(term))),
          ctx.db.select({ id: c.id }).from(c).innerJoin(students, eq(students.id, c.student_id)).where(nameMatches(term)),
        ),
      ),
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
    },
    unique: { contracts_application_number_unique: 'Application Number' },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.id) }),
    hooks: {
      // A student's first contract becomes their active one.
      afterCreate: async (tx, row) => {
        await tx
          .update(students)
          .set({ active_contract_id: Number(row.id) })
          .where(and(eq(students.id, Number(row.student_id)), isNull(students.active_contract_id)));
      },
    },
  });
  const router = crudRouter(service);

  route(router, 'put', '/contracts/:id/update_status', async (req, res) => {
    const id = idParam(req.params.id);
    const { contract_status_id: target } = parseInput(ContractStatusChangeSchema, req.body, 'status change');
    const { user } = actorOf(req);
    const row = await ctx.db.transaction(async (tx) => {
      // The row lock serialises concurrent transitions: the second sees the first's result.
      const [current] = await tx
        .select({ status: c.contract_status_id, application_number: c.application_number, student_id: c.student_id })
        .from(c)
        .where(eq(c.id, id))
        .for('update');
      if (!current) throw new AppError('NOT_FOUND', `Contract ${id} not found`);
      if (!canTransition(current.status, target)) {
        throw new AppError('CONFLICT', `A contract with status "${contractStatusName(current.status)}" cannot change to "${contractStatusName(target)}"`);
      }
      await tx
        .update(c)
        .set({
          contract_status_id: target,
          contract_status_date: today as unknown as string,
          edit_user: user.id,
          edit_timestamp: sql`greatest(clock_timestamp(), ${c.edit_timestamp} + interval '1 millisecond')`,
        })
        .where(eq(c.id, id));
      await recordEvent(tx, {
        type: 'statusChange',
        userId: user.id,
        studentId: current.student_id,
        contractId: id,
        resource: contractResource.key,
        recordId: id,
        message: `Contract "${current.application_number}": ${contractStatusName(current.status)} → ${contractStatusName(target)}`,
        changes: { contract_status_id: { old: current.status, new: target } },
      });
      return service.get(id, tx);
    });
    res.json(row);
  });

  route(router, 'post', '/contracts/bulk_edit', async (req, res) => {
    const { ids, changes } = parseInput(ContractBulkEditSchema, req.body, 'bulk edit');
    const { user } = actorOf(req);
    const given: Row = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    // A new start date moves the end date with it, as on the contract screen.
    if (typeof given.start_date === 'string') given.end_date = contractEndDate(given.start_date);
    const unique = [...new Set(ids)];
    const updated = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ ...Object.fromEntries(Object.keys(given).map((f) => [f, c[f as keyof typeof c] as AnyPgColumn])), id: c.id, application_number: c.application_number, student_id: c.student_id })
        .from(c)
        .where(inArray(c.id, unique))
        .orderBy(asc(c.id))
        .for('update');
      const missing = unique.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length > 0) throw new AppError('NOT_FOUND', `Contracts not found: ${missing.join(', ')}`);
      let count = 0;
      for (const row of rows) {
        const changed = diffFields(row, given);
        if (Object.keys(changed).length === 0) continue;
        await tx
          .update(c)
          .set({ ...given, edit_user: user.id, edit_timestamp: sql`greatest(clock_timestamp(), ${c.edit_timestamp} + interval '1 millisecond')` })
          .where(eq(c.id, Number(row.id)));
        await recordEvent(tx, {
          type: 'bulkEdit',
          userId: user.id,
          studentId: Number(row.student_id),
          contractId: Number(row.id),
          resource: contractResource.key,
          recordId: Number(row.id),
          message: `Bulk edit of contract "${String(row.application_number)}": ${describeChanges(changed)}`,
          changes: changed,
        });
        count++;
      }
      return count;
    });
    res.json({ updated });
  });

  route(router, 'post', '/contracts/download_report', async (req, res) => {
    await exportXlsx(service, req, res, { filename: 'Contracts.xlsx', sheet: 'Contracts', columns: reportColumns });
  });

  return router;
}

/** The contract-related choice lists (spec §7). */
export function contractChoices(ctx: AppContext): Record<'contracts' | 'contract_status' | 'contracts_intake' | 'contracts_round' | 'contracts_year' | 'file_types', ChoiceSource> {
  const rounds = [0, 1, 2, 3, 4, 5].map((r) => ({ id: r, name: String(r) }));
  return {
    contracts: tableChoices(ctx.db, { table: c, id: c.id, label: c.application_number }),
    contract_status: tableChoices(ctx.db, { table: contractStatuses, id: contractStatuses.id, label: contractStatuses.name, order: 'id' }),
    contracts_intake: distinctChoices(ctx.db, { table: c, column: c.intake }),
    contracts_round: { list: async () => rounds, checksum: async () => 'rounds-0-5' },
    contracts_year: distinctChoices(ctx.db, { table: c, column: sql`extract(year from ${c.start_date})::int` as unknown as AnyPgColumn }),
    file_types: tableChoices(ctx.db, { table: fileTypes, id: fileTypes.id, label: fileTypes.name, order: 'id' }),
  };
}
