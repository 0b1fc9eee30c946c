import { and, asc, eq, isNotNull, not, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { AppError, documentReference, exportColumns, invoiceActions, InvoiceChoiceParamsSchema, invoiceResource, SEARCHED_CHOICE_LIMIT, todayIn } from '@app/contracts';
import { contracts, documentTypes, invoices, students, type Tx } from '@app/db';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { listAction, recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { checksumOf, tableChoices, type ChoiceSource } from '../../lib/crud/choices.js';
import { createCrudService, moneyValue, type Join, type Row } from '../../lib/crud/crud-service.js';
import { parseListQuery } from '../../lib/crud/list-query.js';
import { sendXlsx } from '../../lib/files/xlsx.js';
import { nextNumber } from '../../lib/numbering.js';
import { invoiceConditions, invoiced, invoiceFilters, invoiceSearch, isOpen, open, paid } from '../../lib/invoicing/invoice-sql.js';
import { createStoredPdf, readStoredPdf } from '../../lib/templates/pdf.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';

const i = invoices;

const joinContractStudent: Join = (q) => q.innerJoin(contracts, eq(contracts.id, i.contract_id)).innerJoin(students, eq(students.id, contracts.student_id));
const joinDocumentType: Join = (q) => q.innerJoin(documentTypes, eq(documentTypes.id, i.document_type_id));

// Nested in the selection: drizzle then names the outer columns with their table, which a subquery over an
// alias of the same table needs (an unqualified "id" would be the alias's).
const creditNoteNumbers = sql`(select string_agg(cn.number, ', ' order by cn.number) from ${i} cn where cn.linked_invoice_id = ${i.id} and cn.is_creditnote)`;
const linkedNumber = sql`(select li.number from ${i} li where li.id = ${i.linked_invoice_id})`;

const plainFields = [
  'id', 'document_reference', 'number', 'contract_id', 'year', 'semester', 'description', 'planned_date', 'invoice_date', 'expiration_date',
  'extended_deadline_date', 'email_timestamp', 'email_reminder_timestamp', 'linked_invoice_id', 'comments', 'document_type_id',
  'is_creditnote', 'pro_forma', 'pdf_filename', 'pdf_timestamp', 'creation_timestamp', 'edit_timestamp',
] as const;

/** `2026-03-01` + 30 days, as a calendar date. */
function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function invoiceModule(ctx: AppContext): ResourceModule {
  const today = sql`(now() at time zone ${ctx.env.APP_TIMEZONE})::date`;
  const service = createCrudService(ctx.db, {
    resource: invoiceResource,
    table: i,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, i[f] as AnyPgColumn])),
      contract: contracts.application_number,
      student_id: contracts.student_id,
      student_name: sql<string>`${students.first_name} || ' ' || ${students.last_name}`,
      amount: moneyValue(i.amount),
      total_amount: sql<number>`(${invoiced})::float8`,
      payed_amount: sql<number>`(${paid})::float8`,
      to_be_payed_amount: sql<number>`(${open})::float8`,
      credit_note: sql<string | null>`${creditNoteNumbers}`,
      linked_invoice_number: sql<string | null>`${linkedNumber}`,
      is_locked: sql<boolean>`(${i.number} is not null)`,
      is_expired: sql<boolean>`coalesce(${isOpen} and coalesce(${i.extended_deadline_date}, ${i.expiration_date}) < ${today}, false)`,
      document_type: documentTypes.name,
    },
    joins: (q) => joinDocumentType(joinContractStudent(q)),
    // Filters are on the invoice itself (the contract's fields through subqueries on its indexes).
    countJoins: (q) => q,
    sortJoins: { contract: joinContractStudent, student_name: joinContractStudent },
    neverNull: ['contract'],
    search: invoiceSearch,
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
      // The reference follows the fee type while the invoice is planned (contract, year and semester never change).
      beforeUpdate: async (tx, changes, current) =>
        changes.document_type_id !== undefined && current.number === null ? { ...changes, document_reference: await referenceOf(tx, { ...current, ...changes }) } : changes,
    },
  });

  return defineModule(ctx, service, [
    recordAction(invoiceActions.createPdf, async (tx, actor, { id, row }, input) => {
      const invoiceDate = input.invoice_date ?? todayIn(ctx.env.APP_TIMEZONE);
      const expirationDate = addDays(invoiceDate, ctx.env.PAYMENT_TERM_DAYS);
      // The number is taken in this transaction: a failure below gives it back (DESIGN §11).
      const { number } = await nextNumber(tx, 'invoice', Number(invoiceDate.slice(0, 4)));
      const data = await pdfData(tx, id, number, invoiceDate, expirationDate);
      const filename = `Invoice_${number}.pdf`;
      const pdf = await createStoredPdf({ db: tx, env: ctx.env }, 'invoice_pdf', data, filename, actor.user.id);
      const changes = await service.applyChanges(
        tx,
        row,
        { number, invoice_date: invoiceDate, expiration_date: expirationDate, pdf_filename: filename, pdf_file_id: pdf.fileId, pdf_user: actor.user.id, pdf_timestamp: new Date() },
        actor,
      );
      delete changes.pdf_file_id;
      delete changes.pdf_user;
      delete changes.pdf_timestamp;
      return { changes, message: `Invoice ${number} of ${invoiceDate}`, amount: Number(row.amount) };
    }),
    recordAction(invoiceActions.downloadPdf, async (tx, _actor, { id }) => {
      const [found] = await tx.select({ fileId: i.pdf_file_id }).from(i).where(eq(i.id, id));
      const stored = found?.fileId ? await readStoredPdf(tx, found.fileId) : undefined;
      if (!stored) throw new AppError('CONFLICT', 'No PDF has been created for this invoice yet');
      return { eventType: 'export', message: `"${stored.filename}"`, file: { filename: stored.filename, contentType: stored.mimeType, content: stored.content } };
    }),
    // The open invoices of the overview's filter (or of the selection), streamed like Export Selection.
    listAction(invoiceActions.downloadReportOpen, async (_db, _actor, input) => {
      const given = Object.entries(input.filter ?? {}).filter(([k]) => !['page', 'per_page', 'planned', 'creditnote'].includes(k));
      const query = parseListQuery(invoiceResource, { ...Object.fromEntries(given.map(([k, v]) => [k, String(v)])), open: 'true' });
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

/** The data of the invoice_pdf template, shaped like its sample (lib/templates/registry.ts). */
async function pdfData(tx: Tx, id: number, number: string, invoiceDate: string, dueDate: string) {
  const [r] = await tx
    .select({ amount: sql<string>`${i.amount}::text`, description: i.description, contract_id: i.contract_id })
    .from(i)
    .where(eq(i.id, id));
  if (!r) throw new AppError('NOT_FOUND', `Invoice ${id} not found`);
  const amount = Number(r.amount);
  return {
    ...(await contractTemplateData(tx, r.contract_id)),
    invoice: {
      number,
      date: invoiceDate,
      due_date: dueDate,
      description: r.description,
      lines: [{ description: r.description, amount }],
      total: amount,
      open_amount: amount,
    },
  };
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
