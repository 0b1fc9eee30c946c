import { randomBytes } from 'node:crypto';
import { formatDateTime } from '@app/contracts';
import type { DbOrTx } from '@app/db';
import type { Env } from '../../env.js';
import { senderOf } from '../mail/headers.js';
import { readSmtpSettings } from '../mail/settings.js';
import { TemplateError } from './engine.js';
import type { RenderedMail } from './formats.js';
import { pdfOf } from './pdf.js';
import { shapesOf, TEMPLATES, type TemplateDefinition } from './registry.js';
import { currentTemplate, describeFailure, officeOf, renderText } from './store.js';

/** One file of the check's zip. */
export interface CheckEntry {
  name: string;
  content: Buffer;
}

export interface CheckResult {
  entries: CheckEntry[];
  ok: number;
  /** Each template that does not render, with why (as in the report). */
  failures: { internalname: string; displayname: string; reason: string }[];
}

/** RFC 2047 encoded-word for a header value that may hold any Unicode. */
const encodedWord = (value: string) => `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
const base64Lines = (text: string) => (Buffer.from(text, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');

/**
 * A rendered mail as an .eml preview (text, and HTML when the template has it), to open in any mail program. Only
 * for the check: mails that are sent are composed by the outbox (issue 12 part B).
 */
export function emlPreview(mail: RenderedMail, from: string, to: string, replyTo?: string): Buffer {
  const boundary = `----=_check_${randomBytes(8).toString('hex')}`;
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', base64Lines(body), ''].join('\r\n');
  const head = [
    `From: ${oneLine(from)}`,
    ...(replyTo ? [`Reply-To: ${oneLine(replyTo)}`] : []),
    `To: ${oneLine(to)}`,
    `Subject: ${encodedWord(oneLine(mail.subject))}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    '',
  ].join('\r\n');
  const parts = [part('text/plain', mail.text), ...(mail.html ? [part('text/html', mail.html)] : [])].join('');
  return Buffer.from(`${head}${parts}--${boundary}--\r\n`, 'utf8');
}

/** What a template rendered from its sample is: a PDF's bytes or a mail. */
export type SampleRender = { kind: 'pdf'; pdf: Buffer } | { kind: 'mail'; mail: RenderedMail };

/**
 * Renders a template text with every shape of data it will meet (`shapesOf`: the sample, one line per list, a
 * student without bank account, the definition's variants) and, for a document, lays each out as a PDF. Answers
 * the sample's render; throws the first TemplateError, with `shape` set when it was not the sample. The upload
 * and the check both ask this, so a template accepted by one is accepted by the other.
 */
export async function renderAllShapes(env: Env, definition: TemplateDefinition, text: string): Promise<SampleRender> {
  let first: SampleRender | undefined;
  for (const { shape, data } of shapesOf(definition)) {
    try {
      const rendered: SampleRender =
        definition.kind === 'pdf' ? { kind: 'pdf', pdf: await pdfOf(env, await renderText(env, 'pdf', text, data)) } : { kind: 'mail', mail: await renderText(env, 'mail', text, data) };
      first ??= rendered;
    } catch (err) {
      if (err instanceof TemplateError && shape !== 'sample') err.shape = shape;
      throw err;
    }
  }
  return first!;
}

/**
 * Every template rendered from its sample data, as the check's zip holds them: PDFs as .pdf, mails as .eml, and
 * `report.txt` listing each as ok or with its error. A template that fails is in the report only.
 */
export async function checkTemplates(db: DbOrTx, env: Env, reportName: string): Promise<CheckResult> {
  const entries: CheckEntry[] = [];
  // The previews' From and Reply-To are what the outbox sends (before the settings name a from address, the office's).
  const sender = senderOf(env, (await readSmtpSettings(db)).from_email_address || officeOf(env).email);
  const report: string[] = [`Template check, ${formatDateTime(new Date().toISOString(), env.APP_TIMEZONE)}`, ''];
  let ok = 0;
  const failures: CheckResult['failures'] = [];
  for (const definition of TEMPLATES) {
    const { bytes, customised } = await currentTemplate(db, definition);
    const source = customised ? 'uploaded' : 'built-in default';
    const text = bytes.toString('utf8');
    try {
      const rendered = await renderAllShapes(env, definition, text);
      if (rendered.kind === 'pdf') {
        entries.push({ name: `${definition.internalname}.pdf`, content: rendered.pdf });
      } else {
        entries.push({ name: `${definition.internalname}.eml`, content: emlPreview(rendered.mail, `${sender.from.name} <${sender.from.address}>`, 'recipient@example.org', sender.replyTo) });
      }
      ok++;
      report.push(`ok     ${definition.internalname} (${definition.displayname}, ${source})`);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      failures.push({ internalname: definition.internalname, displayname: definition.displayname, reason: describeFailure(err) });
      report.push(`ERROR  ${definition.internalname} (${definition.displayname}, ${source}): ${describeFailure(err)}`);
    }
  }
  report.push('', `${ok} ok, ${failures.length} with errors`, '');
  entries.push({ name: reportName, content: Buffer.from(report.join('\n'), 'utf8') });
  return { entries, ok, failures };
}
