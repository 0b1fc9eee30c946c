import type { Response } from 'express';
import ExcelJS from 'exceljs';
import type { ColumnDescriptor, ValueFormat } from '@app/contracts';

type CellFormat = ValueFormat;

/** A spreadsheet column: a resource's declared column (its title is the header). */
export type SheetColumn = Pick<ColumnDescriptor, 'field' | 'title' | 'format' | 'width'>;

/** Spreadsheet programs run text that starts like a formula; a leading apostrophe keeps it text. */
export function safeText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cellValue(value: unknown, format: CellFormat | undefined): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  switch (format) {
    case 'date':
      // A calendar date: midnight UTC, so no time zone moves it to another day.
      return new Date(`${String(value).slice(0, 10)}T00:00:00Z`);
    case 'datetime':
      return value instanceof Date ? value : new Date(String(value));
    case 'money':
    case 'number':
      return Number(value);
    case 'bool':
      return value ? 'Yes' : 'No';
    default:
      return safeText(String(value));
  }
}

const numFmt: Partial<Record<CellFormat, string>> = {
  date: 'dd-mm-yyyy',
  datetime: 'dd-mm-yyyy hh:mm',
  money: '"€" #,##0.00',
};

/**
 * Streams rows into an xlsx download: the workbook is written to the response as rows arrive
 * (exceljs's streaming writer), so memory stays flat however many rows there are.
 */
export async function sendXlsx(res: Response, filename: string, sheetName: string, columns: SheetColumn[], rows: AsyncIterable<Record<string, unknown>>): Promise<void> {
  res.status(200);
  res.attachment(filename);
  res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.title,
    key: c.field,
    // Overview widths are pixels; a spreadsheet counts characters (about 7 px each).
    width: c.width ? Math.round(c.width / 7) : c.format === 'datetime' ? 18 : c.format === 'date' ? 12 : 20,
    style: numFmt[c.format ?? 'text'] ? { numFmt: numFmt[c.format ?? 'text'] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const row of rows) {
    sheet.addRow(Object.fromEntries(columns.map((c) => [c.field, cellValue(row[c.field], c.format)]))).commit();
  }
  sheet.commit();
  await workbook.commit();
}
