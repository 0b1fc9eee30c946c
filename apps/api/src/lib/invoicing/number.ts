import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { AppError, DOCUMENT_TYPE_TRANSACTION_FEE, documentReference, formatMoney, SEMESTER_LABELS, type ColumnDescriptor } from '@app/contracts';
import { recordEvent } from '../events/record.js';
import { documentTypes, invoices, type DbOrTx, type Tx } from '@app/db';
import type { AppContext } from '../context.js';
import type { Actor } from '../crud/crud-service.js';
import { nextNumber } from '../numbering.js';
import { contractTemplateData } from '../templates/contract-data.js';
import { createStoredPdf } from '../templates/pdf.js';
import { invoiceMoney } from './money.js';

/** `2026-03-01` + 30 days, as a calendar date. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The data of the invoice_pdf template, shaped like its sample (lib/templates/registry.ts). */
async function pdfData(tx: Tx, id: number, number: string, invoiceDate: string, dueDate: string) {
  const [r] = await tx
    .select({ amount: sql<string>`${invoices.amount}::text`, description: invoices.description, contract_id: invoices.contract_id, pro_forma: invoices.pro_forma })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!r) throw new AppError('NOT_FOUND', `Invoice ${id} not found`);
  const amount = Number(r.amount);
  return {
    ...(await contractTemplateData(tx, r.contract_id)),
    invoice: { number, date: invoiceDate, due_date: dueDate, description: r.description, lines: [{ description: r.description, amount }], total: amount, open_amount: amount, pro_forma: r.pro_forma },
  };
}

/**
 * What makes a planned invoice numbered (DESIGN §11, decision 018), in the caller's transaction: the next
 * number of the invoice date's year, the dates, and the rendered and stored PDF. The caller stores the values;
 * a failure anywhere rolls the counter back with the rest, so the number is given back.
 */
export async function numberedValues(ctx: AppContext, tx: Tx, actor: Actor, id: number, invoiceDate: string) {
  const expirationDate = addDays(invoiceDate, ctx.env.PAYMENT_TERM_DAYS);
  const { number } = await nextNumber(tx, 'invoice', Number(invoiceDate.slice(0, 4)));
  const data = await pdfData(tx, id, number, invoiceDate, expirationDate);
  const filename = `Invoice_${number}.pdf`;
  const pdf = await createStoredPdf({ db: tx, env: ctx.env }, 'invoice_pdf', data, filename, actor.user.id);
  return { number, invoice_date: invoiceDate, expiration_date: expirationDate, pdf_filename: filename, pdf_file_id: pdf.fileId, pdf_user: actor.user.id, pdf_timestamp: new Date() };
}

/**
 * Create transaction fee (spec §7): a type-9 invoice of the contract for its current year (year 2 once year 1
 * is finished), whole year, numbered at once with its PDF, in the action's transaction (decision 019).
 */
export async function createTransactionFeeInvoice(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  contract: { id: number; application_number: string; year1_finished: boolean },
  input: { invoice_date: string; amount: number },
): Promise<{ id: number; number: string }> {
  const year = contract.year1_finished ? 2 : 1;
  const [inserted] = await tx
    .insert(invoices)
    .values({
      contract_id: contract.id,
      year,
      semester: 0,
      document_type_id: DOCUMENT_TYPE_TRANSACTION_FEE,
      document_reference: documentReference(contract.application_number, { year, semester: 0, document_type_id: DOCUMENT_TYPE_TRANSACTION_FEE }),
      description: 'Transaction fee',
      amount: input.amount.toFixed(2),
      planned_date: input.invoice_date,
      creation_user: actor.user.id,
      edit_user: actor.user.id,
    })
    .returning({ id: invoices.id });
  const id = inserted!.id;
  const values = await numberedValues(ctx, tx, actor, id, input.invoice_date);
  await tx.update(invoices).set(values).where(eq(invoices.id, id));
  await recordEvent(tx, {
    type: 'create',
    userId: actor.user.id,
    contractId: contract.id,
    resource: 'invoice',
    recordId: id,
    message: `Created transaction fee ${values.number} over ${formatMoney(input.amount)} of ${input.invoice_date}`,
  });
  return { id, number: values.number };
}

/** The columns of a contract's numbered invoice details (spec §2 contract screen: "download numbered invoice details"). */
export const INVOICE_DETAIL_COLUMNS = [
  { field: 'number', title: 'Number' },
  { field: 'document_type', title: 'Document Type' },
  { field: 'year', title: 'Year', format: 'number' },
  { field: 'semester', title: 'Semester', format: 'number', labels: SEMESTER_LABELS },
  { field: 'description', title: 'Description', width: 260 },
  { field: 'invoice_date', title: 'Date', format: 'date' },
  { field: 'expiration_date', title: 'Exp. Date', format: 'date' },
  { field: 'extended_deadline_date', title: 'Ext. Deadline', format: 'date' },
  { field: 'amount', title: 'Amount', format: 'money' },
  { field: 'invoiced', title: 'Amount invoiced', format: 'money' },
  { field: 'paid', title: 'Amount paid', format: 'money' },
  { field: 'open', title: 'Amount to be paid', format: 'money' },
  { field: 'linked', title: 'Linked Invoice' },
  { field: 'email_timestamp', title: 'Email Sent', format: 'datetime' },
] as const satisfies readonly Pick<ColumnDescriptor, 'field' | 'title' | 'format' | 'labels' | 'width'>[];

/** The contract's numbered invoices and credit notes, by number, with their money computed in SQL. */
export async function* contractInvoiceDetails(db: DbOrTx, contractId: number): AsyncIterable<readonly unknown[]> {
  const money = invoiceMoney(invoices);
  const rows = await db
    .select({
      number: invoices.number,
      document_type: documentTypes.name,
      year: invoices.year,
      semester: invoices.semester,
      description: invoices.description,
      invoice_date: invoices.invoice_date,
      expiration_date: invoices.expiration_date,
      extended_deadline_date: invoices.extended_deadline_date,
      amount: sql<number>`${invoices.amount}::float8`,
      // A credit note's amount is in its invoice's "Amount invoiced" already (that invoice's amount less its credit
      // notes): counted again on its own line, the column added up to more than the contract was invoiced.
      invoiced: sql<number>`(case when ${invoices.is_creditnote} then 0 else ${money.invoiced} end)::float8`,
      paid: sql<number>`(case when ${invoices.is_creditnote} then 0 else ${money.paid} end)::float8`,
      open: sql<number>`(case when ${invoices.is_creditnote} then 0 else ${money.open} end)::float8`,
      linked: sql<string | null>`(select li.number from ${invoices} li where li.id = ${invoices.linked_invoice_id})`,
      email_timestamp: invoices.email_timestamp,
    })
    .from(invoices)
    .innerJoin(documentTypes, eq(documentTypes.id, invoices.document_type_id))
    .where(and(eq(invoices.contract_id, contractId), isNotNull(invoices.number)))
    .orderBy(asc(invoices.number));
  for (const r of rows) yield INVOICE_DETAIL_COLUMNS.map((c) => r[c.field]);
}
