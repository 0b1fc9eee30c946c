import type { FieldErrors } from './errors.js';

/**
 * The rules every input obeys, whichever route or form it comes through (decision 013). The field builders
 * (fields.ts) apply them to each declared field, so the web refuses what the API refuses; the API also applies
 * the text rules to every string of every request (`cleanInput`), declared or not.
 */

/** PostgreSQL `integer` (int4): ids and whole-number filters are checked against it, never left to the database. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** Dates a user may enter: wide enough for birth dates and long contracts, narrow enough to be a typo when outside. */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2199-12-31';

/** Input nested deeper than this is not a record or a selection: refused before anything walks it. */
export const MAX_INPUT_DEPTH = 20;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a text as text, or undefined: PostgreSQL cannot store NUL, nor UTF-8 a lone surrogate. */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'must not contain a lone UTF-16 surrogate (malformed text)';
  return undefined;
}

/** Line breaks, also the Unicode ones a paste from a word processor brings (U+2028, U+2029, U+0085). */
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
/** C0 and C1 control characters other than line breaks and tab: the bell, escape, backspace … print as boxes or not at all. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F]/;

/** The first control character of a text, named as U+XXXX. */
function controlOf(value: string, pattern: RegExp): string | undefined {
  const found = pattern.exec(value)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * What is wrong with the text of a one-line field (a name, a street, a description), or undefined: a line break
 * breaks the greeting of a letter and a cell of the bank's file, a control character prints as a box (decision 060).
 */
export function oneLineProblem(value: string): string | undefined {
  if (LINE_BREAK.test(value)) return 'must be one line (no line breaks)';
  const tab = value.includes('\t') ? 'U+0009 (tab)' : undefined;
  const control = controlOf(value, CONTROL) ?? tab;
  return control === undefined ? undefined : `must not contain control characters (${control})`;
}

/** What is wrong with the text of a field of several lines (comments), or undefined: line breaks and tabs are fine. */
export function multiLineProblem(value: string): string | undefined {
  const control = controlOf(value, CONTROL);
  return control === undefined ? undefined : `must not contain control characters (${control})`;
}

/**
 * Invisible characters that mean nothing in a record's text but make two equal-looking values differ: the
 * zero-width space, the word joiner, the byte-order mark (U+FEFF, also the "zero-width no-break space") and the
 * soft hyphen. They arrive with text pasted from e-mails, web pages and PDFs; "Mül\u200Bler" looked like "Müller"
 * and no search found it. The zero-width joiner and non-joiner stay: Persian and Indic names spell with them.
 */
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g;

/**
 * Text as it is stored and compared: composed (NFC), so "é" typed two ways is one value, and without the
 * invisible characters above (decision 061).
 */
export function normaliseText(value: string): string {
  return value.normalize('NFC').replace(INVISIBLE, '');
}

/** Why a `YYYY-MM-DD` date is outside the accepted range, or undefined. */
export function dateRangeProblem(value: string): string | undefined {
  if (value < MIN_DATE || value > MAX_DATE) return `must be between ${MIN_DATE} and ${MAX_DATE}`;
  return undefined;
}

export interface CleanedInput {
  value: unknown;
  /** Problems by field path (`a.b.0`); empty when the input is clean. */
  errors: FieldErrors;
}

/**
 * Checks every string (values and keys) of a parsed JSON body or query string against the text rules and
 * answers a copy with texts in NFC and objects with a null prototype (a key such as `__proto__` or `toString`
 * stays plain data). Problems are reported per field path, never thrown.
 */
export function cleanInput(input: unknown): CleanedInput {
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  const report = (path: string, message: string) => {
    const key = path === '' ? '_' : path;
    (errors[key] ??= []).push(`${key === '_' ? 'input' : key} ${message}`);
  };
  const walk = (value: unknown, path: string, depth: number): unknown => {
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) report(path, problem);
      return problem ? value : normaliseText(value);
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_INPUT_DEPTH) {
      report(path, `is nested more than ${MAX_INPUT_DEPTH} levels deep`);
      return value;
    }
    const at = (key: string) => (path === '' ? key : `${path}.${key}`);
    if (Array.isArray(value)) return value.map((item, i) => walk(item, at(String(i)), depth + 1));
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) {
      const problem = textProblem(key);
      if (problem) {
        report(path, `has a field name that ${problem}`);
        continue;
      }
      out[normaliseText(key)] = walk(item, at(key), depth + 1);
    }
    return out;
  };
  const value = walk(input, '', 0);
  return { value, errors };
}
