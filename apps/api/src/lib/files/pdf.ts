import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { DocumentText, TableRow } from '../templates/formats.js';

/**
 * The one PDF layout (DESIGN §7, decision 015): an A4 letter with the office's letterhead, the recipient's address
 * block with reference lines beside it, a title, paragraphs, a table of lines with right-aligned amounts, totals,
 * payment instructions in a frame, closing paragraphs, and "page x of y" in every page's footer. The texts come
 * from a document template; the layout decides only where they go.
 *
 * The font is DejaVu Sans from the `dejavu-fonts-ttf` package, embedded (subset) in every PDF, so Ł, ő, Ş, ß
 * and € print the same everywhere and no host font is ever used.
 */

const require = createRequire(import.meta.url);
const fontFile = (name: string) => require.resolve(`dejavu-fonts-ttf/ttf/${name}`);

/**
 * The fonts, parsed once per process: pdfkit takes a parsed fontkit font as it takes a file, and parsing the
 * 700 KB TTF for every document would cost most of a render. Each document still embeds its own subset.
 */
let fonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined;
function loadFonts() {
  const parse = (name: string) => withEveryCharacter(fontkit.create(readFileSync(fontFile(name))) as fontkit.Font);
  fonts ??= { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  return fonts;
}

/**
 * fontkit makes each glyph of a font once, with the characters of the call that first asks for it, and a PDF's text
 * layer (what is copied, searched, read aloud) takes a glyph's characters from there. A document's subset asks for
 * the parts a glyph is built from (Ñ is N and a tilde) with no characters: every later document of the process
 * then drew its N with none, so "Nørgaard" was copied as "ørgaard". Made first from the character map (30 ms,
 * once), every glyph knows its characters.
 */
function withEveryCharacter(font: fontkit.Font): fontkit.Font {
  for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
  return font;
}

/** The sender as the letterhead and footer show it. */
export interface Letterhead {
  name: string;
  address_lines: string[];
  email?: string;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { top: 56, bottom: 64, left: 62, right: 56 };
const CONTENT_WIDTH = A4.width - MARGIN.left - MARGIN.right;
const AMOUNT_WIDTH = 110;
const GREY = '#555555';
const RULE = '#999999';

type Doc = PDFKit.PDFDocument;

function paragraphs(doc: Doc, text: string) {
  if (!text.trim()) return;
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    doc.font('regular').fontSize(10).fillColor('black').text(paragraph.trim(), MARGIN.left, doc.y, { width: CONTENT_WIDTH, lineGap: 2 });
    doc.moveDown(0.7);
  }
}

/** Starts a new page when `height` does not fit above the footer any more. */
function ensureRoom(doc: Doc, height: number) {
  if (doc.y + height > A4.height - MARGIN.bottom) doc.addPage();
}

function letterhead(doc: Doc, office: Letterhead) {
  doc.font('bold').fontSize(16).fillColor('black').text(office.name, MARGIN.left, MARGIN.top, { width: CONTENT_WIDTH * 0.6 });
  const right = MARGIN.left + CONTENT_WIDTH * 0.6;
  doc.font('regular').fontSize(8.5).fillColor(GREY);
  doc.text([...office.address_lines, ...(office.email ? [office.email] : [])].join('\n'), right, MARGIN.top + 2, { width: CONTENT_WIDTH * 0.4, align: 'right' });
  const below = Math.max(doc.y, MARGIN.top + 24) + 8;
  doc.moveTo(MARGIN.left, below).lineTo(A4.width - MARGIN.right, below).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.y = below + 14;
}

function addressAndReferences(doc: Doc, office: Letterhead, text: DocumentText) {
  const top = doc.y;
  const addressWidth = CONTENT_WIDTH * 0.55;
  doc.font('regular').fontSize(7).fillColor(GREY).text([office.name, ...office.address_lines].join(' · '), MARGIN.left, top, { width: addressWidth });
  doc.moveDown(0.4);
  doc.font('regular').fontSize(10).fillColor('black').text(text.address.join('\n'), MARGIN.left, doc.y, { width: addressWidth, lineGap: 1 });
  const addressBottom = doc.y;

  const refLeft = MARGIN.left + CONTENT_WIDTH * 0.6;
  const refWidth = CONTENT_WIDTH * 0.4;
  let y = top;
  for (const ref of text.references) {
    doc.font('regular').fontSize(8.5).fillColor(GREY).text(ref.label, refLeft, y, { width: refWidth * 0.45 });
    const labelBottom = doc.y;
    doc.font('regular').fontSize(8.5).fillColor('black').text(ref.value, refLeft + refWidth * 0.45, y, { width: refWidth * 0.55, align: 'right' });
    y = Math.max(labelBottom, doc.y) + 2;
  }
  doc.y = Math.max(addressBottom, y) + 28;
}

function rowHeight(doc: Doc, row: TableRow, font: 'regular' | 'bold', width: number): number {
  doc.font(font).fontSize(10);
  return Math.max(doc.heightOfString(row.text || ' ', { width: width - AMOUNT_WIDTH - 10 }), doc.heightOfString(row.amount || ' ', { width: AMOUNT_WIDTH }));
}

function tableRow(doc: Doc, row: TableRow, font: 'regular' | 'bold', x = MARGIN.left, width = CONTENT_WIDTH) {
  const height = rowHeight(doc, row, font, width);
  ensureRoom(doc, height + 6);
  const y = doc.y;
  doc.font(font).fontSize(10).fillColor('black');
  doc.text(row.text, x, y, { width: width - AMOUNT_WIDTH - 10 });
  doc.text(row.amount, x + width - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: 'right' });
  doc.y = y + height + 4;
}

