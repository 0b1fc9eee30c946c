import { Liquid, type FS } from 'liquidjs';
import { formatDate, formatMoney } from '@app/contracts';

/**
 * The template engine (DESIGN §7, decision 015): LiquidJS, safe by construction. A template sees only the data it
 * is given (own properties only: no `constructor`, `__proto__` or prototype methods), an unknown variable or filter
 * is an error rather than an empty string, it cannot read a file (`include`, `render` and `layout` are removed and
 * the file system refuses every read), and a render is bounded in time and memory.
 *
 * A template file is one format for documents and mails: a head of `key: value` lines, then sections, each
 * started by a marker line `--- name ---`. The file is split into sections *before* rendering, so no value from
 * the data can ever start a section or a head line; each section is rendered on its own, with the escaping its
 * content needs.
 */

/** Refuses every file: templates are self-contained. */
const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates cannot read files');
  },
  readFileSync: () => {
    throw new Error('templates cannot read files');
  },
  resolve: (_dir, file) => file,
  contains: async () => false,
  sep: '/',
  dirname: () => '',
};

/** How `{{ value }}` is written in each kind of section. */
export type Escaping = 'line' | 'text' | 'html';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * What `{{ value }}` writes. A group of fields or a list would be written as JSON or run together
 * (`{{ invoice }}` put raw JSON in a student's mail), and a number that is none (`divided_by: 0`) as "Infinity":
 * each is an error that says what to write instead, so the upload and the check refuse it.
 */
function stringOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) throw new TemplateError('{{ … }} writes a list, not one value: go through it with {% for x in … %}, or join it with | join: ", "');
  if (typeof value === 'object') {
    const fields = Object.keys(value);
    throw new TemplateError(`{{ … }} writes a group of fields, not one value: name one of them (${fields.slice(0, 8).join(', ')}${fields.length > 8 ? ', …' : ''})`);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TemplateError(`{{ … }} writes ${String(value)}, which is no number (a division by zero?)`);
  return String(value);
}

const escapes: Record<Escaping, (value: unknown) => string> = {
  // A head line, an address line or a table row is one line: a value cannot break it into two.
  line: (value) => stringOf(value).replace(/[\r\n\u2028\u2029]+/g, ' '),
  text: stringOf,
  html: (value) => stringOf(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!),
};

function createEngine(escaping: Escaping): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    fs: noFiles,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    dynamicPartials: false,
    outputEscape: escapes[escaping],
    // A template is at most 256 KB; a render gets a second and 10 million units of memory (a loop over a huge
    // range, or a string doubled in a loop, ends in an error instead of stalling the server).
    parseLimit: 1_000_000,
    renderLimit: 1_000,
    memoryLimit: 10_000_000,
  });
  for (const tag of ['include', 'render', 'layout', 'block']) delete (engine.tags as Record<string, unknown>)[tag];
  engine.registerFilter('money', (value: unknown) => formatMoney(value as number | string | null | undefined));
  engine.registerFilter('day', (value: unknown) => formatDate(typeof value === 'string' ? value : null));
  return engine;
}

const engines: Record<Escaping, Liquid> = { line: createEngine('line'), text: createEngine('text'), html: createEngine('html') };

/** A template that does not parse, does not render with its data, or whose result has the wrong shape. */
export class TemplateError extends Error {
  /** The shape of data it failed with, when not the sample (`one line per list`, `paid in full`: registry `shapesOf`). */
  shape?: string;

  constructor(
    message: string,
    /** The line of the template file, when known. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'TemplateError';
  }
}

export interface Section {
  name: string;
  /** The section's source text. */
  source: string;
  /** Line of the template file the section's text starts on (1-based). */
  firstLine: number;
}

const MARKER = /^---[ \t]*([a-z_]+)[ \t]*---[ \t]*$/;

/** The head (name `head`) and the marked sections of a template file, checked against the names allowed. */
export function splitSections(text: string, allowed: readonly string[]): Section[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const sections: Section[] = [{ name: 'head', source: '', firstLine: 1 }];
  const body: string[][] = [[]];
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line);
    if (!marker) {
      body[body.length - 1]!.push(line);
      return;
    }
    const name = marker[1]!;
    if (!allowed.includes(name)) throw new TemplateError(`unknown section "--- ${name} ---" (allowed: ${allowed.map((a) => `--- ${a} ---`).join(', ')})`, index + 1);
    if (sections.some((s) => s.name === name)) throw new TemplateError(`section "--- ${name} ---" appears twice`, index + 1);
    sections.push({ name, source: '', firstLine: index + 2 });
    body.push([]);
  });
  return sections.map((s, i) => ({ ...s, source: body[i]!.join('\n') }));
}

/** The engine's words for its limits, and what they mean to whoever wrote the template. */
const LIMIT_MESSAGES: [RegExp, string][] = [
  [/render limit exceeded/, 'rendering takes longer than a second (a loop that runs too long?)'],
  [/memory alloc limit exceeded/, 'rendering needs too much memory (a loop or a text that grows too large?)'],
  [/parse length limit exceeded/, 'the template is too long to read'],
];

