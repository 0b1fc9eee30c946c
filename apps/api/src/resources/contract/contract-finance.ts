import type { Response } from 'express';
import { AppError, contractFinanceActions, contractResource, formatDate, todayIn } from '@app/contracts';
import type { DbOrTx } from '@app/db';
import { listAction, recordAction, type ActionImpl } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import type { CrudService } from '../../lib/crud/crud-service.js';
import { filterQueryOf } from '../../lib/crud/list-query.js';
import { cursorBatches } from '../../lib/cursor.js';
import { sendWorkbook, sendXlsx, type SheetColumn } from '../../lib/files/xlsx.js';
import { academicYearOf, contractBalances, contractBalancesQuery, periodEntries, statusLines, statusLinesQuery, type StatusLine } from '../../lib/invoicing/status.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';
import { renderPdf } from '../../lib/templates/pdf.js';

/**
 * Contract finance (issue 14 point 5, issue 18 point 3; decision 021): payment status files and exports, all
 * from lib/invoicing/status.ts (one definition of invoiced, credited, paid and open). The list exports take
 * the overview's filter or selection like Export report, find the contracts through the contract service and
 * stream their rows, a chunk of contracts at a time.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The participation fee (decision 018): its status is that of its invoices. */
const PARTICIPATION_FEE = [5];
const CHUNK = 500;

const lineColumns: SheetColumn[] = [
  { field: 'contract', title: 'Contract' },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'number', title: 'Invoice Number' },
  { field: 'document_type', title: 'Document Type' },
  { field: 'description', title: 'Description', width: 220 },
  { field: 'invoice_date', title: 'Date', format: 'date' },
  { field: 'due_date', title: 'Due Date', format: 'date' },
  { field: 'amount', title: 'Invoiced', format: 'money' },
  { field: 'credited', title: 'Credited', format: 'money' },
  { field: 'paid', title: 'Paid', format: 'money' },
  { field: 'open', title: 'Open', format: 'money' },
  { field: 'expired', title: 'Expired', format: 'bool' },
];

// "Invoiced" on the contract screen and in Contracts.xlsx is net of credit notes; here the credit notes have a
// column of their own, so the invoices are counted before them, and the title says so.
const balanceColumns: SheetColumn[] = [
  { field: 'contract', title: 'Contract' },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'invoiced', title: 'Invoiced (before credit notes)', format: 'money' },
  { field: 'credited', title: 'Credited', format: 'money' },
  { field: 'paid', title: 'Paid', format: 'money' },
  { field: 'open', title: 'Open', format: 'money' },
];

const entryColumns: SheetColumn[] = [
  { field: 'contract', title: 'Contract' },
  { field: 'student_name', title: 'Student Name', width: 180 },
  { field: 'kind', title: 'Kind' },
  { field: 'number', title: 'Number' },
  { field: 'date', title: 'Date', format: 'date' },
  { field: 'description', title: 'Description', width: 260 },
  { field: 'amount', title: 'Amount', format: 'money' },
];

const rowOf = (columns: readonly SheetColumn[], r: object): unknown[] => columns.map((c) => (r as Record<string, unknown>)[c.field] ?? null);

/**
 * The rows of a statement as the sheet's columns, read through a cursor: one statement for every contract of the
 * export (a statement per 500 contracts took 51 s for 100k, one 20 s), and memory flat.
 */
async function* sheetRows(ctx: AppContext, query: { toSQL(): { sql: string; params: unknown[] }; _: { selectedFields: object } }, columns: readonly SheetColumn[]): AsyncGenerator<unknown[]> {
  const fields = Object.keys(query._.selectedFields);
  const at = columns.map((c) => fields.indexOf(c.field));
  const { sql: text, params } = query.toSQL();
  for await (const batch of cursorBatches(ctx.db.$client, text, params)) for (const row of batch) yield at.map((k) => row[k]);
}

/**
 * The contracts of a list export: the overview's filter, checked at once (a wrong filter is a 400 before the export
 * is recorded in the log or its file begun), and the selection if there is one.
 */
