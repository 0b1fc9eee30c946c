import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, normaliseText, type ImportColumn } from '@app/contracts';
import type { ImportRow } from '../actions/types.js';
import { readZip } from './zip.js';

const refuse = (text: string) => new AppError('BAD_REQUEST', `file: ${text}`, { file: [text] });

/** "E-mail", "e_mail", "EMAIL" → "email": headers are matched without case, spaces or punctuation. */
const headerKey = (text: string) => normaliseText(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Two-digit helper for dates. */
const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as text: dates as YYYY-MM-DD, hyperlinks and formulas by what they show, empty as null. */
export function cellText(value: ExcelJS.CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  if (typeof value === 'object') {
    if ('richText' in value) return cellText(value.richText.map((r) => r.text).join(''));
    if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('error' in value) return null;
    return null;
  }
  const text = normaliseText(String(value)).trim();
  return text === '' ? null : text;
}

/**
 * Reads the first sheet of an .xlsx into rows by the declared columns. The file is checked as a zip first (an
 * xlsx is one: the zip rules and limits apply) and recognised from its content; the header row must name every
 * required column (by its title or key, in any order); other columns are ignored. `source` prefixes the rows'
 * references when the sheet came out of a zip.
 */
export async function readSheet(buffer: Buffer, columns: readonly ImportColumn[], source?: string): Promise<ImportRow[]> {
  const where = source ? `"${source}": ` : '';
  const kind = await fileTypeFromBuffer(buffer).catch(() => undefined);
  if (kind?.ext !== 'xlsx') throw refuse(`${where}not an Excel (.xlsx) file by its content`);
  // Checked for links, bombs and names before exceljs inflates it.
  await readZip(buffer, () => false);
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw refuse(`${where}the Excel file cannot be read`);
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw refuse(`${where}the Excel file has no sheet`);
  const header = sheet.getRow(1);
  const byHeader = new Map<string, number>();
  header.eachCell((cell, col) => {
    const text = cellText(cell.value);
    if (text) byHeader.set(headerKey(text), col);
  });
  const positions = new Map<string, number>();
  for (const c of columns) {
    const col = byHeader.get(headerKey(c.title)) ?? byHeader.get(headerKey(c.key));
    if (col !== undefined) positions.set(c.key, col);
  }
  const missing = columns.filter((c) => c.required && !positions.has(c.key)).map((c) => c.title);
  if (missing.length > 0) throw refuse(`${where}the header row lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
  const rows: ImportRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const values: Record<string, string | null> = {};
    for (const c of columns) {
      const col = positions.get(c.key);
      values[c.key] = col === undefined ? null : cellText(row.getCell(col).value);
    }
    // Blank rows (formatting left below the data) are not rows.
    if (Object.values(values).every((v) => v === null)) continue;
    rows.push({ reference: `${source ? `${source} ` : ''}row ${r}`, values });
  }
  return rows;
}