function rule(doc: Doc, x = MARGIN.left, width = CONTENT_WIDTH) {
  doc.moveTo(x, doc.y).lineTo(x + width, doc.y).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.y += 4;
}

function table(doc: Doc, text: DocumentText) {
  if (text.table) {
    const header = () => {
      tableRow(doc, text.table!.header, 'bold');
      rule(doc);
    };
    ensureRoom(doc, 40);
    header();
    for (const row of text.table.rows) {
      // A row that does not fit goes to a new page, under the header again.
      if (doc.y + rowHeight(doc, row, 'regular', CONTENT_WIDTH) + 6 > A4.height - MARGIN.bottom) {
        doc.addPage();
        header();
      }
      tableRow(doc, row, 'regular');
    }
  }
  if (text.totals.length > 0) {
    const width = CONTENT_WIDTH * 0.55;
    const x = MARGIN.left + CONTENT_WIDTH - width;
    ensureRoom(doc, 20 * text.totals.length + 10);
    rule(doc, x, width);
    text.totals.forEach((row, i) => tableRow(doc, row, i === text.totals.length - 1 ? 'bold' : 'regular', x, width));
  }
  if (text.table || text.totals.length > 0) doc.moveDown(1.2);
}

function paymentBox(doc: Doc, text: string) {
  if (!text.trim()) return;
  const padding = 8;
  const inner = CONTENT_WIDTH - 2 * padding;
  doc.font('regular').fontSize(9.5);
  const height = doc.heightOfString(text.trim(), { width: inner, lineGap: 2 }) + 2 * padding;
  ensureRoom(doc, height + 10);
  const top = doc.y;
  doc.rect(MARGIN.left, top, CONTENT_WIDTH, height).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.fillColor('black').text(text.trim(), MARGIN.left + padding, top + padding, { width: inner, lineGap: 2 });
  doc.y = top + height + 14;
}

/** Footer of every page: the office on the left, "page x of y" on the right. */
function footers(doc: Doc, office: Letterhead) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing into the bottom margin must not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = A4.height - MARGIN.bottom + 24;
    doc.moveTo(MARGIN.left, y - 6).lineTo(A4.width - MARGIN.right, y - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.font('regular').fontSize(8).fillColor(GREY);
    doc.text(office.name, MARGIN.left, y, { width: CONTENT_WIDTH / 2, lineBreak: false });
    doc.text(`page ${i - range.start + 1} of ${range.count}`, MARGIN.left + CONTENT_WIDTH / 2, y, { width: CONTENT_WIDTH / 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** Lays the document's texts out as a PDF and answers its bytes. */
export function layoutPdf(text: DocumentText, office: Letterhead, info: { author?: string } = {}): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    // No default font: pdfkit would parse its Helvetica metrics for every document (a fifth of a render), and the
    // layout names its own font before every text.
    font: null as unknown as string,
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    info: { Title: text.title, Author: info.author ?? office.name, Creator: office.name, Producer: office.name },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // pdfkit's types know file names and buffers only; at run time it takes a parsed font (anything with layout()).
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);

  letterhead(doc, office);
  addressAndReferences(doc, office, text);
  doc.font('bold').fontSize(14).fillColor('black').text(text.title, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.8);
  paragraphs(doc, text.intro);
  table(doc, text);
  paymentBox(doc, text.payment);
  paragraphs(doc, text.closing);
  footers(doc, office);
  doc.end();
  return done;
}
