import { and, asc, count, eq, isNotNull, not, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  AppError,
  CreditNoteCreateSchema,
  creditNoteNumber,
  creditNoteTypeOf,
  documentReference,
  exportColumns,
  formatDate,
  formatMoney,
  invoiceActions,
  InvoiceChoiceParamsSchema,
  invoiceResource,
  isCreditNoteInput,
  SEARCHED_CHOICE_LIMIT,
  todayIn,
  whyContractStopped,
} from '@app/contracts';
import { contracts, documentTypes, invoices, students, type Tx } from '@app/db';
import { parseInput } from '../../lib/errors.js';
import { recordEvent } from '../../lib/events/record.js';
import { contractTotals, invoiceFiguresOf } from '../../lib/invoicing/money.js';
import { credited, invoiceConditions, invoiced, invoiceFilters, invoiceSearch, invoiceSearchParts, invoiceSearchRank, isOpen, open, paid } from '../../lib/invoicing/invoice-sql.js';
import { numberedValues } from '../../lib/invoicing/number.js';
import { queueStudentMail } from '../../lib/mail/student-mail.js';
import { contractStudentName } from '../../lib/search.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { listAction, recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { checksumOf, tableChoices, type ChoiceSource } from '../../lib/crud/choices.js';
import { createCrudService, moneyValue, type Actor, type Join, type Row, type WriteOptions } from '../../lib/crud/crud-service.js';
import { oncePerKey } from '../../lib/crud/request-key.js';
import { filterQueryOf } from '../../lib/crud/list-query.js';
import { sendXlsx } from '../../lib/files/xlsx.js';
import { createStoredPdf, pdfDownload, recordPdf, recordPdfFile } from '../../lib/templates/pdf.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';
import { userName } from '../../lib/crud/user-name.js';

const i = invoices;

const joinContract: Join = (q) => q.innerJoin(contracts, eq(contracts.id, i.contract_id));
const joinDocumentType: Join = (q) => q.innerJoin(documentTypes, eq(documentTypes.id, i.document_type_id));

/** Money computed in SQL from the documents and payments (DESIGN §11): lib/invoicing/money.ts through invoice-sql.ts. */
// Nested in the selection: drizzle then names the outer columns with their table, which a subquery over an
// alias of the same table needs (an unqualified "id" would be the alias's).
const creditNoteNumbers = sql`(select string_agg(cn.number, ', ' order by cn.number) from ${i} cn where cn.linked_invoice_id = ${i.id} and cn.is_creditnote)`;
const linkedNumber = sql`(select li.number from ${i} li where li.id = ${i.linked_invoice_id})`;

const plainFields = [
  'id', 'document_reference', 'number', 'contract_id', 'year', 'semester', 'description', 'planned_date', 'invoice_date', 'expiration_date',
  'extended_deadline_date', 'email_timestamp', 'email_reminder_timestamp', 'linked_invoice_id', 'comments', 'document_type_id',
  'is_creditnote', 'pro_forma', 'pdf_filename', 'pdf_timestamp', 'creation_timestamp', 'edit_timestamp',
] as const;

