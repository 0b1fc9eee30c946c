import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.js';
import { TemplateError } from './engine.js';
import { renderTemplateText } from './formats.js';
import { renderText } from './store.js';

const env = loadEnv({ NODE_ENV: 'test', OFFICE_NAME: 'Büro für Stipendien', OFFICE_ADDRESS: 'Hauptstraße 5 | 10115 Berlin' });
const data = { student: { name: 'Łukasz Wiśniewski', address_lines: ['Große Straße 12', '80331 München'] }, amount: 1234.56 };

async function refusal(kind: 'mail' | 'pdf', text: string, given: Record<string, unknown> = data): Promise<TemplateError> {
  try {
    await renderTemplateText(kind, text, given);
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  throw new Error(`rendered: ${text}`);
}

describe('the template engine', () => {
  it('renders a mail: subject, text and html, values escaped in the HTML only', async () => {
    const mail = await renderTemplateText('mail', 'subject: Hallo {{ student.name }}\n--- text ---\nA <b>{{ amount | money }}</b>\n--- html ---\n<p>{{ student.name }} & {{ tag }}</p>\n', { ...data, tag: '<script>' });
    expect(mail).toEqual({ subject: 'Hallo Łukasz Wiśniewski', text: 'A <b>€ 1.234,56</b>', html: '<p>Łukasz Wiśniewski & &lt;script&gt;</p>' });
  });

  it('a value with a line break cannot add a head line or a section', async () => {
    const mail = await renderTemplateText('mail', 'subject: {{ evil }}\n--- text ---\n{{ evil }}\n', { evil: 'x\nsubject: forged\n--- html ---\n<b>' });
    expect(mail.subject).toBe('x subject: forged --- html --- <b>');
    expect(mail.html).toBeUndefined();
  });

  it('gives the office from the settings to every template', async () => {
    const mail = await renderText(env, 'mail', 'subject: {{ office.name }}\n--- text ---\n{{ office.address_lines | join: "/" }}', {});
    expect(mail).toEqual({ subject: 'Büro für Stipendien', text: 'Hauptstraße 5/10115 Berlin' });
  });

  it('lays a document out into title, references, address, table and totals', async () => {
    const text = await renderTemplateText(
      'pdf',
      'title: Invoice 7\nreference: Date | 05-03-2024\n--- address ---\n{{ student.name }}\n{% for l in student.address_lines %}{{ l }}\n{% endfor %}\n--- lines ---\nWhat | Amount\nFee A|B | {{ amount | money }}\n--- totals ---\nTotal | {{ amount | money }}\n--- payment ---\nPay.\n',
      data,
    );
    expect(text).toMatchObject({
      title: 'Invoice 7',
      references: [{ label: 'Date', value: '05-03-2024' }],
      address: ['Łukasz Wiśniewski', 'Große Straße 12', '80331 München'],
      table: { header: { text: 'What', amount: 'Amount' }, rows: [{ text: 'Fee A|B', amount: '€ 1.234,56' }] },
      totals: [{ text: 'Total', amount: '€ 1.234,56' }],
      payment: 'Pay.',
    });
  });

  it('a syntax error names its line in the file', async () => {
    const err = await refusal('mail', 'subject: x\n--- text ---\nline 3\n{% if student.name %}never closed\n');
    expect(err.line).toBe(4);
    expect(err.message).toMatch(/^line 4: .*tag .*if.* not closed/i);
  });

  it('an output left open is an error naming its line, not a sentence swallowed up to the next one (decision 054)', async () => {
    const err = await refusal('mail', 'subject: x\n--- text ---\nDear {{ student.name ,\nwe need your bank details, {{ student.name }}.\n');
    expect(err.line).toBe(3);
    expect(err.message).toBe('line 3: "{{ student.name ," is not closed with }} before the next {{ or {%');
    expect((await refusal('mail', 'subject: x\n--- text ---\n{% if amount %}x\n')).line).toBe(3);
  });

  it('an unknown variable or filter is an error, not an empty string', async () => {
    expect((await refusal('mail', 'subject: x\n--- text ---\n\n{{ student.nmae }}')).message).toMatch(/^line 4: undefined variable: student\.nmae/);
    expect((await refusal('mail', 'subject: x\n--- text ---\n{{ student.name | shout }}')).message).toMatch(/^line 3: undefined filter: shout/);
  });

  it.each([
    ['constructor', '{{ student.constructor }}'],
    ['constructor by index', '{% assign c = student["constructor"] %}{{ c.name }}'],
    ['__proto__', '{{ student.__proto__ }}'],
    ['a prototype method', '{{ student.toString }}'],
    ['process', '{{ process.env.DATABASE_URL }}'],
    ['the global object', '{{ global.process }}{{ globalThis }}'],
    ['constructor in a condition', '{% if student.constructor %}reached{% endif %}'],
    ['constructor behind default', '{{ student.constructor | default: "reached" }}'],
  ])('a template reaching for %s renders nothing of it', async (_what, expression) => {
    const err = await refusal('mail', `subject: x\n--- text ---\n${expression}`);
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/undefined variable/);
  });

  it.each([
    ['include', "{% include '/etc/passwd' %}"],
    ['render', "{% render 'invoice_pdf.liquid' %}"],
    ['layout', "{% layout '../../../package.json' %}"],
  ])('a template cannot read a file with %s', async (tag, statement) => {
    const err = await refusal('mail', `subject: x\n--- text ---\n${statement}`);
    expect(err.message).toBe(`line 3: tag "${tag}" not found (column 1)`);
  });

  it('sees only the values of the data: functions and class instances are gone', async () => {
    class Secretive {
      visible = 'shown';
      get hidden() {
        return 'getter';
      }
    }
    const given = { obj: new Secretive(), fn: () => 'called', when: new Date('2024-03-05T00:00:00Z') };
    const mail = await renderText(env, 'mail', 'subject: x\n--- text ---\n{{ obj.visible }} {{ when }}', given);
    expect(mail.text).toBe('shown 2024-03-05T00:00:00.000Z');
    await expect(renderText(env, 'mail', 'subject: x\n--- text ---\n{{ fn }}', given)).rejects.toThrow(/undefined variable: fn/);
    await expect(renderText(env, 'mail', 'subject: x\n--- text ---\n{{ obj.hidden }}', given)).rejects.toThrow(/undefined variable: obj\.hidden/);
  });

  it('a render that runs away is stopped, in words a designer understands', async () => {
    const err = await refusal('mail', 'subject: x\n--- text ---\n{% for i in (1..100000000) %}{{ i }}{% endfor %}');
    expect(err.message).toMatch(/takes longer than a second|needs too much memory/);
    expect(err.message).not.toMatch(/limit exceeded/);
  });

  it.each([
    ['a group of fields', '{{ student }}', /line 3: \{\{ … \}\} writes a group of fields, not one value: name one of them \(name, address_lines\)/],
    ['a list', '{{ student.address_lines }}', /line 3: \{\{ … \}\} writes a list, not one value: go through it with \{% for x in … %\}/],
    ['no number', '{{ amount | divided_by: 0 }}', /line 3: \{\{ … \}\} writes Infinity, which is no number \(a division by zero\?\)/],
  ])('writing %s is refused, saying what to write instead (raw JSON reached a mail)', async (_what, expression, message) => {
    const err = await refusal('mail', `subject: x\n--- text ---\n${expression}`);
    expect(err.message).toMatch(message);
    // What the designer can write instead renders.
    const mail = await renderText(env, 'mail', 'subject: x\n--- text ---\n{{ student.name }}: {{ student.address_lines | join: ", " }}', data);
    expect(mail.text).toBe('Łukasz Wiśniewski: Große Straße 12, 80331 München');
  });

  it('{% raw %} holds text with {{ in it: it is not an output left open', async () => {
    const mail = await renderText(env, 'mail', 'subject: x\n--- text ---\n{% raw %}Write {{ student.name into it{% endraw %}, {{ student.name }}', data);
    expect(mail.text).toBe('Write {{ student.name into it, Łukasz Wiśniewski');
  });

  it('a template that writes too much is refused', async () => {
    const err = await refusal('mail', 'subject: x\n--- text ---\n{% for i in (1..60000) %}0123456789{% endfor %}');
    expect(err.message).toBe('line 3: renders to more than 500000 characters');
  });

  it('refuses the wrong shape: no subject, no text, an unknown section or head line, no title', async () => {
    expect((await refusal('mail', '--- text ---\nbody')).message).toMatch(/subject/);
    expect((await refusal('mail', 'subject: x\n')).message).toMatch(/--- text ---/);
    expect((await refusal('mail', 'subject: x\n--- text ---\nbody\n--- footer ---\n')).message).toMatch(/^line 4: unknown section "--- footer ---"/);
    expect((await refusal('mail', 'subject: x\nfrom: me\n--- text ---\nbody')).message).toMatch(/from: me/);
    expect((await refusal('pdf', '--- intro ---\nHello')).message).toMatch(/title/);
  });
});
