import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { APP_VERSION, EVENT_TYPE_IDS } from '@app/contracts';
import { logEvents, storedFiles, templates } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, userWithToken } from '../../test/factories.js';
import { pdfText, sha256 } from '../../test/files.js';
import { readStoredFile } from '../files/stored-files.js';
import { withPreviewMemory } from '../preview-memory.js';
import { createStoredPdf, renderPdf } from '../templates/pdf.js';
import { renderMail } from '../templates/store.js';
import { DEFAULTS_DIR, TEMPLATES } from '../templates/registry.js';

const t = await setupTestApp({ OFFICE_NAME: 'Stipendienbüro Süd', OFFICE_ADDRESS: 'Kaiserstraße 7|76131 Karlsruhe' });
type Caller = Awaited<ReturnType<typeof userWithToken>>;
let developer: Caller;
let admin: Caller;
let user: Caller;
let reader: Caller;
beforeAll(async () => {
  developer = await userWithToken(t.app, t.db, 'Developer');
  admin = await userWithToken(t.app, t.db, 'Administrator');
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});

const api = (method: 'get' | 'post', url: string, caller: Caller = admin) => t.http()[method](`/api/v1.0${url}`).set('Authorization', `Bearer ${caller.token}`);
const getTemplate = (internalname: string, caller: Caller = admin) => api('post', '/config/get_template', caller).send({ internalname }).buffer(true).parse(binaryParser);
const upload = (internalname: string, content: string | Buffer, filename = `${internalname}.liquid`, caller: Caller = admin) =>
  api('post', `/config/import/?internalname=${encodeURIComponent(internalname)}`, caller).attach('file', Buffer.from(content), { filename, contentType: 'text/plain' });
const defaultBytes = (internalname: string) => readFileSync(path.join(DEFAULTS_DIR, `${internalname}.liquid`));

async function lastEvent(type: 'update' | 'export' = 'update') {
  const [event] = await t.db
    .select()
    .from(logEvents)
    .where(and(eq(logEvents.resource, 'template'), eq(logEvents.eventtype_id, EVENT_TYPE_IDS[type])))
    .orderBy(desc(logEvents.id))
    .limit(1);
  return event!;
}

const GOOD_MAIL = 'subject: Ihre Rechnung {{ invoice.number }}\r\n--- text ---\r\nGuten Tag {{ student.name }}, Straße: ß, Betrag {{ invoice.total | money }}\r\n';