export function invoiceModule(ctx: AppContext): ResourceModule {
  const today = sql`(now() at time zone ${ctx.env.APP_TIMEZONE})::date`;
  const base = createCrudService(ctx, {
    resource: invoiceResource,
    table: i,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, i[f] as AnyPgColumn])),
      contract: contracts.application_number,
      student_id: contracts.student_id,
      student_name: contractStudentName,
      amount: moneyValue(i.amount),
      total_amount: sql<number>`(${invoiced})::float8`,
      payed_amount: sql<number>`(${paid})::float8`,
      to_be_payed_amount: sql<number>`(${open})::float8`,
      credit_note: sql<string | null>`${creditNoteNumbers}`,
      linked_invoice_number: sql<string | null>`${linkedNumber}`,
      is_locked: sql<boolean>`(${i.number} is not null)`,
      is_expired: sql<boolean>`coalesce(${isOpen} and coalesce(${i.extended_deadline_date}, ${i.expiration_date}) < ${today}, false)`,
      document_type: documentTypes.name,
      creation_user: userName(i.creation_user),
      edit_user: userName(i.edit_user),
      pdf_user: userName(i.pdf_user),
      email_user: userName(i.email_user),
    },
    joins: (q) => joinDocumentType(joinContract(q)),
    // Filters are on the invoice itself (the contract's fields through subqueries on its indexes).
    countJoins: (q) => q,
    sortJoins: { contract: joinContract, student_name: joinContract },
    neverNull: ['contract'],
    // The views' sorts (spec §2) page by keyset: a numbered invoice has a number by the view's own condition, a
    // credit note by invoices_creditnote_number_check, a planned invoice a reference by invoices_planned_reference_check.
    neverNullWhen: {
      number: (f) => f.numbered === 'true' || f.creditnote === 'true',
      document_reference: (f) => f.planned === 'true',
    },
    // A planned invoice has no number (the planned filter's own condition): "by number", the resource's default
    // sort, orders the planned view by id.
    alwaysNullWhen: { number: (f) => f.planned === 'true' },
    // Only a numbered invoice is open (isOpen): the planned ones and the credit notes never are.
    emptyWhen: (f) => f.open === 'true' && (f.planned === 'true' || f.creditnote === 'true' || f.numbered === 'false'),
    search: invoiceSearch,
    searchRank: invoiceSearchRank,
    searchParts: invoiceSearchParts,
    // One definition of each filter field (lib/invoicing/invoice-sql.ts): the contract filter's invoice fields reuse them.
    filters: invoiceFilters,
    // A view is the unfiltered list of its kind (880k numbered invoices: an exact count ≈ 300 ms), and "open"
    // computes each invoice's credit notes and payments: counted by the planner's estimate when they find many.
    estimatedFilters: ['planned', 'numbered', 'creditnote', 'open'],
    unique: { invoices_number_unique: { field: 'number', label: 'Invoice Number' } },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.contract_id) }),
    hooks: {
      beforeCreate: async (tx, values, actor) => ({
        ...values,
        document_reference: await referenceOf(tx, values),
        creation_user: actor.user.id,
      }),
      beforeUpdate: async (tx, changes, current) => {
        // An extended deadline extends: one before the expiration date would make the invoice overdue at once.
        const deadline = changes.extended_deadline_date;
        if (typeof deadline === 'string' && current.expiration_date && deadline < String(current.expiration_date)) {
          throw new AppError('BAD_REQUEST', 'Invalid input: extended_deadline_date', {
            extended_deadline_date: [`The extended deadline cannot be before the expiration date (${formatDate(String(current.expiration_date))})`],
          });
        }
        // The reference follows the fee type while the invoice is planned (contract, year and semester never change).
        return changes.document_type_id !== undefined && current.number === null ? { ...changes, document_reference: await referenceOf(tx, { ...current, ...changes }) } : changes;
      },
    },
  });

  /**
   * A credit note (issue 13 point 6): `POST /invoices/` naming the numbered invoice it credits. In one
   * transaction, with the invoice locked (two credit notes at once take turns): never more than what is not yet
   * credited on it, paid or not (computed in SQL, lib/invoicing/money.ts; decision 036), numbered `CN-` + its
   * number (`-2` for a second one), dated today, its PDF rendered and stored.
   */
  async function createCreditNote(input: unknown, actor: Actor, options: WriteOptions = {}): Promise<{ id: number }> {
    const given = parseInput(CreditNoteCreateSchema, input, 'credit note');
    const work = async (tx: Tx) => {
      const [source] = await tx.select().from(i).where(eq(i.id, given.linked_invoice_id)).for('update');
      if (!source) throw new AppError('BAD_REQUEST', 'Invalid credit note: linked_invoice_id', { linked_invoice_id: ['Invoice is not known'] });
      if (source.is_creditnote) throw new AppError('CONFLICT', `${source.number ?? 'This document'} is a credit note: only an invoice can be credited`);
      if (source.number === null) throw new AppError('CONFLICT', 'Only a numbered invoice can be credited: create the invoice first');
      const { creditable } = await invoiceFiguresOf(tx, source.id);
      const { rows } = await tx.execute<{ exceeds: boolean }>(sql`select ${given.amount.toFixed(2)}::numeric > ${creditable}::numeric as exceeds`);
      if (rows[0]!.exceeds) {
        throw new AppError('CONFLICT', `The credit note cannot be more than what is not yet credited on invoice ${source.number}: ${formatMoney(creditable)}`, {
          amount: [`At most ${formatMoney(creditable)}`],
        });
      }
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(i).where(and(eq(i.linked_invoice_id, source.id), i.is_creditnote));
      const number = creditNoteNumber(source.number, Number(n) + 1);
      const invoiceDate = todayIn(ctx.env.APP_TIMEZONE);
      const documentTypeId = creditNoteTypeOf(source.document_type_id)!;
      const [contract] = await tx.select({ application_number: contracts.application_number }).from(contracts).where(eq(contracts.id, source.contract_id));
      const data = {
        ...(await contractTemplateData(tx, source.contract_id)),
        credit_note: {
          number,
          date: invoiceDate,
          invoice_number: source.number,
          reason: given.description,
          lines: [{ description: given.description, amount: -given.amount }],
          total: -given.amount,
        },
      };
      const filename = `Credit_Note_${number}.pdf`;
      const pdf = await createStoredPdf({ db: tx, env: ctx.env }, 'credit_note_pdf', data, filename, actor.user.id);
      const [inserted] = await tx
        .insert(i)
        .values({
          contract_id: source.contract_id,
          year: source.year,
          semester: source.semester,
          document_type_id: documentTypeId,
          pro_forma: source.pro_forma,
          document_reference: documentReference(contract!.application_number, { year: source.year, semester: source.semester, document_type_id: documentTypeId }),
          linked_invoice_id: source.id,
          number,
          amount: given.amount.toFixed(2),
          description: given.description,
          comments: given.comments ?? null,
          planned_date: source.planned_date,
          invoice_date: invoiceDate,
          pdf_file_id: pdf.fileId,
          pdf_filename: filename,
          pdf_timestamp: new Date(),
          pdf_user: actor.user.id,
          creation_user: actor.user.id,
          edit_user: actor.user.id,
        })
        .returning({ id: i.id });
      const id = inserted!.id;
      const row = await base.get(id, tx);
      await recordEvent(tx, {
        ...base.eventOf('create', row, actor.user),
        message: `Created Credit Note ${number} over ${formatMoney(given.amount)} for invoice ${source.number}`,
      });
      return { id };
    };
    // A credit note sent again with its Idempotency-Key is made once (decision 050).
    const done = (tx: Tx) => oncePerKey(tx, actor, options.requestKey, () => work(tx));
    return options.tx ? done(options.tx) : ctx.db.transaction(done);
  }

  const service: typeof base = {
    ...base,
    create: (input, actor, options = {}) => (isCreditNoteInput(input) ? createCreditNote(input, actor, options) : base.create(input, actor, options)),
  };

  return defineModule(ctx, service, [
    recordAction(invoiceActions.createPdf, async (tx, actor, { id, row }, input) => {
      const invoiceDate = input.invoice_date ?? todayIn(ctx.env.APP_TIMEZONE);
      // A number is for good: an invoice of nothing or less could never be credited, deleted or paid.
      if (Number(row.amount) <= 0) throw new AppError('CONFLICT', `Only an amount above 0 can be invoiced: this invoice is over ${formatMoney(Number(row.amount))}`);
      const [standing] = await tx
        .select({ application_number: contracts.application_number, active: contracts.active, contract_status_id: contracts.contract_status_id, contract_status_date: contracts.contract_status_date })
        .from(contracts)
        .where(eq(contracts.id, Number(row.contract_id)));
      // A fee falls due on its planned date: after a drop-out, only what fell due up to that day is invoiced.
      const stopped = standing ? whyContractStopped(standing, String(row.planned_date ?? invoiceDate)) : null;
      if (stopped) throw new AppError('CONFLICT', `No invoice: ${stopped}`);
      // The number is taken in this transaction: a failure below gives it back (DESIGN §11).
      const values = await numberedValues(ctx, tx, actor, id, invoiceDate);
      const number = values.number;
      const changes = await service.applyChanges(tx, row, values, actor);
      delete changes.pdf_file_id;
      delete changes.pdf_user;
      delete changes.pdf_timestamp;
      return { changes, message: `Invoice ${number} of ${formatDate(invoiceDate)}`, amount: Number(row.amount) };
    }),
    recordAction(invoiceActions.sendEmail, async (tx, actor, { id, row }, input) => {
      if (input.reminder) {
        // An invoice open on its own while another, paid and then credited, left a credit that covers it: the
        // student owes nothing (decision 036), so nothing is reminded.
        const { open } = contractTotals(contracts.id);
        const [balance] = await tx.select({ open: sql<string>`(${open})::text` }).from(contracts).where(eq(contracts.id, Number(row.contract_id)));
        if (balance && Number(balance.open) <= 0) {
          throw new AppError('CONFLICT', `Contract ${String(row.contract)} owes nothing: its credit covers invoice ${String(row.number)}`);
        }
      }
      const pdf = await recordPdfFile(tx, i.pdf_file_id, i.id, id, 'No PDF has been created for this invoice yet');
      const data = await contractTemplateData(tx, Number(row.contract_id));
      if (!data.student.email?.trim()) throw new AppError('CONFLICT', 'The student has no e-mail address');
      const target = input.reminder ? 'invoice.email_reminder_timestamp' : 'invoice.email_timestamp';
      // A credit note has a mail of its own: it credits, it asks for nothing (decision 039). Two sends at once
      // queue the mail once: the record lock orders them and the outbox refuses the same mail still waiting.
      const template = row.is_creditnote ? 'credit_note_email' : input.reminder ? 'reminder_email' : 'invoice_email';
      const mailData = row.is_creditnote ? { credit_note: await creditNoteMailData(tx, row) } : { invoice: await invoiceMailData(tx, id, row) };
      const message = await queueStudentMail(ctx, tx, actor, template, { ...data, ...mailData }, {
        attach: [pdf],
        concerns: { resource: 'invoice', id },
        onAccepted: [{ target, id }],
      });
      return { message, amount: Number(row.to_be_payed_amount) };
    }),
    recordAction(invoiceActions.linkRegistration, async (tx, actor, { id, row }, input) => {
      const feeId = input.registration_fee_id;
      if (feeId === id) throw new AppError('BAD_REQUEST', 'Invalid input: registration_fee_id', { registration_fee_id: ['An invoice cannot link itself'] });
      const [fee] = await tx
        .select({ number: i.number, document_type_id: i.document_type_id, pro_forma: i.pro_forma, student_id: contracts.student_id })
        .from(i)
        .innerJoin(contracts, eq(contracts.id, i.contract_id))
        .where(eq(i.id, feeId));
      if (!fee) throw new AppError('BAD_REQUEST', 'Invalid input: registration_fee_id', { registration_fee_id: ['Registration fee is not known'] });
      if (fee.document_type_id !== 3 || !fee.pro_forma || fee.number === null) {
        throw new AppError('CONFLICT', `${fee.number ?? 'That invoice'} is not a numbered pro-forma registration fee`);
      }
      if (fee.student_id !== Number(row.student_id)) throw new AppError('CONFLICT', `Registration fee ${fee.number} belongs to another student`);
      const changes = await base.applyChanges(tx, row, { linked_invoice_id: feeId }, actor);
      await tx.update(students).set({ registration_fee_payed: true }).where(eq(students.id, Number(row.student_id)));
      return { changes, message: `Linked registration fee ${fee.number}` };
    }),
    recordAction(invoiceActions.downloadPdf, async (tx, _actor, { id }) => pdfDownload(await recordPdf(tx, i.pdf_file_id, i.id, id, 'No PDF has been created for this invoice yet'))),
    // The open invoices of the overview's filter (or of the selection), streamed like Export Selection.
    listAction(invoiceActions.downloadReportOpen, async (_db, _actor, input) => {
      const query = filterQueryOf(invoiceResource, input.filter, { omit: ['planned', 'creditnote'], over: { open: 'true' } });
      const columns = exportColumns(invoiceResource.columns);
      const ids = input.ids && input.ids.length > 0 ? input.ids : undefined;
      const filename = 'Open_Invoices.xlsx';
      return {
        eventType: 'export',
        message: `Exported ${filename}`,
        file: {
          filename,
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          write: (res) => sendXlsx(res, filename, 'Open invoices', columns, service.iterate(query, columns.map((c) => c.field), ids), { timeZone: ctx.env.APP_TIMEZONE }),
        },
      };
    }),
  ]);
}

