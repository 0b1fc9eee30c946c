import { PassThrough, type Writable } from 'node:stream';
import { once } from 'node:events';
import type { Response } from 'express';
import archiver from 'archiver';
import type { ColumnDescriptor, ValueFormat } from '@app/contracts';
import { setAttachment } from './download.js';

/** A spreadsheet column: a resource's declared column (its title is the header). */
export type SheetColumn = Pick<ColumnDescriptor, 'field' | 'title' | 'format' | 'labels' | 'width'>;

export interface SheetOptions {
  /** The office's time zone (APP_TIMEZONE): date-times show the wall-clock time staff saw in the app. */
  timeZone?: string;
}

/**
 * Text that starts like a formula (`= + - @`, tab, CR): written as it is, in a cell styled `quotePrefix` (style 5),
 * which spreadsheet programs keep as text when the cell is edited, as a typed leading apostrophe does, without
 * showing an apostrophe or changing the value (a phone number "+49 …" exported and imported again stays itself).
 * The cell is an inline string, so it is never read as a formula when the file opens.
 */
const FORMULA_LIKE = /^[=+\-@\t\r]/;

/** XML 1.0 cannot hold most control characters or a lone surrogate: they are left out, the rest escaped. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * Anything xmlText would change: one scan of the text, so that the common plain text (nearly every name and
 * number in an export) is used as it is, without the two scans and the copies of cleaning and escaping.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_WORK = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
function xmlText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Days since 1899-12-30: a spreadsheet's date serial. */
const DAY_MS = 86_400_000;
const EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * The offset of a time zone at an instant, cached per half hour (offsets change on the hour or half hour, and
 * an export's timestamps cluster): Intl is far too slow to ask once per cell.
 */
function zoneOffsets(timeZone: string): (ms: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const cache = new Map<number, number>();
  return (ms) => {
    const slot = Math.floor(ms / 1_800_000);
    let offset = cache.get(slot);
    if (offset === undefined) {
      const at = slot * 1_800_000;
      const p = Object.fromEntries(format.formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]));
      offset = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
      cache.set(slot, offset);
    }
    return offset;
  };
}

/** The cell styles (`s`) of styles.xml: 0 plain, 1 bold header, 2 date, 3 date-time, 4 money, 5 text kept as text. */
const STYLES_XML =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<numFmts count="3"><numFmt numFmtId="164" formatCode="dd-mm-yyyy"/><numFmt numFmtId="165" formatCode="dd-mm-yyyy hh:mm"/>' +
  '<numFmt numFmtId="166" formatCode="&quot;€&quot; #,##0.00"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of the package around its worksheets (`xl/worksheets/sheet{n}.xml`, in the order of the names). */
function packageParts(sheetNames: readonly string[]): [string, string][] {
  const sheets = sheetNames.map((name, k) => ({ name: xmlText(name.slice(0, 31)), n: k + 1 }));
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        sheets.map(({ n }) => `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}">` +
        `<sheets>${sheets.map(({ name, n }) => `<sheet name="${name}" sheetId="${n}" r:id="rId${n}"/>`).join('')}</sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        sheets.map(({ n }) => `<Relationship Id="rId${n}" Type="${REL}/worksheet" Target="worksheets/sheet${n}.xml"/>`).join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', STYLES_XML],
  ];
}

/** A, B, …, Z, AA, …: the letters of a column number (1-based). */
function columnLetters(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/**
 * Writes to a stream, waiting when it asks to (backpressure), so a slow client never fills memory; a client
 * that went away aborts the wait, so the rows' cursor is closed rather than held forever.
 */
async function write(stream: Writable, chunk: string, signal: AbortSignal): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain', { signal });
}

const EDGE_SPACE = /^\s|\s$/;

/** A column's values named by words (semester 0: "Whole year") written as those words; the others by the column's format. */
function labelled(labels: Readonly<Record<string, string>> | undefined, writer: CellWriter): CellWriter {
  if (!labels) return writer;
  const asText = cellWriter('text', () => 0);
  return (ref, value) => {
    const label = labels[String(value)];
    return label === undefined ? writer(ref, value) : asText(ref, label);
  };
}

/** Writes one cell of a value (never null or empty) as XML, or nothing when the value is not of its format. */
type CellWriter = (ref: string, value: unknown) => string;

/**
 * The cell writer of a column's declared format, chosen once per column rather than once per cell: a cell is
 * written 1.7 million times in an export of 100k contracts.
 */
function cellWriter(format: ValueFormat | undefined, offsetAt: (ms: number) => number): CellWriter {
  switch (format) {
    case 'money':
    case 'number': {
      const style = format === 'money' ? ' s="4"' : '';
      return (ref, value) => {
        const n = typeof value === 'number' ? value : Number(value);
        return Number.isFinite(n) ? `<c r="${ref}"${style}><v>${n}</v></c>` : '';
      };
    }
    case 'date':
      return (ref, value) => {
        // A calendar date: its serial is whole days, so no time zone moves it to another day.
        const day = Date.parse(`${String(value).slice(0, 10)}T00:00:00Z`);
        return Number.isNaN(day) ? '' : `<c r="${ref}" s="2"><v>${(day - EPOCH_MS) / DAY_MS}</v></c>`;
      };
    case 'datetime':
      return (ref, value) => {
        const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
        return Number.isNaN(ms) ? '' : `<c r="${ref}" s="3"><v>${(ms + offsetAt(ms) - EPOCH_MS) / DAY_MS}</v></c>`;
      };
    case 'bool':
      return (ref, value) => `<c r="${ref}" t="inlineStr"><is><t>${value ? 'Yes' : 'No'}</t></is></c>`;
    default:
      return (ref, value) => {
        const raw = String(value);
        const text = xmlText(raw);
        // Spreadsheet programs drop leading and trailing spaces unless told to keep them (XlsxWriter's rule);
        // telling it on every cell was 10 MB of the 70 MB of XML of an export of 100k contracts.
        const space = EDGE_SPACE.test(text) ? ' xml:space="preserve"' : '';
        return `<c r="${ref}"${FORMULA_LIKE.test(raw) ? ' s="5"' : ''} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
      };
  }
}

