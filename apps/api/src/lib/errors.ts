import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, GENERIC_SERVER_ERROR, isLeftOut, type ErrorBody, type FieldErrors } from '@app/contracts';
import { appErrorOfDatabase, DATABASE_RETRY_AFTER_SECONDS } from './db-errors.js';

/** zod issues → `{field: [messages]}`; issues of the whole object go under `_`. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  // Keyed by what the user sent (`toString`, `__proto__`): no prototype to collide with.
  const out = Object.create(null) as FieldErrors;
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) (out[k] ??= []).push(`${k} is not a known field`);
      continue;
    }
    // A field left out or emptied (undefined, null) is "required"; a value of the wrong type keeps its schema's
    // message ("Intake must be a year"). Without the input in its issues (`reportInput`), every wrong type read as
    // left out.
    if (issue.code === 'invalid_type' && isLeftOut(issue.input)) message = `${key} is required`;
    (out[key] ??= []).push(message);
  }
  return out;
}

/** Parses input with a zod schema or throws a 400 naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'input'): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const fields = Object.keys(errors).filter((k) => k !== '_');
  const message = fields.length > 0 ? `Invalid ${what}: ${fields.join(', ')}` : `Invalid ${what}`;
  throw new AppError('BAD_REQUEST', message, errors);
}

export const notFoundRoute: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No such API route: ${req.method} ${req.baseUrl}${req.path}`));
};

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/**
 * busboy's errors: a malformed multipart body is the client's doing, so a 400, never a 500. acceptUpload turns
 * them into AppErrors itself; this catches any that reach the handler another way. (Socket error codes such as
 * ECONNRESET are not mapped: the database connection raises them too, and that is our fault.)
 */
const BUSBOY_MESSAGES = [
  'Unexpected end of form',
  'Unexpected end of file',
  'Malformed part header',
  'Malformed content type',
  'Missing Content-Type',
  'Multipart: Boundary not found',
  'Unsupported content type',
];
const isBusboyError = (message: string | undefined) => !!message && BUSBOY_MESSAGES.some((m) => message.startsWith(m));

/**
 * The one error handler: AppError → its status and message; a database constraint → 400 / 409 naming the
 * field or the records (db-errors.ts); body-parser and busboy errors → 400 / 413; anything else is logged with
 * the request id and answered with a generic 500 — never a stack or SQL.
 */
export const errorHandler: ErrorRequestHandler = (caught: unknown, req, res, _next) => {
  let status = 500;
  const body: ErrorBody = { message: GENERIC_SERVER_ERROR };
  const err = appErrorOfDatabase(caught) ?? caught;
  if (err instanceof AppError) {
    status = err.status;
    // Not once a file has begun (a streamed export the database broke off): its headers are gone, and setting
    // one threw, which hid the failure behind "Cannot set headers after they are sent".
    if (err.code === 'SERVICE_UNAVAILABLE' && !res.headersSent) res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    body.message = err.message;
    if (err.errors) body.errors = err.errors;
  } else if (err instanceof z.ZodError) {
    status = 400;
    body.message = 'Invalid input';
    body.errors = fieldErrors(err);
  } else {
    const e = (err ?? {}) as HttpishError;
    const s = e.status ?? e.statusCode;
    if (e.type === 'entity.parse.failed') {
      status = 400;
      body.message = 'The request body is not valid JSON';
    } else if (e.type === 'entity.too.large') {
      status = 413;
      body.message = 'The request body is too large';
    } else if (err instanceof URIError && s === 400) {
      // The router could not percent-decode a path parameter (`/students/%ED%A0%80`).
      status = 400;
      body.message = 'The request path is not valid (malformed percent-encoding)';
    } else if (e.type === 'request.aborted' || e.type === 'request.size.invalid' || isBusboyError(e.message)) {
      status = 400;
      body.message = 'The request body is malformed or incomplete';
    } else if (typeof s === 'number' && s >= 400 && s < 500 && e.expose) {
      status = s;
      body.message = s === 415 ? 'Unsupported content type' : 'Bad request';
    }
  }
  if (status >= 500) {
    req.log?.error({ err }, 'request failed');
    body.request_id = String(req.id);
    // For what records a failure once the answer is sent (a template that does not render: lib/templates/store.ts).
    res.locals.failure = err;
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).json(body);
};
