import { z } from 'zod';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { dateRangeProblem, INT4_MAX, INT4_MIN, multiLineProblem, normaliseText, oneLineProblem, textProblem } from './input.js';

/**
 * A field left out or emptied on a form (undefined, null): it "is required", where a value of the wrong kind has a
 * message of its own.
 */
export const isLeftOut = (input: unknown): boolean => input === undefined || input === null;

/**
 * Any text input: refused when it holds NUL or a lone surrogate (the field named), normalised to NFC. Every text
 * builder starts here (decision 013).
 */
export const text = (label: string) =>
  z
    .string({ error: (issue) => (isLeftOut(issue.input) ? `${label} is required` : `${label} must be text`) })
    .refine((v) => textProblem(v) === undefined, { error: (issue) => `${label} ${textProblem(issue.input as string) ?? ''}` })
    .overwrite(normaliseText);

/** One line of text, trimmed: no line break, tab or other control character (decision 060). */
const lineOfText = (label: string) =>
  text(label)
    .trim()
    .refine((v) => oneLineProblem(v) === undefined, { error: (issue) => `${label} ${oneLineProblem(issue.input as string) ?? ''}`, abort: true });

/** Common field schemas, so every resource words its messages the same way. */
export const requiredText = (label: string, max = 255) =>
  lineOfText(label)
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const optionalText = (label: string, max = 255) => lineOfText(label).max(max, `${label} must be at most ${max} characters`).nullish();

/** Text of several lines (comments, an address): line breaks and tabs kept, other control characters refused. */
const linesOfText = (label: string) =>
  text(label)
    .trim()
    .refine((v) => multiLineProblem(v) === undefined, { error: (issue) => `${label} ${multiLineProblem(issue.input as string) ?? ''}`, abort: true });

export const optionalMultilineText = (label: string, max = 5000) => linesOfText(label).max(max, `${label} must be at most ${max} characters`).nullish();

export const requiredMultilineText = (label: string, max = 5000) =>
  linesOfText(label)
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * A whole number that fits PostgreSQL `integer`, from JSON or a query string (`"12"`): ids, references and
 * whole-number filters.
 */
export const wholeNumber = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(INT4_MIN, `${label} is too small`)
    .max(INT4_MAX, `${label} is too large`);

export const positiveId = (label: string) => wholeNumber(label).positive(`${label} must be a positive number`);

export const idSchema = positiveId('id');

export const timestampSchema = z.string().nullable();

/** A reference to another record, chosen from a list. */
export const requiredRef = (label: string) =>
  z.number({ error: (issue) => (isLeftOut(issue.input) ? `${label} is required` : `${label} must be the number of a record`) }).int(`${label} is required`).positive(`${label} is required`).max(INT4_MAX, `${label} is not known`);

export const MAX_MONEY = 9_999_999_999.99;

/** Euro amount: a JSON number with at most two decimals (stored as NUMERIC(12,2)). */
export const money = (label: string) =>
  z
    .number({ error: `${label} must be an amount` })
    .min(-MAX_MONEY, `${label} is too small`)
    .max(MAX_MONEY, `${label} is too large`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${label} may have at most 2 decimals`);

export const nonNegativeMoney = (label: string) => money(label).refine((v) => v >= 0, `${label} cannot be negative`);

/** An intake is the calendar year a cohort starts. */
export const intake = (label = 'Intake') =>
  z.number({ error: (issue) => (isLeftOut(issue.input) ? `${label} is required` : `${label} must be a year`) }).int(`${label} must be a year`).min(2000, `${label} must be a year from 2000`).max(2100, `${label} must be a year up to 2100`);

/** A real calendar date (`2026-02-30` is refused) within MIN_DATE … MAX_DATE. */
export const isoDate = (label: string) =>
  z.iso
    .date({ error: (issue) => (isLeftOut(issue.input) || issue.input === '' ? `${label} is required` : `${label} must be a date (YYYY-MM-DD)`) })
    .refine((v) => dateRangeProblem(v) === undefined, { error: (issue) => `${label} ${dateRangeProblem(issue.input as string) ?? ''}` });

/**
 * An IBAN as people copy it (grouped by spaces, non-breaking spaces or hyphens, in lower case) in its electronic
 * form: no separators, upper case.
 */
export const compactIban = (v: string) => v.replace(/[\s\u00a0\u202f-]+/gu, '').toUpperCase();

/** An IBAN, checked (country format and check digits) and stored without spaces, upper case. */
export const iban = (label: string) =>
  requiredText(label, 42)
    .transform((v) => electronicFormatIBAN(compactIban(v)) ?? v)
    .refine((v) => isValidIBAN(v), `${label} is not a valid IBAN`);

/** A BIC / SWIFT code: 8 or 11 characters with a valid country. */
export const bic = (label: string) =>
  requiredText(label, 11)
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine((v) => isValidBIC(v), `${label} is not a valid BIC (8 or 11 characters)`);

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** An IBAN that may be left empty; checked when given. */
export const optionalIban = (label: string) => z.preprocess(emptyToNull, iban(label).nullish());

/** A BIC that may be left empty; checked when given. */
export const optionalBic = (label: string) => z.preprocess(emptyToNull, bic(label).nullish());

export const optionalRef = (label: string) => z.preprocess(emptyToNull, requiredRef(label).nullish());

export const optionalDate = (label: string) => z.preprocess(emptyToNull, isoDate(label).nullish());

export const email = (label: string) =>
  text(label).trim().min(1, `${label} is required`).max(200, `${label} must be at most 200 characters`).pipe(z.email(`${label} must be a valid e-mail address`));
