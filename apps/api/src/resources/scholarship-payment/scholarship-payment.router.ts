import { PassThrough } from 'node:stream';
import { Router } from 'express';
import { and, asc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { electronicFormatIBAN } from 'ibantools';
import {
  AppError,
  ExportRequestSchema,
  FILE_MESSAGE_HEADER,
  formatDate,
  formatDateTime,
  formatMoney,
  localIsoDateTime,
  paymentDateOf,
  SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE,
  SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE,
  scholarshipPaymentActions,
  scholarshipPaymentResource,
  ScholarshipOverviewFilterSchema,
  todayIn,
  universityFeePeriod,
  whyContractStopped,
} from '@app/contracts';
import {
  contracts,
  invoices,
  scholarships,
  scholarshipPaymentExports,
  scholarshipPayments,
  scholarshipPaymentTypes,
  universities,
  type Tx,
} from '@app/db';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { runRecordAction } from '../../lib/actions/run.js';
import { listAction, recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { tableChoices, type ChoiceSource } from '../../lib/crud/choices.js';
import { createCrudService, moneyValue, type Join, type Row } from '../../lib/crud/crud-service.js';
import { recordEvent, recordEvents } from '../../lib/events/record.js';
import { readStoredFile, storeFile } from '../../lib/files/stored-files.js';
import { writeXlsx, type SheetColumn } from '../../lib/files/xlsx.js';
import { checkDateInNumberYear, nextNumber } from '../../lib/numbering.js';
import { bankDataProblem } from '../../lib/payments/bank-data.js';
import { accountOf, paymentDetails, type PaymentDetail } from '../../lib/payments/details.js';
import { sepaCreditTransfer, sepaNameChange } from '../../lib/payments/sepa.js';
import { columnsMatch, contractFound, contractIn, contractStudentName, shortTextParts } from '../../lib/search.js';
import { parseInput } from '../../lib/errors.js';
import { queryRoute, route } from '../../lib/routes.js';
import { filterQueryOf } from '../../lib/crud/list-query.js';
import { createHash, randomBytes } from 'node:crypto';
import { userName } from '../../lib/crud/user-name.js';
import { setAttachment } from '../../lib/files/download.js';

const sp = scholarshipPayments;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The university whose finance office gets the KIT payments sheet (decision 022). */
export const KIT_SHORTNAME = 'KIT';

const joinContract: Join = (q) => q.innerJoin(contracts, eq(contracts.id, sp.contract_id));
const joinType: Join = (q) => q.innerJoin(scholarshipPaymentTypes, eq(scholarshipPaymentTypes.id, sp.scholarship_payment_type_id));
const joinUniversity: Join = (q) => q.leftJoin(universities, eq(universities.id, sp.university_id));

const isNumbered = isNotNull(sp.number);
const planned = (filters: Readonly<Record<string, unknown>>) => filters.planned === 'true' || filters.numbered === 'false';
/**
 * The payment's own text matches: its number or period (ILIKE, trigram indexes, 0024), or for a text of one or
 * two letters, their short-text indexes (0025).
 */
const ownTextMatches = (term: string) => columnsMatch([sp.number, sp.period], term);
const readyForExport = and(isNotNull(sp.number), eq(sp.payment_allowed, true), isNull(sp.exported_timestamp))!;

const plainFields = [
  'id', 'number', 'contract_id', 'scholarship_payment_type_id', 'period', 'description', 'planned_date', 'payment_date', 'comments', 'university_id',
  'linked_invoice_id', 'exported_timestamp', 'exported_userid', 'payment_allowed', 'creation_timestamp', 'edit_timestamp',
] as const;

/**
 * Why a payment cannot be paid out now because of its contract, or null: the contract stopped (decision 035), or
 * the contract changed since the payment was planned (decision 037) — an allowance now outside its dates, a
 * university fee to a university that is no longer one of its universities.
 */
function contractProblem(r: PaymentDetail): string | null {
  const stopped = whyContractStopped({ application_number: r.contract, active: r.contract_active, contract_status_id: r.contract_status_id, contract_status_date: r.contract_status_date }, r.planned_date);
  if (stopped) return stopped;
  if (r.scholarship_payment_type_id === SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE && (r.planned_date < r.contract_start || r.planned_date > r.contract_end)) {
    return `The allowance of ${formatDate(r.planned_date)} is outside contract ${r.contract} (${formatDate(r.contract_start)} to ${formatDate(r.contract_end)})`;
  }
  if (r.university_fee && r.university_id !== null && !r.contract_universities.includes(r.university_id)) {
    return `${r.university ?? 'The university'} is no longer a university of contract ${r.contract}: plan the fee again`;
  }
  return null;
}

/** An xlsx file written into memory (small: the rows of one export or check). */
async function xlsxBuffer(sheet: string, columns: readonly SheetColumn[], rows: readonly (readonly unknown[])[], timeZone: string): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  async function* lines() {
    yield* rows;
  }
  await writeXlsx(out, sheet, columns, lines(), { timeZone });
  return Buffer.concat(chunks);
}

const fileToStore = (filename: string, mimeType: string, buffer: Buffer) => ({
  filename,
  mimeType,
  size: buffer.length,
  sha256: createHash('sha256').update(buffer).digest('hex'),
  buffer,
});

const PAYMENT_COLUMNS: SheetColumn[] = [
  { field: 'number', title: 'Number', width: 110 },
  { field: 'payment_date', title: 'Payment Date', format: 'date' },
  { field: 'payee', title: 'Payee', width: 200 },
  { field: 'iban', title: 'IBAN', width: 200 },
  { field: 'bic', title: 'BIC', width: 100 },
  { field: 'amount', title: 'Amount', format: 'money' },
  { field: 'type', title: 'Type', width: 130 },
  { field: 'contract', title: 'Contract', width: 100 },
  { field: 'student', title: 'Student', width: 180 },
  { field: 'period', title: 'Period', width: 100 },
  { field: 'remittance', title: 'Remittance', width: 260 },
  { field: 'payee_address', title: 'Payee Address', width: 260 },
];

/**
 * The remittance text: the payee's reference first (cut last when the text is long), the payment number, and what
 * it pays; a university is told which student it is for.
 */
const remittanceOf = (r: PaymentDetail) =>
  [r.reference, r.number, ...(r.university_fee ? [r.student_name, r.contract] : []), r.description ?? r.period].filter((v) => v).join(' ');

/** The payee's postal address: street, postal code and city, country code (ISO 3166 alpha-2 only). */
const addressOf = (r: PaymentDetail) => ({
  lines: [r.payee_street, r.payee_zip_city].map((l) => l?.trim() ?? '').filter((l) => l !== ''),
  country: r.payee_country && /^[A-Z]{2}$/.test(r.payee_country) ? r.payee_country : null,
});
const addressText = (r: PaymentDetail) => {
  const { lines, country } = addressOf(r);
  return [...lines, country].filter((v) => v).join(', ');
};

export function scholarshipPaymentModule(ctx: AppContext): ResourceModule {
  const tz = ctx.env.APP_TIMEZONE;

  /** Spec §5: a university fee (type 2) names the invoice or credit note it settles; it is paid to a university. */
  async function checkTypeRules(tx: Tx, values: Row): Promise<Row> {
    if (Number(values.scholarship_payment_type_id) !== SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE) return values;
    if (values.linked_invoice_id === null || values.linked_invoice_id === undefined) {
      throw new AppError('BAD_REQUEST', 'Invalid input: linked_invoice_id', {
        linked_invoice_id: ['A university fee payment (type 2) needs its linked invoice or credit note'],
      });
    }
    const [invoice] = await tx.select({ contract_id: invoices.contract_id }).from(invoices).where(eq(invoices.id, Number(values.linked_invoice_id)));
    if (!invoice) throw new AppError('BAD_REQUEST', 'Invalid input: linked_invoice_id', { linked_invoice_id: ['The linked invoice or credit note is not known'] });
    if (invoice.contract_id !== Number(values.contract_id)) {
      throw new AppError('BAD_REQUEST', 'Invalid input: linked_invoice_id', { linked_invoice_id: ['The linked invoice or credit note belongs to another contract'] });
    }
    if (values.university_id === null || values.university_id === undefined) {
      const [contract] = await tx.select({ university: contracts.y1_university_id }).from(contracts).where(eq(contracts.id, Number(values.contract_id)));
      return { ...values, university_id: contract?.university ?? null };
    }
    return values;
  }

  const service = createCrudService(ctx, {
    resource: scholarshipPaymentResource,
    table: sp,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, sp[f] as AnyPgColumn])),
      contract: contracts.application_number,
      student_id: contracts.student_id,
      student_name: contractStudentName,
      // The contract's, copied onto the payment by triggers (migration 0018): filtered and grouped on its indexes.
      intake: sp.intake,
      scholarship_id: sp.scholarship_id,
      scholarship_payment_type: scholarshipPaymentTypes.name,
      amount: moneyValue(sp.amount),
      university: universities.shortname,
      linked_invoice_number: sql<string | null>`(select li.number from ${invoices} li where li.id = ${sp.linked_invoice_id})`,
      exported_user: userName(sp.exported_userid),
      creation_user: userName(sp.creation_user),
      edit_user: userName(sp.edit_user),
    },
    joins: (q) => joinUniversity(joinType(joinContract(q))),
    countJoins: (q) => q,
    sortJoins: { contract: joinContract, student_name: joinContract, scholarship_payment_type: joinType },
    neverNull: ['contract', 'scholarship_payment_type'],
    // Four types, each one's payments walked by id (scholarship_payments_type_idx).
    lookupSorts: { scholarship_payment_type: { key: sp.scholarship_payment_type_id, id: scholarshipPaymentTypes.id } },
    // A planned payment has no number (the planned filter's own condition), is not exported
    // (scholarship_payments_exported_check) and has no payment date (scholarship_payments_planned_check): sorted
    // by any of them, the planned view is in id order.
    alwaysNullWhen: { number: planned, exported_timestamp: planned, payment_date: planned },
    // Nor is one exported, ready for export (numbered by its definition) or paid on a date: the planned view finds
    // none. Walked, the planned payments of a payment date read every contract by name for none (0.6 s).
    emptyWhen: (f) => planned(f) && (f.exported === 'true' || f.exported_after !== undefined || f.export_id !== undefined || f.ready_for_export === 'true' || f.payment_date !== undefined),
    // Number, period, or the contract's application number or student's name (lib/search.ts, as invoices).
    search: (term) => or(ownTextMatches(term), contractFound(sp.contract_id, term)),
    // A text too short for the trigram indexes in parts, each walked in the view's order when it finds many rows
    // ("a": every contract) and collected when it finds few.
    searchParts: (term) => shortTextParts(term, [ownTextMatches(term), contractIn(sp.contract_id, term)]),
    filters: {
      planned: (v) => (v === 'true' ? isNull(sp.number) : isNumbered),
      numbered: (v) => (v === 'true' ? isNumbered : isNull(sp.number)),
      exported: (v) => (v === 'true' ? isNotNull(sp.exported_timestamp) : isNull(sp.exported_timestamp)),
      contract_id: (v) => eq(sp.contract_id, Number(v)),
      planned_before: (v) => sql`${sp.planned_date} < ${String(v)}`,
      exported_after: (v) => sql`${sp.exported_timestamp} >= (${String(v)}::date + 1)::timestamp at time zone ${tz}`,
      // The payments an export's file holds and that were not reset since (scholarship_payments_export_idx).
      export_id: (v) => eq(sp.export_id, Number(v)),
      ready_for_export: (v) => (v === 'true' ? readyForExport : sql`not (${readyForExport})`),
      scholarship_payment_type_id: (v) => eq(sp.scholarship_payment_type_id, Number(v)),
      amount: (v) => sql`${sp.amount} = ${String(v)}::numeric`,
      payment_date: (v) => eq(sp.payment_date, String(v)),
      intake: (v) => eq(sp.intake, Number(v)),
      scholarship_id: (v) => eq(sp.scholarship_id, Number(v)),
    },
    // A view is the unfiltered list of its kind (350k planned payments at scale: an exact count ≈ 60 ms): counted by
    // the planner's estimate when it finds many, exact on request.
    estimatedFilters: ['planned', 'numbered'],
    unique: { scholarship_payments_number_unique: { field: 'number', label: 'Number' } },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.contract_id) }),
    hooks: {
      beforeCreate: async (tx, values, actor) => ({ ...(await checkTypeRules(tx, values)), creation_user: actor.user.id }),
      beforeUpdate: async (tx, changes, current) => {
        // Its number carries the payment date's year, as an invoice payment's does (decision 060).
        if (changes.payment_date !== undefined && changes.payment_date !== current.payment_date) {
          checkDateInNumberYear(current.number, changes.payment_date, { field: 'payment_date', label: 'Payment', dateLabel: 'payment date', remedy: 'keep a date of its year' });
        }
        const merged = await checkTypeRules(tx, { ...current, ...changes });
        return merged.university_id !== current.university_id && changes.university_id === undefined ? { ...changes, university_id: merged.university_id } : changes;
      },
    },
  });

  /** Marks the rows exported and writes Payments.xlsx and the SEPA file, all in one transaction. */
  async function exportRows(ids: number[] | undefined, userId: number) {
    return ctx.db.transaction(async (tx) => {
      // Only the payments table is locked; rows another export holds are skipped, so two exports never share one.
      const locked = await tx
        .select({ id: sp.id })
        .from(sp)
        .where(and(readyForExport, ids ? inArray(sp.id, ids) : undefined))
        .orderBy(asc(sp.id))
        .for('update', { skipLocked: true });
      if (locked.length === 0) throw new AppError('CONFLICT', 'Nothing to export: no numbered payment is ready for export (allowed and not yet exported)');
      // The bank data and the amount are checked again: a payee's account may have changed since the payment was
      // numbered, and its amount may have been edited to 0 or less (Bulk Edit). Such rows stay out of the file (and
      // not exported), so the bank never gets a transfer it must refuse.
      const details = await paymentDetails(tx, inArray(sp.id, locked.map((r) => r.id)));
      const refused = details
        .map((r) => ({ number: r.number, problem: Number(r.amount) > 0 ? (contractProblem(r) ?? bankDataProblem(accountOf(r))) : `its amount ${r.amount} is not above 0` }))
        .filter((r) => r.problem !== null);
      const rows = details.filter((r) => !refused.some((x) => x.number === r.number));
      const refusedText = refused.map((r) => `${r.number} (${r.problem})`).join(', ');
      if (rows.length === 0) throw new AppError('CONFLICT', `Nothing to export: no payment ready can be paid: ${refusedText}`);
      const accepted = rows.map((r) => r.id);
      const now = new Date();
      const today = todayIn(tz);
      const [{ total } = { total: '0' }] = await tx
        .select({ total: sql<string>`coalesce(sum(${sp.amount}), 0)::text` })
        .from(sp)
        .where(inArray(sp.id, accepted));
      // Unique per file (the bank refuses a message id it has seen): the day, the time and a random part.
      const messageId = `SP-${today.replace(/-/g, '')}-${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
      const sepa = sepaCreditTransfer({
        messageId,
        createdAt: localIsoDateTime(now, tz),
        debtor: { name: ctx.env.OFFICE_NAME, iban: ctx.env.OFFICE_IBAN, bic: ctx.env.OFFICE_BIC },
        transfers: rows.map((r) => ({
          endToEndId: r.number!,
          amount: r.amount,
          creditorName: r.payee_name,
          iban: electronicFormatIBAN(r.payee_iban ?? '') ?? '',
          bic: r.payee_bic ?? '',
          creditorAddress: addressOf(r),
          remittance: remittanceOf(r),
          // A payment date already past is asked for today: banks refuse, or shift, an execution date in the past.
          executionDate: r.payment_date! < today ? today : r.payment_date!,
        })),
      });
      // What the file says otherwise than the records (decision 060), said beside it and in the log: names the bank's
      // character set cannot carry whole, payment dates already past asked for today, and selected rows another
      // export holds at this moment.
      const renamed = rows.flatMap((r) => {
        const change = sepaNameChange(r.payee_name);
        return change ? [`${r.number} as ${change}`] : [];
      });
      const pastDated = rows.filter((r) => r.payment_date! < today).map((r) => r.number);
      const selected = ids ? new Set(ids).size : 0;
      const notes = [
        ...(renamed.length > 0 ? [`names in the SEPA file: ${renamed.join(', ')}`] : []),
        ...(pastDated.length > 0 ? [`payment date already past, so the bank is asked to pay on ${formatDate(today)}: ${pastDated.join(', ')}`] : []),
        ...(selected > locked.length ? [`${selected - locked.length} of the ${selected} selected not exported: not ready, or being exported by someone else at this moment`] : []),
      ]
        .map((note) => `; ${note}`)
        .join('');
      const xlsx = await xlsxBuffer(
        'Payments',
        PAYMENT_COLUMNS,
        rows.map((r) => [r.number, r.payment_date, r.payee_name, electronicFormatIBAN(r.payee_iban ?? ''), r.payee_bic, r.amount, r.type, r.contract, r.student_name, r.period, remittanceOf(r), addressText(r)]),
        tz,
      );
      const xlsxId = await storeFile(tx, fileToStore('Payments.xlsx', XLSX, xlsx), userId);
      const sepaFilename = `Payments_${messageId}.xml`;
      const sepaId = await storeFile(tx, fileToStore(sepaFilename, 'application/xml', Buffer.from(sepa, 'utf8')), userId);
      const [exp] = await tx
        .insert(scholarshipPaymentExports)
        .values({ message_id: messageId, payment_count: rows.length, total_amount: total, xlsx_file_id: xlsxId, sepa_file_id: sepaId, created_user: userId })
        .returning({ id: scholarshipPaymentExports.id });
      await tx
        .update(sp)
        .set({ exported_timestamp: now, exported_userid: userId, export_id: exp!.id })
        .where(inArray(sp.id, accepted));
      await recordEvent(tx, {
        type: 'export',
        userId,
        message: `Exported ${rows.length} scholarship payment(s) to the bank (export ${exp!.id}, ${messageId}, total ${formatMoney(total)}): ${rows.map((r) => r.number).join(', ')}${refused.length > 0 ? `; left out: ${refusedText}` : ''}${notes}`,
      });
      // And one per payment, in its contract's and student's history: where a payee asking "was I paid?" looks.
      await recordEvents(
        tx,
        rows.map((r) => ({
          type: 'export',
          userId,
          studentId: r.student_id,
          contractId: r.contract_id,
          resource: 'scholarship_payment',
          recordId: r.id,
          message: `Exported ${r.number} (${formatMoney(r.amount)} to ${r.payee_name}) to the bank in export ${exp!.id}`,
        })),
      );
      const leftOut = refused.length > 0 ? `; left out (not exported): ${refusedText}` : '';
      return { exportId: exp!.id, xlsx, message: `Exported ${rows.length} scholarship payment(s), total ${formatMoney(total)}${leftOut}${notes}` };
    });
  }

  /**
   * The rows a list action is asked for: the selected ones, else those the overview's filter shows (with `narrowed`,
   * filter values of the action's own), else undefined: every row the action takes.
   */
  async function chosenIds(input: { ids?: number[]; filter?: Record<string, string | number | boolean> }, narrowed: Record<string, string>): Promise<number[] | undefined> {
    if (input.ids && input.ids.length > 0) return input.ids;
    if (!input.filter) return undefined;
    const query = filterQueryOf(scholarshipPaymentResource, input.filter, { over: narrowed });
    const ids: number[] = [];
    for await (const [id] of service.iterate(query, ['id'])) ids.push(Number(id));
    return ids;
  }

  const routes = Router();
  // What Export Payments would export, said in its confirm before anything is marked (decision 055): how many
  // payments and how much, and how many of a selection are not ready. The export checks the payees' bank data again
  // and may leave a few out; it says which.
  route(routes, 'post', '/scholarship_payments/export_payments/summary', async (req, res) => {
    const input = parseInput(ExportRequestSchema.strict(), req.body ?? {}, 'export');
    const ids = await chosenIds(input, { ready_for_export: 'true' });
    const [ready] = await ctx.db
      .select({ count: sql<number>`count(*)::int`, total: sql<string>`coalesce(sum(${sp.amount}), 0)::text` })
      .from(sp)
      .where(and(readyForExport, ids ? inArray(sp.id, ids) : undefined));
    const count = ready?.count ?? 0;
    const total = ready?.total ?? '0';
    const selected = input.ids?.length ?? 0;
    const notReady = selected > 0 ? selected - count : 0;
    const message =
      count === 0
        ? 'Nothing would be exported: no payment here is ready (numbered, allowed, not yet exported).'
        : `${count} payment(s) over ${formatMoney(total)} would be exported and marked exported.${notReady > 0 ? ` ${notReady} of the ${selected} selected are not ready and stay out.` : ''}`;
    res.json({ count, total: Number(total), message });
  });
  // The Scholarship overview (by scholarship): counts and sums in SQL, per scholarship, intake and type. The payments
  // are grouped on their own columns (the contract's intake and scholarship, copied by triggers) in the order of
  // scholarship_payments_overview_idx, which holds everything summed: an index-only scan without a sort. The names
  // are joined to the few groups afterwards.
  queryRoute(routes, 'get', '/scholarship_payments/by_scholarship', async (req, res) => {
    const filter = parseInput(ScholarshipOverviewFilterSchema.strict(), req.query, 'list query');
    const planned = sql`${sp.number} is null`;
    const numbered = sql`${sp.number} is not null`;
    const exported = sql`${sp.exported_timestamp} is not null`;
    const countIf = (cond: SQL, name: string) => sql<number>`(count(*) filter (where ${cond}))::int`.as(name);
    const sumIf = (cond: SQL, name: string) => sql<number>`(coalesce(sum(${sp.amount}) filter (where ${cond}), 0))::float8`.as(name);
    const totals = ctx.db
      .select({
        intake: sp.intake,
        scholarship_id: sp.scholarship_id,
        scholarship_payment_type_id: sp.scholarship_payment_type_id,
        planned_count: countIf(planned, 'planned_count'),
        planned_amount: sumIf(planned, 'planned_amount'),
        numbered_count: countIf(numbered, 'numbered_count'),
        numbered_amount: sumIf(numbered, 'numbered_amount'),
        exported_count: countIf(exported, 'exported_count'),
        exported_amount: sumIf(exported, 'exported_amount'),
      })
      .from(sp)
      .where(
        and(
          filter.intake !== undefined ? eq(sp.intake, filter.intake) : undefined,
          filter.scholarship_payment_type_id !== undefined ? eq(sp.scholarship_payment_type_id, filter.scholarship_payment_type_id) : undefined,
        ),
      )
      .groupBy(sp.intake, sp.scholarship_id, sp.scholarship_payment_type_id)
      .as('totals');
    const rows = await ctx.db
      .select({
        scholarship_id: totals.scholarship_id,
        scholarship_code: scholarships.code,
        intake: totals.intake,
        scholarship_payment_type_id: totals.scholarship_payment_type_id,
        scholarship_payment_type: scholarshipPaymentTypes.name,
        planned_count: totals.planned_count,
        planned_amount: totals.planned_amount,
        numbered_count: totals.numbered_count,
        numbered_amount: totals.numbered_amount,
        exported_count: totals.exported_count,
        exported_amount: totals.exported_amount,
      })
      .from(totals)
      .innerJoin(scholarships, eq(scholarships.id, totals.scholarship_id))
      .innerJoin(scholarshipPaymentTypes, eq(scholarshipPaymentTypes.id, totals.scholarship_payment_type_id))
      .orderBy(asc(scholarships.code), asc(totals.intake), asc(totals.scholarship_payment_type_id));
    res.json({ data: rows });
  });

  // The module itself, for the action that runs create_payment on several rows (set once it is defined).
  const self: { module?: ResourceModule } = {};
  const mod = defineModule(ctx, service, [
    listAction(scholarshipPaymentActions.scheduleByReference, async (db, actor, input) => {
      const found = await db
        .select({ id: sp.id })
        .from(sp)
        .where(and(isNull(sp.number), inArray(sp.linked_invoice_id, sql`(select ${invoices.id} from ${invoices} where ${invoices.document_reference} = ${input.document_reference})`)))
        .orderBy(asc(sp.planned_date), asc(sp.id));
      if (found.length === 0) throw new AppError('CONFLICT', `No planned payment is linked to an invoice with reference ${input.document_reference}`);
      const done: string[] = [];
      const refused: string[] = [];
      for (const { id } of found) {
        try {
          // Each in its own transaction, through the one code path of create_payment (locks, state check, event).
          await ctx.db.transaction((tx) => runRecordAction(ctx, tx, self.module!, scholarshipPaymentActions.createPayment, { id, input: { payment_date: input.payment_date }, actor }));
          const [row] = await db.select({ number: sp.number }).from(sp).where(eq(sp.id, id));
          done.push(row?.number ?? String(id));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          refused.push(`#${id}: ${err.message}`);
        }
      }
      return {
        message: `Scheduled ${done.length} payment(s) of ${input.document_reference}${done.length > 0 ? `: ${done.join(', ')}` : ''}${refused.length > 0 ? `; refused ${refused.join('; ')}` : ''}`,
      };
    }),
    recordAction(scholarshipPaymentActions.createPayment, async (tx, actor, { id, row }, input) => {
      const [detail] = await paymentDetails(tx, eq(sp.id, id));
      if (!detail) throw new AppError('NOT_FOUND', `Scholarship payment ${id} not found`);
      if (Number(detail.amount) <= 0) throw new AppError('CONFLICT', 'Only an amount above 0 can be paid');
      const refused = contractProblem(detail);
      if (refused) throw new AppError('CONFLICT', `No payment: ${refused}`);
      const problem = bankDataProblem(accountOf(detail));
      if (problem) throw new AppError('CONFLICT', `No payment without valid bank data: ${problem}`);
      const paymentDate = paymentDateOf(input.payment_date, String(row.planned_date), todayIn(tz));
      const { number } = await nextNumber(tx, 'scholarship_payment', Number(paymentDate.slice(0, 4)));
      const changes = await service.applyChanges(tx, row, { number, payment_date: paymentDate, payment_allowed: true }, actor);
      return { changes, message: `Payment ${number} of ${formatDate(paymentDate)}`, amount: detail.amount, group: detail.type };
    }),
    recordAction(scholarshipPaymentActions.resetExport, async (tx, actor, { id, row }) => {
      // The log names the export whose file held it: the one to check with the bank if the payee says "paid twice".
      const [was] = await tx.select({ export_id: sp.export_id }).from(sp).where(eq(sp.id, id));
      const changes = await service.applyChanges(tx, row, { exported_timestamp: null, exported_userid: null, export_id: null }, actor);
      return { changes, message: `Export reset (was exported ${formatDateTime(row.exported_timestamp as string | Date | null, tz)} by ${String(row.exported_user)} in export ${String(was?.export_id)})` };
    }),
    listAction(scholarshipPaymentActions.exportPayments, async (_db, actor, input) => {
      // Of the overview's rows, those ready for export are exported.
      const done = await exportRows(await chosenIds(input, { ready_for_export: 'true' }), actor.user.id);
      return {
        eventRecorded: true,
        file: {
          filename: 'Payments.xlsx',
          contentType: XLSX,
          write: async (res) => {
            res.setHeader('X-Export-Id', String(done.exportId));
            // What the user must know beside the file (a payment left out): shown by the web after saving it.
            res.setHeader(FILE_MESSAGE_HEADER, encodeURIComponent(done.message));
            res.setHeader('Access-Control-Expose-Headers', `X-Export-Id, ${FILE_MESSAGE_HEADER}, Content-Disposition`);
            setAttachment(res, 'Payments.xlsx');
            res.type(XLSX);
            res.send(done.xlsx);
          },
        },
      };
    }),
    // None chosen: the caller's own latest export, never one another user made a moment later (decision 060).
    listAction(scholarshipPaymentActions.downloadSepa, async (db, actor, input) => {
      const [exp] = await db
        .select({ id: scholarshipPaymentExports.id, fileId: scholarshipPaymentExports.sepa_file_id })
        .from(scholarshipPaymentExports)
        .where(input.export_id ? eq(scholarshipPaymentExports.id, input.export_id) : eq(scholarshipPaymentExports.created_user, actor.user.id))
        .orderBy(sql`${scholarshipPaymentExports.id} desc`)
        .limit(1);
      if (!exp) {
        throw input.export_id
          ? new AppError('NOT_FOUND', `Export ${input.export_id} not found`, { export_id: [`export ${input.export_id} not found`] })
          : new AppError('CONFLICT', 'You have not exported payments yet: choose the export whose SEPA file you want', { export_id: ['choose an export'] });
      }
      const file = await readStoredFile(db, exp.fileId);
      if (!file) throw new AppError('NOT_FOUND', `The SEPA file of export ${exp.id} is gone`);
      return { eventType: 'export', message: `Downloaded the SEPA file of export ${exp.id}`, file: { filename: file.filename, contentType: 'application/xml', content: file.content } };
    }),
    listAction(scholarshipPaymentActions.downloadKitReport, async (db, _actor, input) => {
      const ids = await chosenIds(input, { numbered: 'true' });
      const rows = await paymentDetails(db, and(isNumbered, eq(universities.shortname, KIT_SHORTNAME), ids ? inArray(sp.id, ids) : undefined)!);
      const buffer = await xlsxBuffer(
        'KIT payments',
        [
          { field: 'number', title: 'Payment Number', width: 110 },
          { field: 'payment_date', title: 'Payment Date', format: 'date' },
          { field: 'student', title: 'Student', width: 200 },
          { field: 'contract', title: 'Application Number', width: 120 },
          { field: 'period', title: 'Period', width: 100 },
          { field: 'invoice', title: 'Invoice Number', width: 110 },
          { field: 'description', title: 'Description', width: 220 },
          { field: 'amount', title: 'Amount', format: 'money' },
        ],
        rows.map((r) => [r.number, r.payment_date, r.student_name, r.contract, r.period, r.linked_invoice_number, r.description, r.amount]),
        tz,
      );
      return { eventType: 'export', message: `Exported KIT_Payments.xlsx (${rows.length} payments)`, file: { filename: 'KIT_Payments.xlsx', contentType: XLSX, content: buffer } };
    }),
    listAction(scholarshipPaymentActions.exportUniversityFeePayments, async (db, _actor, input) => {
      const period = input.period ?? universityFeePeriod(todayIn(tz));
      const rows = await paymentDetails(db, and(eq(sp.scholarship_payment_type_id, SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE), eq(sp.period, period))!);
      const filename = `University_Fees_${period.replace(/\//g, '_')}.xlsx`;
      const buffer = await xlsxBuffer(
        'University fees',
        [
          { field: 'university', title: 'University', width: 100 },
          { field: 'student', title: 'Student', width: 200 },
          { field: 'contract', title: 'Contract', width: 100 },
          { field: 'period', title: 'Period', width: 100 },
          { field: 'amount', title: 'Amount', format: 'money' },
          { field: 'planned', title: 'Planned', format: 'date' },
          { field: 'number', title: 'Number', width: 110 },
          { field: 'payment_date', title: 'Payment Date', format: 'date' },
          { field: 'exported', title: 'Exported', format: 'datetime' },
          { field: 'invoice', title: 'Invoice Number', width: 110 },
        ],
        rows.map((r) => [r.university, r.student_name, r.contract, r.period, r.amount, r.planned_date, r.number, r.payment_date, r.exported_timestamp, r.linked_invoice_number]),
        tz,
      );
      return { eventType: 'export', message: `Exported ${filename} (${rows.length} university fee payments)`, file: { filename, contentType: XLSX, content: buffer } };
    }),
  ], routes);
  self.module = mod;
  return mod;
}

