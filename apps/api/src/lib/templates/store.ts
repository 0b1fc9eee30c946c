import type { RequestHandler } from 'express';
import { and, eq, gt, sql } from 'drizzle-orm';
import { AppError, EVENT_TYPE_IDS, type TemplateInfo } from '@app/contracts';
import { logEvents, templates, users, type DbOrTx } from '@app/db';
import type { Env } from '../../env.js';
import { recordEvent } from '../events/record.js';
import { plainData, TemplateError } from './engine.js';
import { renderTemplateText, type RenderedByKind } from './formats.js';
import { defaultTemplate, TEMPLATES, templateDefinition, variablesOf, type TemplateDefinition } from './registry.js';

/** The office as templates and the PDF letterhead see it (`office.*`), from the settings (README, decision 015). */
export interface Office {
  name: string;
  address_lines: string[];
  email: string;
  iban: string;
  bic: string;
}

export function officeOf(env: Env): Office {
  return {
    name: env.OFFICE_NAME,
    address_lines: env.OFFICE_ADDRESS.split('|')
      .map((l) => l.trim())
      .filter((l) => l !== ''),
    email: env.OFFICE_EMAIL,
    iban: env.OFFICE_IBAN,
    bic: env.OFFICE_BIC,
  };
}

/** What rendering needs: a database handle (or the caller's transaction) and the settings. */
export interface TemplateContext {
  db: DbOrTx;
  env: Env;
}

/** The definition of `internalname`, or a 404 naming it. */
export function definitionOf(internalname: string): TemplateDefinition {
  const definition = templateDefinition(internalname);
  if (!definition) throw new AppError('NOT_FOUND', `No template "${internalname}"`, { internalname: [`no template "${internalname}"`] });
  return definition;
}

/**
 * A file whose name is another template's (`invoice_pdf.liquid`, `invoice_pdf (2).txt` uploaded for the payment
 * confirmation): a 400 naming both. The name is all that tells the two apart — the payment confirmation is given
 * the invoice too, so the invoice's template renders with its data and an upload under the wrong row went live and
 * sent students an invoice as their payment confirmation. A name that mentions this template, or none, passes.
 */
export function refuseOtherTemplatesFile(filename: string, definition: TemplateDefinition): void {
  const name = filename.toLowerCase();
  const mentions = (d: TemplateDefinition) => new RegExp(`(^|[^a-z0-9_])${d.internalname}([^a-z0-9_]|$)`).test(name);
  if (mentions(definition)) return;
  const other = TEMPLATES.find((d) => d !== definition && mentions(d));
  if (!other) return;
  const message = `"${filename}" is named as the template ${other.internalname} (${other.displayname}), not ${definition.internalname} (${definition.displayname}): upload it in the row of ${other.displayname}, or rename the file if it really is meant for ${definition.displayname}`;
  throw new AppError('BAD_REQUEST', message, { file: [message] });
}

interface Replacement {
  content: string;
  filename: string;
  uploaded_timestamp: Date;
  uploaded_user: string | null;
}

async function replacementOf(db: DbOrTx, internalname: string): Promise<Replacement | undefined> {
  const [row] = await db
    .select({ content: templates.content, filename: templates.filename, uploaded_timestamp: templates.uploaded_timestamp, uploaded_user: users.usr_name })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.uploaded_user))
    .where(eq(templates.internalname, internalname));
  return row;
}

/** The template's current text: the uploaded replacement, else the built-in default — as bytes, exactly. */
export async function currentTemplate(db: DbOrTx, definition: TemplateDefinition): Promise<{ bytes: Buffer; customised: boolean }> {
  const replacement = await replacementOf(db, definition.internalname);
  return replacement ? { bytes: Buffer.from(replacement.content, 'utf8'), customised: true } : { bytes: defaultTemplate(definition), customised: false };
}

/** The template list of `GET /config`, each with the variables it can use. */
export async function templateList(db: DbOrTx, env: Env): Promise<TemplateInfo[]> {
  const rows = await db
    .select({ internalname: templates.internalname, uploaded_timestamp: templates.uploaded_timestamp, uploaded_user: users.usr_name })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.uploaded_user));
  const uploaded = new Map(rows.map((r) => [r.internalname, r]));
  return TEMPLATES.map((d) => {
    const row = uploaded.get(d.internalname);
    return {
      id: d.id,
      internalname: d.internalname,
      displayname: d.displayname,
      filename: d.filename,
      kind: d.kind,
      customised: !!row,
      uploaded_timestamp: row ? row.uploaded_timestamp.toISOString() : null,
      uploaded_user: row?.uploaded_user ?? null,
      variables: variablesOf(d, officeOf(env)),
    };
  });
}

/** Renders a template text of the definition's kind with the data (plus `office`); TemplateError if it cannot. */
export function renderText<K extends keyof RenderedByKind>(env: Env, kind: K, text: string, data: object): Promise<RenderedByKind[K]> {
  return renderTemplateText(kind, text, { ...plainData(data), office: officeOf(env) });
}

/**
 * A document or mail that could not be made because its template does not render with the real data: a 500 whose
 * message names the template and the line (issue 18 point 4), shown to staff after the spec's words, and written
 * to the event log (`recordTemplateFailure`) for the Administrators who look after the templates.
 */
export class TemplateRenderFailure extends AppError {
  constructor(
    readonly definition: TemplateDefinition,
    message: string,
  ) {
    super('INTERNAL', message);
  }
}

