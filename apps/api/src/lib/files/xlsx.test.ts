import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { unzip } from '../../test/zip.js';
import { writeWorkbook, writeXlsx, type SheetColumn } from './xlsx.js';

const columns: SheetColumn[] = [
  { field: 'name', title: 'Name & "Title"', width: 140 },
  { field: 'amount', title: 'Amount', format: 'money' },
  { field: 'count', title: 'Count', format: 'number' },
  { field: 'day', title: 'Day', format: 'date' },
  { field: 'at', title: 'At', format: 'datetime' },
  { field: 'ok', title: 'OK', format: 'bool' },
];

async function* from<T>(rows: T[]): AsyncGenerator<T> {
  for (const row of rows) yield row;
}

async function written(rows: Record<string, unknown>[], timeZone?: string): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsx(out, 'Contracts', columns, from(rows.map((r) => columns.map((c) => r[c.field]))), { timeZone });
  return Buffer.concat(chunks);
}

async function read(file: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  return book.worksheets[0]!;
}

describe('the streaming xlsx writer (read back with exceljs)', () => {
  it('writes several worksheets in order, each with its own columns and rows', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const read: string[] = [];
    async function* tracked(name: string, rows: unknown[][]): AsyncGenerator<unknown[]> {
      for (const row of rows) {
        read.push(name);
        yield row;
      }
    }
    await writeWorkbook(out, [
      { name: 'Contracts', columns: [{ field: 'c', title: 'Contract' }, { field: 'open', title: 'Open', format: 'money' }], rows: tracked('one', [['A1', '10.50'], ['A2', '0']]) },
      { name: 'Documents and payments', columns: [{ field: 'n', title: 'Number' }], rows: tracked('two', [['2026-00001'], ['P2026-00001'], ['CN-2026-00001']]) },
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Contracts', 'Documents and payments']);
    const values = (w: ExcelJS.Worksheet) => w.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
    expect(values(book.worksheets[0]!)).toEqual([['Contract', 'Open'], ['A1', 10.5], ['A2', 0]]);
    expect(values(book.worksheets[1]!)).toEqual([['Number'], ['2026-00001'], ['P2026-00001'], ['CN-2026-00001']]);
    // The second sheet's rows are read only once the first is written.
    expect(read).toEqual(['one', 'one', 'two', 'two', 'two']);
  });

  it('writes the header bold and frozen, and each value with its declared format', async () => {
    const sheet = await read(
      await written([
        { name: 'Müller <b>&amp;', amount: '1234.56', count: 7, day: '2025-03-30', at: new Date('2025-01-15T09:30:00Z'), ok: true },
        { name: null, amount: null, count: 0, day: null, at: null, ok: false },
      ]),
    );
    expect(sheet.name).toBe('Contracts');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name & "Title"', 'Amount', 'Count', 'Day', 'At', 'OK']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(1).width).toBe(20);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('Müller <b>&amp;');
    expect(first.getCell(2).value).toBe(1234.56);
    expect(first.getCell(2).numFmt).toBe('"€" #,##0.00');
    expect(first.getCell(3).value).toBe(7);
    expect(first.getCell(4).value).toEqual(new Date('2025-03-30T00:00:00Z'));
    expect(first.getCell(4).numFmt).toBe('dd-mm-yyyy');
    expect(first.getCell(5).value).toEqual(new Date('2025-01-15T09:30:00Z'));
    expect(first.getCell(5).numFmt).toBe('dd-mm-yyyy hh:mm');
    expect(first.getCell(6).value).toBe('Yes');
    const second = sheet.getRow(3);
    expect([1, 2, 4, 5].map((i) => second.getCell(i).value)).toEqual([null, null, null, null]);
    expect(second.getCell(3).value).toBe(0);
    expect(second.getCell(6).value).toBe('No');
  });

  it('shows date-times at the office clock, summer and winter', async () => {
    const sheet = await read(
      await written(
        [{ at: new Date('2025-01-15T09:30:00Z') }, { at: new Date('2025-07-15T09:30:00Z') }, { at: '2025-03-30T01:30:00Z' }],
        'Europe/Berlin',
      ),
    );
    // exceljs reads a serial as if it were UTC: the wall-clock time is what it shows.
    expect(sheet.getRow(2).getCell(5).value).toEqual(new Date('2025-01-15T10:30:00Z'));
    expect(sheet.getRow(3).getCell(5).value).toEqual(new Date('2025-07-15T11:30:00Z'));
    // Half an hour before the switch to summer time, then an hour after it.
    expect(sheet.getRow(4).getCell(5).value).toEqual(new Date('2025-03-30T03:30:00Z'));
  });

  it('keeps text that looks like a formula as text, and leaves out what XML cannot hold', async () => {
    const sheet = await read(
      await written([{ name: '=HYPERLINK("http://x","y")' }, { name: '+1' }, { name: 'a\u0000b\u0007c\uD800d' }, { name: 'Ωmega 🎓 \u202Eright' }, { name: '  spaced  ' }]),
    );
    expect([2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(1).value)).toEqual([
      '=HYPERLINK("http://x","y")',
      '+1',
      'abcd',
      'Ωmega 🎓 \u202Eright',
      '  spaced  ',
    ]);
    expect(sheet.getRow(2).getCell(1).formula).toBeUndefined();
  });

  it('marks formula-like text as text (quotePrefix) in the file itself: an inline string in a quote-prefixed style', async () => {
    const parts = new Map((await unzip(await written([{ name: '=SUM(A1)' }, { name: '-50 discount' }, { name: 'plain' }]))).map((e) => [e.name, e.data.toString('utf8')]));
    const styles = [...parts.get('xl/styles.xml')!.matchAll(/<xf [^>]*\/>/g)].map((m) => m[0]).slice(1);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    const styleOf = (text: string) => new RegExp(`<c r="A\\d+"(?: s="(\\d+)")? t="inlineStr"><is><t>${text}</t>`).exec(sheet)?.[1];
    expect(styles[Number(styleOf('=SUM\\(A1\\)'))]).toContain('quotePrefix="1"');
    expect(styles[Number(styleOf('-50 discount'))]).toContain('quotePrefix="1"');
    expect(styleOf('plain')).toBeUndefined();
  });

  it('writes every row of a large list, in order', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ name: `Row ${i}`, count: i, amount: (i / 100).toFixed(2) }));
    const sheet = await read(await written(rows));
    expect(sheet.rowCount).toBe(5001);
    expect(sheet.getRow(5001).getCell(1).value).toBe('Row 4999');
    expect(sheet.getRow(5001).getCell(2).value).toBe(49.99);
    expect(sheet.getRow(2501).getCell(3).value).toBe(2499);
  });

  it('stops reading rows and ends when the client goes away mid-download', async () => {
    let produced = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<unknown[]> {
      try {
        for (;;) {
          produced++;
          yield [`Row ${produced} ${'x'.repeat(200)}`, null, produced];
        }
      } finally {
        closed = true;
      }
    }
    let received = 0;
    const client = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, done) {
        received += chunk.length;
        // The client hangs up after 64 kB.
        if (received > 64 * 1024) this.destroy();
        done();
      },
    });
    await writeXlsx(client, 'Rows', columns, endless()).catch(() => undefined);
    expect(closed).toBe(true);
    // Backpressure held the reading to what the pipes buffer, far short of an endless list.
    expect(produced).toBeLessThan(50_000);
  });
});
