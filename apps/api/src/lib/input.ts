import type { RequestHandler } from 'express';
import { AppError, cleanInput, todayIn, type FieldErrors } from '@app/contracts';

/**
 * The input layer's first step, before any route (decision 013): every string of the query and of a JSON body,
 * keys included, is checked against the text rules (no NUL, no lone surrogate: 400 naming the field) and
 * normalised to NFC; objects become null-prototype copies, so no key a user sends can reach `Object.prototype`.
 * The routes' schemas then check what each field must be.
 */
export const cleanRequest: RequestHandler = (req, _res, next) => {
  const query = cleanInput(req.query);
  const body = cleanInput(req.body);
  const errors: FieldErrors = Object.assign(Object.create(null) as FieldErrors, query.errors, body.errors);
  const fields = Object.keys(errors);
  if (fields.length > 0) throw new AppError('BAD_REQUEST', `Invalid input: ${fields.join(', ')}`, errors);
  // Express 5 defines req.query as a getter: the cleaned copy replaces it for the rest of the request.
  Object.defineProperty(req, 'query', { value: query.value, writable: true, configurable: true, enumerable: true });
  req.body = body.value;
  next();
};

/** Refuses any query parameter on a route that takes none (400 naming them), rather than ignoring it. */
export const noQuery: RequestHandler = (req, _res, next) => {
  const keys = Object.keys(req.query as object);
  if (keys.length === 0) {
    next();
    return;
  }
  const errors = Object.create(null) as FieldErrors;
  for (const key of keys) errors[key] = [`${key} is not a known query parameter`];
  throw new AppError('BAD_REQUEST', `Unknown query parameter: ${keys.join(', ')}`, errors);
};

/**
 * A day that cannot lie ahead in the office's calendar (a payment received, a birth): a date after today is a
 * typo, refused with a 400 naming the field. A value that is no date string is left to the schema.
 */
export function refuseFutureDay(timeZone: string, field: string, label: string, value: unknown): void {
  if (typeof value === 'string' && value > todayIn(timeZone)) {
    throw new AppError('BAD_REQUEST', `Invalid input: ${field}`, { [field]: [`${label} cannot be in the future`] });
  }
}
