import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.js';
import { renderAllShapes } from './check.js';
import { TemplateError } from './engine.js';
import { DEFAULTS_DIR, shapesOf, TEMPLATES, templateDefinition } from './registry.js';
import { refusal, renderText } from './store.js';
import { pdfOf } from './pdf.js';
import { pdfText } from '../../test/files.js';

const env = loadEnv({ NODE_ENV: 'test' });
const definition = (name: string) => templateDefinition(name)!;

describe('the shapes of data a template must render with', () => {
  it('are the sample, one line per list, a student without bank account and the declared variants', () => {
    expect(shapesOf(definition('invoice_email')).map((s) => s.shape)).toEqual(['sample', 'one line per list', 'a student without bank account', 'nothing credited or paid', 'paid in full']);
    const oneLine = shapesOf(definition('invoice_pdf')).find((s) => s.shape === 'one line per list')!.data as { invoice: { lines: unknown[] }; student: { address_lines: unknown[] } };
    expect(oneLine.invoice.lines).toHaveLength(1);
    expect(oneLine.student.address_lines).toHaveLength(1);
    // The sample itself is left as it is.
    expect((definition('invoice_pdf').sample as { invoice: { lines: unknown[] } }).invoice.lines).toHaveLength(2);
    expect(shapesOf(definition('test_email')).map((s) => s.shape)).toEqual(['sample']);
  });

  it.each(TEMPLATES.map((d) => [d.internalname]))('the built-in %s renders with every one of them', async (name) => {
    const text = readFileSync(path.join(DEFAULTS_DIR, definition(name).filename), 'utf8');
    await expect(renderAllShapes(env, definition(name), text)).resolves.toBeDefined();
  });

  it('a template reaching for the second line passes with the sample but is refused, naming the line and the shape', async () => {
    const text = 'subject: Invoice {{ invoice.number }}\n--- text ---\nDear {{ student.name }},\n{{ invoice.lines[1].description }}\n';
    const failed = await renderAllShapes(env, definition('invoice_email'), text).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TemplateError);
    expect((failed as TemplateError).shape).toBe('one line per list');
    const answer = refusal(failed as TemplateError);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/^The template does not render with its sample data shaped as real data can be \(one line per list\): line 4: undefined variable: invoice\.lines\.1 \(column 4\)$/);
    expect(answer.errors?.file?.[0]).toMatch(/^line 4: .*, with one line per list$/);
  });

  it('a branch the sample never takes is rendered too: paid in full, nothing credited', async () => {
    const paidBranch = 'subject: x\n--- text ---\nDear {{ student.name }}, {% if invoice.open_amount <= 0 %}{{ invoice.receipt }}{% endif %}\n';
    expect(((await renderAllShapes(env, definition('invoice_email'), paidBranch).catch((e: unknown) => e)) as TemplateError).shape).toBe('paid in full');
    const bankBranch = 'subject: x\n--- text ---\nDear {{ student.name }}, {% if student.iban == "" %}{{ student.bank }}{% endif %}\n';
    expect(((await renderAllShapes(env, definition('bankinfo_request_email'), bankBranch).catch((e: unknown) => e)) as TemplateError).shape).toBe('a student without bank account');
  });
});

describe('the built-in credit note PDF', () => {
  const text = readFileSync(path.join(DEFAULTS_DIR, definition('credit_note_pdf').filename), 'utf8');
  const rendered = async (shape: string) => {
    const { data } = shapesOf(definition('credit_note_pdf')).find((s) => s.shape === shape)!;
    return pdfText(await pdfOf(env, await renderText(env, 'pdf', text, data))).replace(/\s+/g, ' ');
  };

  it('names the account a refund goes to, and without one says the office will ask for it', async () => {
    expect(await rendered('sample')).toMatch(/refunded to your account [A-Z]{2}\d{2}/);
    expect(await rendered('a student without bank account')).toContain('refunded to you: we will ask you for the account it should go to.');
  });
});