/** "undefined variable: x.y, line:3, col:4" → TemplateError("undefined variable: x.y", line of the file). */
function engineError(err: unknown): TemplateError {
  const e = err as { message?: string; token?: { getPosition?: () => [number, number] }; originalError?: unknown };
  // An error of our own thrown while writing a value (stringOf) keeps its words; the engine adds the position.
  const own = e.originalError instanceof TemplateError ? e.originalError.message : undefined;
  let message = own ?? String(e.message ?? err).replace(/,? line:\d+, col:\d+$/, '');
  for (const [pattern, words] of LIMIT_MESSAGES) if (pattern.test(message)) message = words;
  const position = e.token?.getPosition?.();
  return new TemplateError(position ? `${message} (column ${position[1]})` : message, position?.[0]);
}

/**
 * Parsed sections, by engine and text: a template is parsed once, not for every document (a batch of invoices
 * renders the same text a thousand times). Parsed templates are never changed by rendering; a new upload is a new
 * text. At most PARSED_MAX are kept, the oldest dropped first.
 */
const PARSED_MAX = 500;

/**
 * Every `{{` and `{%` closed before the next one opens (decision 054). The engine reads `{{ student.name ,` up to
 * the next `}}` further down, swallowing the text between into one output that renders as the name: the mail
 * lost a sentence and the upload and Check said nothing.
 */
function checkDelimiters(source: string): void {
  // What `{% raw %}` … `{% endraw %}` holds is text, not tags: blanked (its line breaks kept, for the line numbers).
  const text = source.replace(/(\{%-?\s*raw\s*-?%\})([\s\S]*?)(\{%-?\s*endraw\s*-?%\})/g, (_all, open: string, inner: string, close: string) => open + inner.replace(/[^\n]/g, ' ') + close);
  const opening = /\{\{|\{%/g;
  for (let match = opening.exec(text); match; match = opening.exec(text)) {
    const close = match[0] === '{{' ? '}}' : '%}';
    const end = text.indexOf(close, match.index + 2);
    const next = text.slice(match.index + 2).search(/\{\{|\{%/);
    if (end === -1 || (next !== -1 && match.index + 2 + next < end)) {
      const line = text.slice(0, match.index).split('\n').length;
      const shown = text.slice(match.index, match.index + 30).split('\n')[0];
      throw new TemplateError(`"${shown}" is not closed with ${close} before the next {{ or {%`, line);
    }
  }
}
const parsed = new Map<string, ReturnType<Liquid['parse']>>();
function parsedSection(engine: Liquid, escaping: Escaping, text: string): ReturnType<Liquid['parse']> {
  const key = `${escaping}\u0000${text}`;
  let templates = parsed.get(key);
  if (!templates) {
    checkDelimiters(text);
    templates = engine.parse(text);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, templates);
  }
  return templates;
}

/**
 * An unknown variable's error with the names that are there ("undefined variable: student.nmae" and student
 * has name, first_name, …): the designer sees the right name where the mistake is named.
 */
function withKnownNames(error: TemplateError, data: Record<string, unknown>): TemplateError {
  const match = /undefined variable: ([A-Za-z_][\w.]*)/.exec(error.message);
  if (!match) return error;
  const parts = match[1]!.split('.');
  // Down the named path as far as it goes through groups of fields; a name past a list or a value is left as it is.
  let at: Record<string, unknown> = data;
  let depth = 0;
  for (; depth < parts.length - 1; depth++) {
    const next = at[parts[depth]!];
    if (next === undefined) break;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) return error;
    at = next as Record<string, unknown>;
  }
  const owner = depth === 0 ? 'the data' : parts.slice(0, depth).join('.');
  const names = Object.keys(at);
  const known = new TemplateError(`${error.message.replace(/^line \d+: /, '')}; ${owner} has ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', …' : ''}`, error.line);
  known.shape = error.shape;
  return known;
}

/**
 * Renders one section with its escaping. The source is preceded by as many empty lines as come before it in the
 * file, so the engine's line numbers are the file's; they are dropped from the result.
 */
export async function renderSection(section: Section, escaping: Escaping, data: Record<string, unknown>): Promise<string> {
  const engine = engines[escaping];
  const padded = '\n'.repeat(section.firstLine - 1) + section.source;
  let out: string;
  try {
    const parsed = parsedSection(engine, escaping, padded);
    out = String(await engine.render(parsed, data));
  } catch (err) {
    throw err instanceof TemplateError ? err : withKnownNames(engineError(err), data);
  }
  // Leading and trailing blank lines of a section carry no meaning (the markers stand on lines of their own).
  return out.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
}

/** `key: value` lines of a rendered head (blank lines skipped); a key not in `allowed` is an error. */
export function headLines(rendered: string, allowed: readonly string[]): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const line of rendered.split('\n')) {
    if (line.trim() === '') continue;
    const match = /^\s*([a-z_]+)\s*:\s?(.*)$/.exec(line);
    if (!match || !allowed.includes(match[1]!)) {
      throw new TemplateError(`the head (before the first --- section ---) has a line that is not one of ${allowed.map((k) => `"${k}: …"`).join(', ')}: "${line.slice(0, 80)}"`);
    }
    out.push({ key: match[1]!, value: match[2]!.trim() });
  }
  return out;
}

/**
 * The data a template is given: a plain JSON copy, so it holds nothing but values (no functions, class
 * instances or getters), whatever the caller passed.
 */
export function plainData(data: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
}