describe('GET /config', () => {
  it('answers the version, the Email settings without the password, and every template to Developers and Administrators', async () => {
    await t.db.execute(sql`insert into email_settings (id, smtp_servername, smtp_port, smtp_password, from_email_address)
      values (1, 'smtp.example.org', 587, 'very-secret-pw', 'office@example.org')
      on conflict (id) do update set smtp_password = excluded.smtp_password, smtp_servername = excluded.smtp_servername`);
    // The Email settings are a Developer's (the Email tab and /config/email): an Administrator gets none here.
    const forAdmin = await api('get', '/config', admin);
    expect(forAdmin.status).toBe(200);
    expect(forAdmin.body.email_config).toBeNull();
    expect(forAdmin.text).not.toContain('smtp_servername');
    expect(forAdmin.body.templates).toHaveLength(TEMPLATES.length);
    {
      const caller = developer;
      const res = await api('get', '/config', caller);
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(APP_VERSION);
      expect(res.body.email_config).toMatchObject({ smtp_servername: 'smtp.example.org', smtp_port: 587, smtp_password_set: true, from_email_address: 'office@example.org' });
      expect(res.body.email_config).not.toHaveProperty('smtp_password');
      expect(res.text).not.toContain('very-secret-pw');
      expect(res.body.templates).toHaveLength(TEMPLATES.length);
      expect(res.body.templates[0]).toEqual({
        id: 1,
        internalname: 'invoice_pdf',
        displayname: 'Invoice (PDF)',
        filename: 'invoice_pdf.liquid',
        kind: 'pdf',
        customised: false,
        uploaded_timestamp: null,
        uploaded_user: null,
        variables: expect.any(Array),
      });
      // What a designer can write, with examples: the sample's fields, list entries, the office from the settings.
      const variables = new Map(res.body.templates[0].variables.map((v: { name: string; example: string }) => [v.name, v.example]));
      expect(variables.get('student.name')).toBe('Łukasz Wiśniewski');
      expect(variables.get('invoice.lines')).toBe('a list of 2');
      expect(variables.get('invoice.lines[].amount')).toBe('1234.56');
      expect(variables.get('office.name')).toBe('Stipendienbüro Süd');
      expect(variables.get('office.address_lines[]')).toBe('Kaiserstraße 7');
      // A variant's fields are listed too (the invoice mail's credited and paid).
      const mail = res.body.templates.find((x: { internalname: string }) => x.internalname === 'invoice_email');
      expect(mail.variables.map((v: { name: string }) => v.name)).toEqual(expect.arrayContaining(['invoice.credited', 'invoice.paid', 'invoice.open_amount']));
      const names = res.body.templates.map((x: { internalname: string }) => x.internalname);
      for (const name of ['credit_note_pdf', 'payment_confirmation_pdf', 'student_agreement_pdf', 'invoice_email', 'reminder_email', 'payment_confirmation_email', 'bankinfo_request_email', 'pf_status_email', 'payment_info_email', 'refund_request_email', 'test_email']) {
        expect(names).toContain(name);
      }
      // The credit note's own mail (decision 039): a credit note asks for no payment.
      expect(res.body.templates.find((x: { internalname: string }) => x.internalname === 'credit_note_email')).toEqual({
        id: 13,
        internalname: 'credit_note_email',
        displayname: 'E-mail: credit note',
        filename: 'credit_note_email.liquid',
        kind: 'mail',
        customised: false,
        uploaded_timestamp: null,
        uploaded_user: null,
        variables: expect.arrayContaining([{ name: 'credit_note.invoice_open', example: '100' }]),
      });
    }
  });

  it('is refused to Users and Readers (403), who may still read the version', async () => {
    for (const caller of [user, reader]) {
      expect((await api('get', '/config', caller)).status).toBe(403);
      expect((await api('get', '/config/version', caller)).body).toEqual({ version: APP_VERSION });
    }
  });
});

