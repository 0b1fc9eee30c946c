import { z } from 'zod';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/** Common field schemas, so every resource words its messages the same way. */
export const requiredText = (label: string, max = 255) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const optionalText = (label: string, max = 255) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).nullish();

export const idSchema = z.coerce.number().int().positive();

export const timestampSchema = z.string().nullable();

/** A reference to another record, chosen from a list. */
export const requiredRef = (label: string) =>
  z.number({ error: `${label} is required` }).int(`${label} is required`).positive(`${label} is required`);

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
  z.number({ error: `${label} is required` }).int(`${label} must be a year`).min(2000, `${label} must be a year from 2000`).max(2100, `${label} must be a year up to 2100`);

export const isoDate = (label: string) => z.iso.date({ error: `${label} must be a date (YYYY-MM-DD)` });

/** An IBAN, checked (country format and check digits) and stored without spaces, upper case. */
export const iban = (label: string) =>
  requiredText(label, 42)
    .transform((v) => electronicFormatIBAN(v) ?? v)
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
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(200).pipe(z.email(`${label} must be a valid e-mail address`));