/**
 * The invoice as its e-mail and reminder say it (decision 039): the total and lines as on its PDF, what its credit
 * notes and payments took off, and what is still open — computed in SQL from the one money definition
 * (lib/invoicing/money.ts through invoice-sql.ts), as exact text.
 */
async function invoiceMailData(tx: Tx, id: number, row: Row) {
  const [m] = await tx
    .select({
      credited: sql<string>`(${credited})::numeric(12,2)::text`,
      paid: sql<string>`(${paid})::numeric(12,2)::text`,
      open: sql<string>`(${open})::numeric(12,2)::text`,
      credit_notes: sql<string>`coalesce(${creditNoteNumbers}, '')`,
    })
    .from(i)
    .where(eq(i.id, id));
  return {
    number: String(row.number),
    date: String(row.invoice_date),
    due_date: String(row.extended_deadline_date ?? row.expiration_date ?? row.invoice_date),
    description: String(row.description),
    lines: [{ description: String(row.description), amount: Number(row.amount) }],
    total: Number(row.amount),
    credit_notes: m!.credit_notes,
    credited: Number(m!.credited),
    paid: Number(m!.paid),
    open_amount: Number(m!.open),
  };
}

/**
 * A credit note as its e-mail says it: the amount credited (positive), on which invoice, why, and what is open on
 * that invoice after it (below 0: paid beyond it). Its PDF's lines and total come along, as the PDF has them.
 */