/**
 * Writes a template's failure to the event log ("Template failed"), with what it was making and for whom, at most
 * once a minute per template: a batch of a thousand invoices fails a thousand times. The log itself says when it
 * was last written, so the API's process and the workers' keep to the same minute. The caller passes a handle
 * whose work is kept: not the transaction the failure rolled back.
 */
export async function recordTemplateFailure(db: DbOrTx, failure: TemplateRenderFailure, userId: number | null, what: string): Promise<void> {
  const [recent] = await db
    .select({ id: logEvents.id })
    .from(logEvents)
    .where(
      and(
        eq(logEvents.resource, 'template'),
        eq(logEvents.record_id, failure.definition.id),
        eq(logEvents.eventtype_id, EVENT_TYPE_IDS.templateFailed),
        gt(logEvents.le_time, sql`now() - interval '1 minute'`),
      ),
    )
    .limit(1);
  if (recent) return;
  await recordEvent(db, {
    type: 'templateFailed',
    userId,
    resource: 'template',
    recordId: failure.definition.id,
    message: `${failure.message} — while ${what}`,
  });
}

/**
 * Writes the template failure a request ended with to the event log once its answer is sent (the request's own
 * transaction was rolled back with the failure). Batch runs write theirs with the row (lib/batch).
 */
export function templateFailureRecorder(db: DbOrTx): RequestHandler {
  return (req, res, next) => {
    res.on('finish', () => {
      const failure: unknown = res.locals.failure;
      if (!(failure instanceof TemplateRenderFailure)) return;
      const path = `${req.method} ${req.originalUrl.split('?')[0]!.slice(0, 200)}`;
      recordTemplateFailure(db, failure, req.user?.id ?? null, path).catch((err: unknown) => req.log.warn({ err }, 'could not record a template failure in the event log'));
    });
    next();
  };
}

/**
 * The current text of `internalname` rendered with real data. A template that does not render is the office's
 * to fix, not a crash: the answer (500, issue 18 point 4) says which template and line, without internals.
 */
async function renderCurrent<K extends keyof RenderedByKind>(ctx: TemplateContext, kind: K, internalname: string, data: object): Promise<RenderedByKind[K]> {
  const definition = definitionOf(internalname);
  if (definition.kind !== kind) throw new Error(`${internalname} is not a ${kind} template`);
  const { bytes, customised } = await currentTemplate(ctx.db, definition);
  try {
    return await renderText(ctx.env, kind, bytes.toString('utf8'), data);
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    const which = customised ? 'the uploaded template' : 'the built-in template';
    throw new TemplateRenderFailure(definition, `${definition.displayname}: ${which} ${internalname} does not render (${err.message}); check it on the Configuration screen`);
  }
}

/** Renders the current text of `internalname` (a mail template) with the data: what the outbox sends. */
export function renderMail(ctx: TemplateContext, internalname: string, data: object): Promise<RenderedByKind['mail']> {
  return renderCurrent(ctx, 'mail', internalname, data);
}

/** The texts of the current document template `internalname` rendered with the data, for the PDF layout. */
export function renderDocumentText(ctx: TemplateContext, internalname: string, data: object): Promise<RenderedByKind['pdf']> {
  return renderCurrent(ctx, 'pdf', internalname, data);
}

/**
 * A template refused: 400 naming the file field, with the engine's message and line, and the shape of data it
 * failed with when that was not the sample itself ("one line per list": real invoices have one line).
 */
export function refusal(error: TemplateError, field = 'file'): AppError {
  const what = error.shape ? `with its sample data shaped as real data can be (${error.shape})` : 'with its sample data';
  return new AppError('BAD_REQUEST', `The template does not render ${what}: ${error.message}`, { [field]: [describeFailure(error)] });
}

/** "line 4: undefined variable: x (column 3)", and the shape of data when it was not the sample. */
export const describeFailure = (error: TemplateError): string => (error.shape ? `${error.message}, with ${error.shape}` : error.message);

/**
 * Keeps an uploaded replacement (already checked by the caller) and records it in the event log, in the
 * caller's transaction.
 */
export async function saveTemplate(tx: DbOrTx, definition: TemplateDefinition, upload: { text: string; filename: string; size: number }, userId: number): Promise<void> {
  const before = await replacementOf(tx, definition.internalname);
  await tx
    .insert(templates)
    .values({ internalname: definition.internalname, content: upload.text, filename: upload.filename, uploaded_user: userId })
    .onConflictDoUpdate({
      target: templates.internalname,
      set: { content: upload.text, filename: upload.filename, uploaded_user: userId, uploaded_timestamp: sql`clock_timestamp()` as unknown as Date },
    });
  await recordEvent(tx, {
    type: 'update',
    userId,
    resource: 'template',
    recordId: definition.id,
    message: `Template ${definition.internalname} (${definition.displayname}) uploaded: "${upload.filename}", ${upload.size} bytes (was ${before ? `the upload "${before.filename}"` : 'the built-in default'})`,
  });
}

/** Goes back to the built-in default (the replacement is deleted); recorded in the event log. */
export async function resetTemplate(tx: DbOrTx, definition: TemplateDefinition, userId: number): Promise<boolean> {
  const deleted = await tx.delete(templates).where(eq(templates.internalname, definition.internalname)).returning({ filename: templates.filename });
  await recordEvent(tx, {
    type: 'update',
    userId,
    resource: 'template',
    recordId: definition.id,
    message: deleted[0]
      ? `Template ${definition.internalname} (${definition.displayname}) reset to the built-in default (the upload "${deleted[0].filename}" removed)`
      : `Template ${definition.internalname} (${definition.displayname}) reset: it was the built-in default already`,
  });
  return deleted.length > 0;
}