/**
 * The payment type choice list (spec §7 `scholarship_payment_types`), and the exports to the bank, newest first,
 * each named as staff tell them apart: `Export 3 · 26-11-2026 10:30 · Ada Admin · 5 payment(s) · € 1.234,50`.
 */
export function scholarshipPaymentChoices(ctx: AppContext): Record<'scholarship_payment_types' | 'scholarship_payment_exports', ChoiceSource> {
  const e = scholarshipPaymentExports;
  // to_char's `,` and `.` are the separators as written, whatever the server's locale; then swapped to 1.234,50.
  const total = sql`translate(to_char(${e.total_amount}, 'FM999,999,999,990.00'), ',.', '.,')`;
  const when = sql`to_char(${e.created_timestamp} at time zone ${ctx.env.APP_TIMEZONE}, 'DD-MM-YYYY HH24:MI')`;
  const who = sql`coalesce(${userName(e.created_user)}, '')`;
  // A payment reset since is no longer this export's, but its file still holds it: the file must not go to the bank
  // again as it is (decision 055). Served by scholarship_payments_export_idx.
  const resetSince = sql`(select case when ${e.payment_count} > count(*) then ' · ' || (${e.payment_count} - count(*)) || ' reset since: its file still holds them' else '' end
    from ${scholarshipPayments} p where p.export_id = ${e.id})`;
  return {
    scholarship_payment_types: tableChoices(ctx.db, { table: scholarshipPaymentTypes, id: scholarshipPaymentTypes.id, label: scholarshipPaymentTypes.name, order: 'id' }),
    scholarship_payment_exports: tableChoices(ctx.db, {
      table: e,
      id: e.id,
      label: sql`'Export ' || ${e.id} || ' · ' || ${when} || ' · ' || ${who} || ' · ' || ${e.payment_count} || ' payment(s) · € ' || ${total} || ${resetSince}`,
      order: 'newest',
    }),
  };
}
