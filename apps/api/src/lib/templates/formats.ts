import type { TemplateKind } from '@app/contracts';
import { headLines, renderSection, splitSections, TemplateError, type Escaping, type Section } from './engine.js';

/**
 * What a template renders into, per kind (decision 015). The engine yields text; these turn the rendered
 * sections into the structure the PDF layout or the outbox takes, and refuse a result with the wrong shape.
 */

/** A rendered e-mail. */
export interface RenderedMail {
  subject: string;
  text: string;
  html?: string;
}

/** A row of a table: its text and its amount as the template wrote it (`€ 1.234,56`), right-aligned. */
export interface TableRow {
  text: string;
  amount: string;
}

/** The texts a document template gives the PDF layout (lib/files/pdf.ts). */
export interface DocumentText {
  title: string;
  /** Reference lines beside the address (invoice number, date, contract …). */
  references: { label: string; value: string }[];
  /** The recipient's address block, line by line. */
  address: string[];
  /** Paragraphs before the table. */
  intro: string;
  /** The table of lines: a header and rows; absent when the template has no `--- lines ---` section. */
  table?: { header: TableRow; rows: TableRow[] };
  /** Total lines under the table (the last one is printed bold). */
  totals: TableRow[];
  /** Payment instructions, printed in a framed box. */
  payment: string;
  /** Closing paragraphs (greeting, signature). */
  closing: string;
}

interface Format<T> {
  headKeys: readonly string[];
  /** Each section allowed, with how values are written in it. */
  sections: Readonly<Record<string, Escaping>>;
  build(head: { key: string; value: string }[], sections: ReadonlyMap<string, string>): T;
}

const single = (head: { key: string; value: string }[], key: string): string | undefined => {
  const found = head.filter((h) => h.key === key);
  if (found.length > 1) throw new TemplateError(`"${key}:" may appear once in the head`);
  return found[0]?.value;
};

/** `Participation fee | € 1.234,56`: the amount is after the last `|`; a line without one has no amount. */
function row(line: string): TableRow {
  const bar = line.lastIndexOf('|');
  return bar < 0 ? { text: line.trim(), amount: '' } : { text: line.slice(0, bar).trim(), amount: line.slice(bar + 1).trim() };
}

const nonEmptyLines = (text: string | undefined) => (text ?? '').split('\n').filter((l) => l.trim() !== '');

const mailFormat: Format<RenderedMail> = {
  headKeys: ['subject'],
  sections: { text: 'text', html: 'html' },
  build(head, sections) {
    const subject = single(head, 'subject');
    if (!subject) throw new TemplateError('a mail template needs a head line "subject: …" that renders to a subject');
    const text = sections.get('text');
    if (!text) throw new TemplateError('a mail template needs a "--- text ---" section that renders to the message');
    const html = sections.get('html');
    return html ? { subject, text, html } : { subject, text };
  },
};

const documentFormat: Format<DocumentText> = {
  headKeys: ['title', 'reference'],
  sections: { address: 'line', intro: 'text', lines: 'line', totals: 'line', payment: 'text', closing: 'text' },
  build(head, sections) {
    const title = single(head, 'title');
    if (!title) throw new TemplateError('a document template needs a head line "title: …" that renders to a title');
    const references = head
      .filter((h) => h.key === 'reference')
      .map((h) => {
        const bar = h.value.indexOf('|');
        return bar < 0 ? { label: '', value: h.value } : { label: h.value.slice(0, bar).trim(), value: h.value.slice(bar + 1).trim() };
      });
    const tableLines = nonEmptyLines(sections.get('lines'));
    const [header, ...rows] = tableLines.map(row);
    return {
      title,
      references,
      address: nonEmptyLines(sections.get('address')).map((l) => l.trim()),
      intro: sections.get('intro') ?? '',
      ...(header ? { table: { header, rows } } : {}),
      totals: nonEmptyLines(sections.get('totals')).map(row),
      payment: sections.get('payment') ?? '',
      closing: sections.get('closing') ?? '',
    };
  },
};

const formats = { mail: mailFormat, pdf: documentFormat } as const;

/** The most a template may render to, all sections together. */
export const MAX_RENDERED_CHARS = 500_000;

export interface RenderedByKind {
  mail: RenderedMail;
  pdf: DocumentText;
}

/**
 * Parses and renders a template file of the kind with the data. Every problem — syntax, an unknown variable or
 * filter, a section or head line that does not belong, a missing subject or title — is a TemplateError naming
 * the line of the file where the engine knows it.
 */
export async function renderTemplateText<K extends TemplateKind>(kind: K, text: string, data: Record<string, unknown>): Promise<RenderedByKind[K]> {
  const format = formats[kind] as Format<RenderedByKind[K]>;
  const sections: Section[] = splitSections(text, Object.keys(format.sections));
  const rendered = new Map<string, string>();
  let head: { key: string; value: string }[] = [];
  let size = 0;
  for (const section of sections) {
    const out = await renderSection(section, section.name === 'head' ? 'line' : format.sections[section.name]!, data);
    // A letter or a mail is a few pages: a loop that writes megabytes would hold the server in the PDF layout.
    size += out.length;
    if (size > MAX_RENDERED_CHARS) throw new TemplateError(`renders to more than ${MAX_RENDERED_CHARS} characters`, section.firstLine);
    if (section.name === 'head') head = headLines(out, format.headKeys);
    else rendered.set(section.name, out);
  }
  return format.build(head, rendered);
}