async function creditNoteMailData(tx: Tx, row: Row) {
  const amount = Number(row.amount);
  const { open: invoiceOpen } = await invoiceFiguresOf(tx, Number(row.linked_invoice_id));
  return {
    number: String(row.number),
    date: String(row.invoice_date),
    invoice_number: String(row.linked_invoice_number ?? ''),
    reason: String(row.description),
    lines: [{ description: String(row.description), amount: -amount }],
    total: -amount,
    amount,
    invoice_open: Number(invoiceOpen),
  };
}

/** The document reference of new values; a contract that does not exist is a 400 naming the field. */
async function referenceOf(tx: Tx, values: Row): Promise<string> {
  const [contract] = await tx.select({ application_number: contracts.application_number }).from(contracts).where(eq(contracts.id, Number(values.contract_id)));
  if (!contract) throw new AppError('BAD_REQUEST', 'Invalid input: contract_id', { contract_id: ['Contract is not known'] });
  return documentReference(contract.application_number, {
    year: Number(values.year),
    semester: Number(values.semester),
    document_type_id: Number(values.document_type_id ?? 1),
  });
}

/**
 * A choice list of numbered documents (issue 18 point 2, decision 020): `invoices` (invoices, not credit notes)
 * or `invoices_credit_notes` (both), labelled `number · application number · description`, in number order
 * (invoices_number_idx), searched like the invoice overview and narrowed by the invoice filter's fields.
 */