function selectionOf(input: { ids?: number[] | undefined; filter?: Record<string, string | number | boolean> | undefined }) {
  return { query: filterQueryOf(contractResource, input.filter), ids: input.ids && input.ids.length > 0 ? input.ids : undefined };
}

/** Every contract id of the selection (or the overview's filter), in the overview's order. */
async function contractIdsOf(service: CrudService, selection: ReturnType<typeof selectionOf>): Promise<number[]> {
  const ids: number[] = [];
  for await (const [id] of service.iterate(selection.query, ['id'], selection.ids)) ids.push(Number(id));
  return ids;
}

async function* rowsOf<T extends object>(chunks: Iterable<number[]>, read: (ids: number[]) => Promise<T[]>, columns: readonly SheetColumn[]): AsyncGenerator<unknown[]> {
  for await (const ids of chunks) for (const r of await read(ids)) yield rowOf(columns, r);
}

/**
 * One contract's status as a PDF letter, from the template `payment_status_pdf` (DESIGN §7: every text printed is
 * a template): a line per invoice with what is open, expired ones marked, and the totals, summed in cents.
 */
async function statusPdf(ctx: AppContext, db: DbOrTx, contractId: number, date: string, lines: StatusLine[]): Promise<Buffer> {
  const sum = (field: 'amount' | 'credited' | 'paid' | 'open') => lines.reduce((cents, l) => cents + Math.round(l[field] * 100), 0) / 100;
  return renderPdf({ db, env: ctx.env }, 'payment_status_pdf', {
    ...(await contractTemplateData(db, contractId)),
    status: {
      date,
      lines: lines.map((l) => ({
        number: l.number,
        date: l.invoice_date,
        due_date: l.due_date,
        description: l.description,
        invoiced: l.amount,
        credited: l.credited,
        paid: l.paid,
        open: l.open,
        expired: l.expired,
        paid_before_invoiced: l.invoice_date > date,
      })),
      invoiced: sum('amount'),
      credited: sum('credited'),
      paid: sum('paid'),
      open: sum('open'),
    },
  });
}

/** A sheet's name that says the day its figures are as of (a file saved and opened later still tells). */
const asOfSheet = (name: string, date: string) => `${name} as of ${formatDate(date)}`;

/** One contract's status lines as an xlsx file, written when the answer is sent. */
const linesXlsx = (filename: string, date: string, lines: StatusLine[], timeZone: string) => ({
  filename,
  contentType: XLSX,
  write: (res: Response) =>
    sendXlsx(
      res,
      filename,
      asOfSheet('Payment status', date),
      lineColumns,
      (async function* () {
        for (const l of lines) yield rowOf(lineColumns, l);
      })(),
      { timeZone },
    ),
});