/**
 * The XML written to the stream at a time (about 80 rows of contracts). Writing flattens the chunk into one
 * string: up to 48 Ki characters (96 kB even when two bytes each, under V8's 128 kB limit of an ordinary object)
 * it is an ordinary young object that dies at the next collection. Chunks of 500 rows (≈ 300 kB) were large
 * objects, promoted whole when a young collection found one alive: an export of 100k contracts left ≈ 17 MB of
 * them in old space (decision 026).
 */
const CHUNK_CHARS = 48 * 1024;

/**
 * Writes one worksheet's rows (arrays of values in the order of the columns) as XML, cell by cell from the
 * declared formats: text as inline strings (made
 * formula-safe), numbers and money as numbers, dates as date serials with a date format, yes/no as text.
 * Rows are written in chunks of up to CHUNK_CHARS characters to keep the number of stream writes small.
 */
async function writeSheet(
  out: PassThrough,
  columns: readonly SheetColumn[],
  rows: AsyncIterable<readonly unknown[]>,
  options: SheetOptions,
  signal: AbortSignal,
) {
  const offsetAt = options.timeZone ? zoneOffsets(options.timeZone) : () => 0;
  const letters = columns.map((_, i) => columnLetters(i + 1));
  const cols = columns
    .map((c, i) => {
      // Overview widths are pixels; a spreadsheet counts characters (about 7 px each).
      const width = c.width ? Math.round(c.width / 7) : c.format === 'datetime' ? 18 : c.format === 'date' ? 12 : 20;
      return `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`;
    })
    .join('');
  const header = columns.map((c, i) => `<c r="${letters[i]}1" t="inlineStr" s="1"><is><t>${xmlText(c.title)}</t></is></c>`).join('');
  await write(
    out,
    `${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<cols>${cols}</cols><sheetData><row r="1">${header}</row>`,
    signal,
  );

  const cells = columns.map((c) => labelled(c.labels, cellWriter(c.format, offsetAt)));

  let n = 1;
  let chunk = '';
  for await (const row of rows) {
    n += 1;
    let xml = `<row r="${n}">`;
    for (let i = 0; i < cells.length; i++) {
      const value = row[i];
      if (value !== null && value !== undefined && value !== '') xml += cells[i]!(letters[i]! + n, value);
    }
    chunk += `${xml}</row>`;
    if (chunk.length >= CHUNK_CHARS) {
      await write(out, chunk, signal);
      chunk = '';
    }
  }
  await write(out, `${chunk}</sheetData></worksheet>`, signal);
  out.end();
}

/** One worksheet of a workbook: its name, columns and rows (arrays of values in the order of the columns). */
export interface Sheet {
  name: string;
  columns: readonly SheetColumn[];
  rows: AsyncIterable<readonly unknown[]>;
}

/**
 * Streams rows into an xlsx download as they arrive: the worksheet XML is written by hand (a few string
 * templates per cell) into a zip stream with backpressure to the response, so memory stays flat and 100k rows
 * take seconds (decision 014: exceljs's streaming writer managed a third of the speed).
 */
export async function sendXlsx(
  res: Response,
  filename: string,
  sheetName: string,
  columns: readonly SheetColumn[],
  rows: AsyncIterable<readonly unknown[]>,
  options: SheetOptions = {},
): Promise<void> {
  await sendWorkbook(res, filename, [{ name: sheetName, columns, rows }], options);
}

/** sendXlsx of several worksheets, written one after the other: a sheet's rows are read once the one before is done. */
export async function sendWorkbook(res: Response, filename: string, sheets: readonly Sheet[], options: SheetOptions = {}): Promise<void> {
  res.status(200);
  setAttachment(res, filename);
  res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  await writeWorkbook(res, sheets, options);
}

/** The xlsx file itself, written to any stream (the response, a file). */
export async function writeXlsx(
  target: Writable,
  sheetName: string,
  columns: readonly SheetColumn[],
  rows: AsyncIterable<readonly unknown[]>,
  options: SheetOptions = {},
): Promise<void> {
  await writeWorkbook(target, [{ name: sheetName, columns, rows }], options);
}

/** writeXlsx of several worksheets, in order. */
export async function writeWorkbook(target: Writable, sheets: readonly Sheet[], options: SheetOptions = {}): Promise<void> {
  // Level 1: the XML is repetitive enough that faster compression costs little size.
  const zip = archiver('zip', { zlib: { level: 1 } });
  const gone = new AbortController();
  const finished = new Promise<void>((resolve, reject) => {
    target.once('finish', resolve);
    target.once('close', () => {
      gone.abort();
      resolve();
    });
    target.once('error', reject);
    zip.once('error', reject);
  });
  zip.pipe(target);
  for (const [name, content] of packageParts(sheets.map((s) => s.name))) zip.append(content, { name });
  for (const [k, { columns, rows }] of sheets.entries()) {
    const sheet = new PassThrough({ highWaterMark: 256 * 1024 });
    zip.append(sheet, { name: `xl/worksheets/sheet${k + 1}.xml` });
    try {
      await writeSheet(sheet, columns, rows, options, gone.signal);
    } catch (err) {
      // The client went away, or reading the rows failed: end the file here; its own error is the one to report.
      finished.catch(() => undefined);
      sheet.destroy();
      zip.abort();
      throw err;
    }
  }
  await zip.finalize();
  await finished;
}