function numberedDocumentChoices(ctx: AppContext, creditNotes: boolean): ChoiceSource {
  const kind = creditNotes ? isNotNull(i.number) : and(isNotNull(i.number), not(i.is_creditnote));
  const select = () =>
    ctx.db
      .select({ id: i.id, name: sql<string>`${i.number} || ' · ' || ${contracts.application_number} || ' · ' || ${i.description}` })
      .from(i)
      .innerJoin(contracts, eq(contracts.id, i.contract_id));
  const search: NonNullable<ChoiceSource['search']> = async (term, wanted, limit, params = {}) => {
    const found = await select()
      .where(and(kind, invoiceConditions(params), term ? invoiceSearch(term) : undefined))
      .orderBy(asc(i.is_creditnote), asc(i.number), asc(i.id))
      .limit(limit);
    const held = wanted === undefined || found.some((r) => r.id === wanted) ? [] : await select().where(and(kind, eq(i.id, wanted)));
    return [...held, ...found];
  };
  return {
    params: InvoiceChoiceParamsSchema,
    search,
    list: () => search(undefined, undefined, SEARCHED_CHOICE_LIMIT),
    checksum: async () => checksumOf(await search(undefined, undefined, SEARCHED_CHOICE_LIMIT)),
  };
}

/** The invoice choice lists (spec §7): document types, and the numbered invoices and credit notes. */
export function invoiceChoices(
  ctx: AppContext,
): Record<'document_types_invoices' | 'document_types_creditnotes' | 'invoices' | 'invoices_credit_notes', ChoiceSource> {
  const types = (creditNotes: boolean) =>
    tableChoices(ctx.db, { table: documentTypes, id: documentTypes.id, label: documentTypes.name, where: eq(documentTypes.is_creditnote, creditNotes), order: 'id' });
  return {
    document_types_invoices: types(false),
    document_types_creditnotes: types(true),
    invoices: numberedDocumentChoices(ctx, false),
    invoices_credit_notes: numberedDocumentChoices(ctx, true),
  };
}
