import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, normaliseText, type ImportColumn } from '@app/contracts';
import type { ImportRow } from '../actions/types.js';
import { readZip, XLSX_LIMITS } from './zip.js';

const refuse = (text: string) => new AppError('BAD_REQUEST', `file: ${text}`, { file: [text] });

/** "E-mail", "e_mail", "EMAIL" → "email": headers are matched without case, spaces or punctuation. */
const headerKey = (text: string) => normaliseText(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Two-digit helper for dates. */
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cell as text: dates as YYYY-MM-DD, hyperlinks and formulas by what they show, empty as null. A number shown
 * with leading zeros (format `00000`, as a zip code or phone number typed into a number cell is) keeps them.
 */
export function cellText(value: ExcelJS.CellValue, numFmt?: string): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  if (typeof value === 'object') {
    if ('richText' in value) return cellText(value.richText.map((r) => r.text).join(''));
    if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue, numFmt);
    if ('error' in value) return null;
    return null;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && numFmt && /^0+$/.test(numFmt)) {
    return String(value).padStart(numFmt.length, '0');
  }
  const text = normaliseText(String(value)).trim();
  return text === '' ? null : text;
}

/** The rows of a sheet, and its columns that are not imported as the preview names them (`"Notes"`, `column G (no header)`). */
export interface SheetRows {
  rows: ImportRow[];
  ignored: string[];
}

/**
 * Reads the first sheet of an .xlsx into rows by the declared columns. The file is checked as a zip first (an
 * xlsx is one: the zip rules and limits apply) and recognised from its content; the header row must name every
 * required column (by its title, key or an alias, in any order) and no column twice; the headers of other columns
 * are answered, so the preview can say they are not imported. `source` prefixes the rows' references when the
 * sheet came out of a zip.
 */
export async function readSheet(buffer: Buffer, columns: readonly ImportColumn[], source?: string): Promise<SheetRows> {
  const where = source ? `"${source}": ` : '';
  const kind = await fileTypeFromBuffer(buffer).catch(() => undefined);
  if (kind?.ext !== 'xlsx') throw refuse(`${where}not an Excel (.xlsx) file by its content`);
  // Checked for links, bombs, names and size before exceljs inflates it.
  await readZip(buffer, () => false, XLSX_LIMITS);
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw refuse(`${where}the Excel file cannot be read`);
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw refuse(`${where}the Excel file has no sheet`);
  const columnOf = new Map<string, ImportColumn>();
  for (const c of columns) for (const name of [c.title, c.key, ...(c.aliases ?? [])]) columnOf.set(headerKey(name), c);
  const positions = new Map<string, number>();
  const ignored: string[] = [];
  const headed = new Set<number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const text = cellText(cell.value);
    if (!text) return;
    headed.add(col);
    const column = columnOf.get(headerKey(text));
    if (!column) {
      ignored.push(`"${text}"`);
      return;
    }
    const first = positions.get(column.key);
    // Two columns for one field: which one is meant cannot be told, and one of them would be lost.
    if (first !== undefined) {
      throw refuse(`${where}the header row has ${column.title} twice (columns ${sheet.getColumn(first).letter} and ${sheet.getColumn(col).letter}): keep one`);
    }
    positions.set(column.key, col);
  });
  const missing = columns.filter((c) => c.required && !positions.has(c.key)).map((c) => c.title);
  if (missing.length > 0) throw refuse(`${where}the header row lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  const rows: ImportRow[] = [];
  // Values typed in a column whose header is missing are not imported: the preview names the column.
  const headless = new Set<number>();
  // Only the rows the file holds (decision 053): one cell typed in row 1,048,576 makes `rowCount` a million, and
  // asking for each row up to it made a million rows in memory and stopped the server.
  sheet.eachRow((row, r) => {
    if (r === 1) return;
    row.eachCell((cell, col) => {
      if (!headed.has(col) && cellText(cell.value) !== null) headless.add(col);
    });
    const values: Record<string, string | null> = {};
    for (const c of columns) {
      const col = positions.get(c.key);
      const cell = col === undefined ? undefined : row.getCell(col);
      values[c.key] = cell === undefined ? null : cellText(cell.value, cell.numFmt);
    }
    // Blank rows (formatting left below the data) are not rows.
    if (Object.values(values).every((v) => v === null)) return;
    rows.push({ reference: `${source ? `${source} ` : ''}row ${r}`, values });
  });
  for (const col of [...headless].sort((a, b) => a - b)) ignored.push(`column ${sheet.getColumn(col).letter} (no header)`);
  return { rows, ignored };
}

/** The preview's note on the columns a sheet has that are not imported, if any. */
export function ignoredColumnsNote(ignored: readonly string[]): string[] {
  return ignored.length === 0 ? [] : [`Not imported: the column${ignored.length === 1 ? '' : 's'} ${ignored.join(', ')}`];
}

/**
 * Refuses the later of two rows of one file that would change the same record, when `conflict` says why: decided
 * as the file is read, so the preview (which tries each row on its own) says what the import will do. `keyOf`
 * names the record a row would change (undefined: none).
 */
export function refuseRepeats(
  rows: readonly ImportRow[],
  keyOf: (row: ImportRow) => string | undefined,
  conflict: (earlier: ImportRow, row: ImportRow) => string | undefined,
): ImportRow[] {
  const first = new Map<string, ImportRow>();
  return rows.map((row) => {
    const key = row.refusal ? undefined : keyOf(row);
    if (key === undefined) return row;
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, row);
      return row;
    }
    const why = conflict(earlier, row);
    return why ? { ...row, refusal: why } : row;
  });
}