describe('POST /config/get_template', () => {
  it('answers the built-in default byte for byte, to every logged-in role, and records the download', async () => {
    for (const caller of [developer, admin, user, reader]) {
      const res = await getTemplate('invoice_pdf', caller);
      expect(res.status).toBe(200);
      expect(sha256(res.body as Buffer)).toBe(sha256(defaultBytes('invoice_pdf')));
      expect(res.headers['content-disposition']).toContain('filename="invoice_pdf.liquid"');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect(await lastEvent('export')).toMatchObject({ eventtype_id: EVENT_TYPE_IDS.export, usr_id: reader.id, le_message: 'Template invoice_pdf downloaded (built-in default)' });
  });

  it('answers 404 for an unknown template and 400 naming internalname for a bad body', async () => {
    const unknown = await api('post', '/config/get_template').send({ internalname: 'no_such_template' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual({ internalname: ['no template "no_such_template"'] });
    const missing = await api('post', '/config/get_template').send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.internalname).toBeDefined();
    const extra = await api('post', '/config/get_template').send({ internalname: 'invoice_pdf', path: '/etc/passwd' });
    expect(extra.status).toBe(400);
    expect(extra.body.errors.path).toBeDefined();
    expect((await api('post', '/config/get_template').send({ internalname: '../../package.json' })).status).toBe(400);
  });
});

describe('template upload', () => {
  it('keeps an upload that renders with the sample, answers it byte for byte, and records who uploaded it', async () => {
    const res = await upload('invoice_email', GOOD_MAIL, 'Rechnung Łódź.liquid');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ internalname: 'invoice_email', customised: true, uploaded_user: 'Test Administrator' });
    const back = await getTemplate('invoice_email', reader);
    expect((back.body as Buffer).equals(Buffer.from(GOOD_MAIL))).toBe(true);
    expect(await lastEvent()).toMatchObject({
      eventtype_id: EVENT_TYPE_IDS.update,
      usr_id: admin.id,
      record_id: 5,
      le_message: `Template invoice_email (E-mail: invoice) uploaded: "Rechnung Łódź.liquid", ${Buffer.byteLength(GOOD_MAIL)} bytes (was the built-in default)`,
    });
    const listed = (await api('get', '/config')).body.templates.find((x: { internalname: string }) => x.internalname === 'invoice_email');
    expect(listed.customised).toBe(true);
  });

  it("a file named as another template is refused: the invoice's template uploaded as the payment confirmation", async () => {
    const invoicePdf = defaultBytes('invoice_pdf');
    for (const filename of ['invoice_pdf.liquid', 'Invoice_PDF (2).txt', 'copy of invoice_pdf-v2.liquid']) {
      const res = await upload('payment_confirmation_pdf', invoicePdf, filename);
      expect(res.status, filename).toBe(400);
      expect(res.body.errors.file[0]).toBe(
        `"${filename}" is named as the template invoice_pdf (Invoice (PDF)), not payment_confirmation_pdf (Payment confirmation (PDF)): upload it in the row of Invoice (PDF), or rename the file if it really is meant for Payment confirmation (PDF)`,
      );
    }
    expect(await t.db.select().from(templates).where(eq(templates.internalname, 'payment_confirmation_pdf'))).toEqual([]);
    // A name that mentions the template itself, or no template, is taken at its word.
    const confirmation = defaultBytes('payment_confirmation_pdf');
    expect((await upload('payment_confirmation_pdf', confirmation, 'payment_confirmation_pdf (from invoice_pdf).liquid')).status).toBe(200);
    expect((await upload('payment_confirmation_pdf', confirmation, 'confirmation-2026.liquid')).status).toBe(200);
    await api('post', '/config/reset_template').send({ internalname: 'payment_confirmation_pdf' });
  });

  it('a syntax error is a 400 with the engine message and its line, and the stored template stays', async () => {
    expect((await upload('reminder_email', GOOD_MAIL)).status).toBe(200);
    const broken = 'subject: Reminder\n--- text ---\nDear {{ student.name }},\n{% for x in invoice.lines %}\nno endfor\n';
    const res = await upload('reminder_email', broken);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^The template does not render with its sample data: line 4: .*for.* not closed/i);
    expect(res.body.errors.file[0]).toMatch(/^line 4: /);
    expect(((await getTemplate('reminder_email')).body as Buffer).equals(Buffer.from(GOOD_MAIL))).toBe(true);
  });

  it('an undefined variable is refused with its line; the built-in default stays', async () => {
    const res = await upload('payment_info_email', 'subject: x\n--- text ---\n\n{{ invoice.numbr }}\n');
    expect(res.status).toBe(400);
    expect(res.body.errors.file).toEqual(['line 4: undefined variable: invoice.numbr (column 4); invoice has number, date, due_date, description, lines, total, open_amount']);
    expect(sha256((await getTemplate('payment_info_email')).body as Buffer)).toBe(sha256(defaultBytes('payment_info_email')));
  });

  it.each([
    ['constructor', '{{ student.constructor.name }}'],
    ['__proto__', '{{ student.__proto__ }}'],
    ['process', '{{ process.env.DATABASE_URL }}'],
    ['a file (include)', "{% include '/etc/passwd' %}"],
    ['a file (render)', "{% render '../../package.json' %}"],
  ])('a template that reaches for %s is refused and nothing of it is stored', async (_what, expression) => {
    const before = await t.db.select().from(templates).where(eq(templates.internalname, 'bankinfo_request_email'));
    const res = await upload('bankinfo_request_email', `subject: Bank details\n--- text ---\nDear {{ student.name }}: ${expression}\n`);
    expect(res.status).toBe(400);
    expect(res.body.errors.file[0]).toMatch(/^line 3: (undefined variable|tag "(include|render)" not found)/);
    expect(await t.db.select().from(templates).where(eq(templates.internalname, 'bankinfo_request_email'))).toEqual(before);
    expect(sha256((await getTemplate('bankinfo_request_email')).body as Buffer)).toBe(sha256(defaultBytes('bankinfo_request_email')));
  });

  it('a template that renders with the sample but not with the shapes real data takes is refused, naming the line and the shape', async () => {
    // The sample invoice has two lines; a real one has one.
    const second = await upload('invoice_email', 'subject: Invoice {{ invoice.number }}\n--- text ---\nDear {{ student.name }},\n{{ invoice.lines[1].description }}\n');
    expect(second.status).toBe(400);
    expect(second.body.message).toBe('The template does not render with its sample data shaped as real data can be (one line per list): line 4: undefined variable: invoice.lines.1 (column 4)');
    expect(second.body.errors.file).toEqual(['line 4: undefined variable: invoice.lines.1 (column 4), with one line per list']);
    // A branch the sample never takes: an invoice paid in full.
    const paid = await upload('invoice_email', 'subject: x\n--- text ---\nDear {{ student.name }},\n{% if invoice.open_amount > 0 %}Pay.{% else %}{{ invoice.receipt_number }}{% endif %}\n');
    expect(paid.status).toBe(400);
    expect(paid.body.errors.file).toEqual(['line 4: undefined variable: invoice.receipt_number (column 50); invoice has number, date, due_date, description, lines, total, open_amount, credit_notes, credited, paid, with paid in full']);
    // A document is laid out with each shape too.
    const pdf = await upload('credit_note_pdf', 'title: Credit {{ credit_note.number }}\n--- lines ---\nDescription | Amount\n{{ credit_note.lines[0].description }} | {{ credit_note.total | money }}\n{% if student.iban == "" %}{{ student.bank_name }}{% endif %}\n');
    expect(pdf.status).toBe(400);
    expect(pdf.body.errors.file[0]).toMatch(/^line 5: undefined variable: student\.bank_name .*, with a student without bank account$/);
    expect(await t.db.select().from(templates).where(eq(templates.internalname, 'credit_note_pdf'))).toEqual([]);
  });

  it('the credit note mail is downloaded, uploaded and reset like every template', async () => {
    expect(sha256((await getTemplate('credit_note_email', user)).body as Buffer)).toBe(sha256(defaultBytes('credit_note_email')));
    const mine = 'subject: Gutschrift {{ credit_note.number }}\n--- text ---\n{{ credit_note.amount | money }} für {{ credit_note.invoice_number }}, offen: {{ credit_note.invoice_open | money }}\n';
    expect((await upload('credit_note_email', mine)).status).toBe(200);
    expect(((await getTemplate('credit_note_email')).body as Buffer).toString('utf8')).toBe(mine);
    expect((await api('post', '/config/reset_template').send({ internalname: 'credit_note_email' })).body).toMatchObject({ customised: false });
  });

  it('a document template is checked as a PDF too: a missing title is refused', async () => {
    const res = await upload('invoice_pdf', '--- intro ---\nHello {{ student.name }}\n');
    expect(res.status).toBe(400);
    expect(res.body.errors.file[0]).toMatch(/title/);
  });

  it('refuses a bad request with a 4xx naming the field, before or without storing anything', async () => {
    expect((await upload('no_such_template', GOOD_MAIL)).status).toBe(404);
    const noName = await api('post', '/config/import/').attach('file', Buffer.from(GOOD_MAIL), { filename: 'x.liquid', contentType: 'text/plain' });
    expect(noName.status).toBe(400);
    expect(noName.body.errors.internalname).toBeDefined();
    const binary = await upload('invoice_email', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'x.liquid');
    expect(binary.status).toBe(400);
    expect(binary.body.errors.file).toBeDefined();
    const wrongField = await api('post', '/config/import/?internalname=invoice_email').attach('template', Buffer.from(GOOD_MAIL), { filename: 'x.liquid', contentType: 'text/plain' });
    expect(wrongField.status).toBe(400);
    expect((await upload('invoice_email', 'x'.repeat(256 * 1024 + 1))).status).toBe(413);
  });

  it('a file saved in another encoding than UTF-8 is refused saying so, not as audio or an unknown type', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD_MAIL, 'utf16le')]);
    const windows = Buffer.from(GOOD_MAIL.replace('ß', 'ss') + 'f\u00fcr\n', 'latin1');
    for (const [bytes, encoding] of [
      [utf16, 'UTF-16'],
      [windows, 'Windows-1252 or Latin-1'],
    ] as const) {
      const res = await upload('invoice_email', bytes, 'Rechnung.liquid');
      expect(res.status).toBe(400);
      expect(res.body.errors.file).toEqual([`"Rechnung.liquid" is text in ${encoding}, not UTF-8: save it as UTF-8 (in Notepad: Save as, Encoding UTF-8) and upload it again`]);
    }
  });

  it('is refused to Users and Readers', async () => {
    expect((await upload('invoice_email', GOOD_MAIL, 'x.liquid', user)).status).toBe(403);
    expect((await upload('invoice_email', GOOD_MAIL, 'x.liquid', reader)).status).toBe(403);
  });
});