export function contractFinanceImpls(ctx: AppContext): [string, ActionImpl][] {
  const today = () => todayIn(ctx.env.APP_TIMEZONE);
  const timeZone = ctx.env.APP_TIMEZONE;
  const a = contractFinanceActions;
  return [
    recordAction(a.downloadPaymentStatus, async (tx, _actor, { id, row }, input) => {
      const date = input.date ?? today();
      const lines = await statusLines(tx, [id], date);
      const base = `Payment_Status_${String(row.application_number)}_${date}`;
      if (input.format === 'xlsx') return { eventType: 'export', message: `"${base}.xlsx"`, file: linesXlsx(`${base}.xlsx`, date, lines, timeZone) };
      const pdf = await statusPdf(ctx, tx, id, date, lines);
      return { eventType: 'export', message: `"${base}.pdf"`, file: { filename: `${base}.pdf`, contentType: 'application/pdf', content: pdf } };
    }),
    recordAction(a.downloadPfPaymentStatus, async (tx, _actor, { id, row }, input) => {
      const date = input.date ?? today();
      const lines = await statusLines(tx, [id], date, PARTICIPATION_FEE);
      const filename = `PF_Payment_Status_${String(row.application_number)}_${date}.xlsx`;
      return { eventType: 'export', message: `"${filename}"`, file: linesXlsx(filename, date, lines, timeZone) };
    }),
    listAction(a.downloadPaymentStatusList, async (db, _actor, input, { service }) => {
      const selection = selectionOf(input);
      const date = input.date ?? today();
      const filename = `Payment_Status_${date}.xlsx`;
      const write = async (res: Response) => {
        const rows = sheetRows(ctx, statusLinesQuery(db, await contractIdsOf(service, selection), date), lineColumns);
        await sendXlsx(res, filename, asOfSheet('Payment status', date), lineColumns, rows, { timeZone });
      };
      return { eventType: 'export', message: `Exported ${filename}`, file: { filename, contentType: XLSX, write } };
    }),
    listAction(a.downloadBalance, async (db, _actor, input, { service }) => {
      const selection = selectionOf(input);
      const date = input.date ?? today();
      const filename = `Balance_${date}.xlsx`;
      const write = async (res: Response) => {
        const rows = sheetRows(ctx, contractBalancesQuery(db, await contractIdsOf(service, selection), date), balanceColumns);
        await sendXlsx(res, filename, asOfSheet('Balance', date), balanceColumns, rows, { timeZone });
      };
      return { eventType: 'export', message: `Exported ${filename}`, file: { filename, contentType: XLSX, write } };
    }),
    // The open invoices by due date, expired (earliest due) first, across the filtered contracts: sorted by
    // PostgreSQL and streamed through a cursor (collected and sorted here, 100k contracts held 450 MB).
    listAction(a.downloadPaymentsDue, async (db, _actor, input, { service }) => {
      const selection = selectionOf(input);
      const date = today();
      const filename = 'Payments_Due.xlsx';
      const columns = [
        { field: 'due_date', title: 'Due Date', format: 'date' },
        { field: 'expired', title: 'Expired', format: 'bool' },
        ...lineColumns.filter((c) => c.field !== 'due_date' && c.field !== 'expired'),
        // The contract's balance beside the invoice's: a credit on the contract (decision 036) covers part of it.
        { field: 'contract_open', title: 'Contract owes', format: 'money' },
      ] satisfies SheetColumn[];
      const write = async (res: Response) => {
        const rows = sheetRows(ctx, statusLinesQuery(db, await contractIdsOf(service, selection), date, { openOnly: true, byDue: true }), columns);
        await sendXlsx(res, filename, asOfSheet('Payments due', date), columns, rows, { timeZone });
      };
      return { eventType: 'export', message: `Exported ${filename}`, file: { filename, contentType: XLSX, write } };
    }),
    // Two sheets over the same contracts, written one after the other, both read in one snapshot: the documents
    // and payments of sheet two are those behind sheet one's figures. Built whole in memory with exceljs, 100k
    // contracts took 1.4 GB.
    listAction(a.downloadPaymentStatusPeriod, async (_db, _actor, input, { service }) => {
      const selection = selectionOf(input);
      const year = academicYearOf(today());
      const from = input.from ?? year.from;
      const until = input.until ?? year.until;
      if (from > until) throw new AppError('BAD_REQUEST', 'Invalid input: from', { from: [`From (${from}) must not be after until (${until})`] });
      const filename = `Payment_Status_${from}_${until}.xlsx`;
      const summaryColumns: SheetColumn[] = [...balanceColumns, { field: 'balance', title: 'Balance at end', format: 'money' }];
      return {
        eventType: 'export',
        message: `Exported ${filename}`,
        file: {
          filename,
          contentType: XLSX,
          write: async (res) => {
            const ids = await contractIdsOf(service, selection);
            const chunks = Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, k) => ids.slice(k * CHUNK, (k + 1) * CHUNK));
            await ctx.db.transaction(
              (tx) =>
                sendWorkbook(
                  res,
                  filename,
                  [
                    { name: 'Contracts', columns: summaryColumns, rows: rowsOf(chunks, (ids) => contractBalances(tx, ids, { from, until }), summaryColumns) },
                    { name: 'Documents and payments', columns: entryColumns, rows: rowsOf(chunks, (ids) => periodEntries(tx, ids, from, until), entryColumns) },
                  ],
                  { timeZone },
                ),
              { isolationLevel: 'repeatable read', accessMode: 'read only' },
            );
          },
        },
      };
    }),
  ];
}
