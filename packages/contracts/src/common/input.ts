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

/** Text as it is stored and compared: composed (NFC), so "é" typed two ways is one value. */
export function normaliseText(value: string): string {
  return value.normalize('NFC');
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