describe('POST /config/reset_template', () => {
  it('goes back to the built-in default and records it', async () => {
    expect((await upload('pf_status_email', 'subject: PF {{ contract.reference }}\n--- text ---\nOpen: {{ pf_status.open | money }}\n', 'mine.liquid', developer)).status).toBe(200);
    const res = await api('post', '/config/reset_template', developer).send({ internalname: 'pf_status_email' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ internalname: 'pf_status_email', customised: false, uploaded_timestamp: null });
    expect(sha256((await getTemplate('pf_status_email')).body as Buffer)).toBe(sha256(defaultBytes('pf_status_email')));
    expect(await lastEvent()).toMatchObject({
      usr_id: developer.id,
      le_message: 'Template pf_status_email (E-mail: participation fee status) reset to the built-in default (the upload "mine.liquid" removed)',
    });
    expect((await api('post', '/config/reset_template', user).send({ internalname: 'pf_status_email' })).status).toBe(403);
    expect((await api('post', '/config/reset_template').send({ internalname: 'nope' })).status).toBe(404);
  });
});

describe('POST /config/check_templates', () => {
  it('answers a zip with every template rendered from its sample and a report', async () => {
    // A template stored before a change of its sample data, say, that no longer renders: reported, not fatal.
    await t.db.insert(templates).values({ internalname: 'refund_request_email', content: 'subject: x\n--- text ---\n{{ refund.iban }}', filename: 'old.liquid' }).onConflictDoNothing();
    // One stored before the check knew the shapes of real data: it renders with the sample, not with one line.
    await t.db
      .insert(templates)
      .values({ internalname: 'pf_status_email', content: 'subject: PF\n--- text ---\nSecond: {{ pf_status.invoices[1].number }}', filename: 'two-lines.liquid' })
      .onConflictDoNothing();
    const res = await api('post', '/config/check_templates').send({}).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('templates-check.zip');
    const zip = await JSZip.loadAsync(res.body as Buffer);
    const names = Object.keys(zip.files).sort();
    const expected = TEMPLATES.filter((d) => !['refund_request_email', 'pf_status_email'].includes(d.internalname)).map((d) => `${d.internalname}.${d.kind === 'pdf' ? 'pdf' : 'eml'}`);
    expect(names).toEqual([...expected, 'report.txt'].sort());

    const report = await zip.file('report.txt')!.async('string');
    // When, as staff read times (spec §9: DD-MM-YYYY HH:mm, the office's zone).
    expect(report).toMatch(/^Template check, \d{2}-\d{2}-\d{4} \d{2}:\d{2}\n/);
    expect(report).toContain('ok     invoice_pdf (Invoice (PDF), built-in default)');
    expect(report).toContain('ok     invoice_email (E-mail: invoice, uploaded)');
    expect(report).toMatch(/ERROR {2}refund_request_email \(.*, uploaded\): line 3: undefined variable: refund\.iban/);
    expect(report).toContain('ERROR  pf_status_email (E-mail: participation fee status, uploaded): line 3: undefined variable: pf_status.invoices.1 (column 12), with one line per list');
    expect(report).toContain(`${TEMPLATES.length - 2} ok, 2 with errors`);
    // The screen is told too, beside the zip: which templates do not render, and why.
    expect(res.headers['x-templates-failed']).toBe('pf_status_email,refund_request_email');
    const said = decodeURIComponent(String(res.headers['x-message']));
    expect(said).toMatch(new RegExp(`^2 of ${TEMPLATES.length} templates do not render: `));
    expect(said).toMatch(/templates do not render: E-mail: participation fee status \(line 3: undefined variable: pf_status\.invoices\.1 .*\); E-mail: request payment information for a refund \(line 3: undefined variable: refund\.iban/);

    const invoice = pdfText(Buffer.from(await zip.file('invoice_pdf.pdf')!.async('uint8array')));
    for (const expectedText of ['Stipendienbüro Süd', 'Kaiserstraße 7', 'Łukasz Wiśniewski', 'Große Straße 12', 'Invoice INV-2024-00017', 'Győr', 'Şişli', '€ 1.234,56', '€ 100,00', '€ 1.334,56', 'page 1 of 1']) {
      expect(invoice, expectedText).toContain(expectedText);
    }
    // The amount column is right-aligned: both amounts end in the same column.
    const amountEnds = invoice
      .split('\n')
      .filter((l) => /(Participation fee winter|administration fee)/.test(l))
      .map((l) => l.trimEnd().length);
    expect(new Set(amountEnds).size).toBe(1);
    const creditPdf = pdfText(Buffer.from(await zip.file('credit_note_pdf.pdf')!.async('uint8array')));
    expect(creditPdf).toContain('€ -1.234,56');
    expect(creditPdf).toContain('page 1 of 1');
    for (const name of ['payment_confirmation_pdf', 'student_agreement_pdf']) {
      const text = pdfText(Buffer.from(await zip.file(`${name}.pdf`)!.async('uint8array')));
      expect(text).toContain('Łukasz Wiśniewski');
      expect(text).toContain('page 1 of 1');
    }

    const eml = await zip.file('invoice_email.eml')!.async('string');
    expect(eml).toContain(`Subject: =?UTF-8?B?${Buffer.from('Ihre Rechnung INV-2024-00017').toString('base64')}?=`);
    const body = /\r\n\r\n([A-Za-z0-9+/=\r\n]+)\r\n--/.exec(eml.split('text/plain')[1]!)![1]!;
    expect(Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe('Guten Tag Łukasz Wiśniewski, Straße: ß, Betrag € 1.334,56');

    // The previews are from the office by name, replies to OFFICE_EMAIL, as the outbox sends them.
    expect(eml).toContain('From: Stipendienbüro Süd <office@example.org>');
    expect(eml).toContain(`Reply-To: ${t.ctx.env.OFFICE_EMAIL}`);
    const credit = await zip.file('credit_note_email.eml')!.async('string');
    expect(credit).toContain(`Subject: =?UTF-8?B?${Buffer.from('Credit note CN-2024-00003 for contract C-2024-0042').toString('base64')}?=`);

    expect(await lastEvent('export')).toMatchObject({ eventtype_id: EVENT_TYPE_IDS.export, le_message: `Templates checked: ${TEMPLATES.length - 2} ok, 2 with errors` });
    expect((await api('post', '/config/check_templates', user).send({})).status).toBe(403);
  });
});

describe('stored PDFs', () => {
  it('a generated PDF is stored and read back byte for byte', async () => {
    const sample = TEMPLATES.find((d) => d.internalname === 'payment_confirmation_pdf')!.sample;
    const stored = await createStoredPdf({ db: t.db, env: t.ctx.env }, 'payment_confirmation_pdf', sample, 'Zahlungsbestätigung Łukasz', admin.id);
    const back = await readStoredFile(t.db, stored.fileId);
    expect(back).toMatchObject({ filename: 'Zahlungsbestätigung Łukasz.pdf', mimeType: 'application/pdf', size: stored.size, sha256: stored.sha256 });
    expect(sha256(back!.content)).toBe(stored.sha256);
    const text = pdfText(back!.content).replace(/\s+/g, ' ');
    expect(text).toContain('we received your payment of € 1.000,00');
    // What is left on the invoice after it (decision 055: the confirmation did not say).
    expect(text).toContain('Still open € 334,56');
    const [row] = await t.db.select({ created_user: storedFiles.created_user }).from(storedFiles).where(eq(storedFiles.id, stored.fileId));
    expect(row!.created_user).toBe(admin.id);
  });

  it('a template that no longer renders with real data is a 500 that names the template and line, not a crash', async () => {
    await t.db
      .insert(templates)
      .values({ internalname: 'credit_note_pdf', content: 'title: Credit\n--- intro ---\n{{ credit_note.reason_text }}', filename: 'old.liquid' })
      .onConflictDoNothing();
    const sample = TEMPLATES.find((d) => d.internalname === 'credit_note_pdf')!.sample;
    const failed = await renderPdf({ db: t.db, env: t.ctx.env }, 'credit_note_pdf', sample).catch((e: unknown) => e);
    expect(failed).toMatchObject({
      status: 500,
      message: 'Credit note (PDF): the uploaded template credit_note_pdf does not render (line 3: undefined variable: credit_note.reason_text (column 4); credit_note has number, date, invoice_number, reason, lines, total); check it on the Configuration screen',
    });
    const mail = await renderMail({ db: t.db, env: t.ctx.env }, 'test_email', { sent_at: 'now', recipient: 'a@b.c', user: 'Łukasz', server: 'smtp.example.org:25 (none)' });
    expect(mail.subject).toBe('Test mail from Stipendienbüro Süd');
    expect(mail.html).toContain('<p>This is a test mail, sent on now by Łukasz to a@b.c through smtp.example.org:25 (none).</p>');
  });

  it("a preview's row renders the template's text but lays out no PDF: an empty file, which its rollback takes back; a template that fails on the data still refuses it (decision 063)", async () => {
    const sample = TEMPLATES.find((d) => d.internalname === 'invoice_pdf')!.sample;
    const previewed = await withPreviewMemory(new Map(), () => createStoredPdf({ db: t.db, env: t.ctx.env }, 'invoice_pdf', sample, 'preview', null));
    expect(previewed.size).toBe(0);
    expect((await readStoredFile(t.db, previewed.fileId))!.content.length).toBe(0);
    const real = await createStoredPdf({ db: t.db, env: t.ctx.env }, 'invoice_pdf', sample, 'real', null);
    expect(pdfText((await readStoredFile(t.db, real.fileId))!.content)).toContain('Invoice');
    await t.db
      .insert(templates)
      .values({ internalname: 'credit_note_pdf', content: 'title: Credit\n--- intro ---\n{{ credit_note.reason_text }}', filename: 'old.liquid' })
      .onConflictDoNothing();
    const creditSample = TEMPLATES.find((d) => d.internalname === 'credit_note_pdf')!.sample;
    const failed = await withPreviewMemory(new Map(), () => createStoredPdf({ db: t.db, env: t.ctx.env }, 'credit_note_pdf', creditSample, 'preview', null)).catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 500, message: expect.stringContaining('the uploaded template credit_note_pdf does not render (line 3: undefined variable: credit_note.reason_text') });
  });

  it('a PDF with more lines than a page holds gets the header again and "page x of y" on every page', async () => {
    const sample = TEMPLATES.find((d) => d.internalname === 'invoice_pdf')!.sample as { invoice: Record<string, unknown> };
    const lines = Array.from({ length: 70 }, (_, i) => ({ description: `Line ${i + 1}: Straße Łódź`, amount: 10 + i }));
    const stored = await createStoredPdf({ db: t.db, env: t.ctx.env }, 'invoice_pdf', { ...sample, invoice: { ...sample.invoice, lines } }, 'long', null);
    const text = pdfText((await readStoredFile(t.db, stored.fileId))!.content);
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => expect(page).toContain(`page ${i + 1} of ${pages.length}`));
    expect(pages[1]).toMatch(/Description\s+Amount/);
    expect(text).toContain('Line 70: Straße Łódź');
  });
});
