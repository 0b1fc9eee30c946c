import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TemplateInfo } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { adminUser, developerUser, emailConfig, failure, plainUser, readerUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const template = (id: number, internalname: string, displayname: string, kind: 'pdf' | 'mail', customised = false): TemplateInfo => ({
  id,
  internalname,
  displayname,
  filename: `${internalname}.liquid`,
  kind,
  customised,
  uploaded_timestamp: customised ? SEEN : null,
  uploaded_user: customised ? 'Ada Admin' : null,
  variables: [
    { name: 'student.name', example: 'Łukasz Wiśniewski' },
    { name: 'invoice.lines', example: 'a list of 2' },
    { name: 'invoice.lines[].amount', example: '1234.56' },
  ],
});

const templates = [template(1, 'invoice_pdf', 'Invoice (PDF)', 'pdf'), template(5, 'invoice_email', 'E-mail: invoice', 'mail', true)];
const config = (answers: Answers = {}) => ({ 'GET /config': { body: { version: 'v9.9.9', email_config: emailConfig, templates } }, ...answers }) satisfies Answers;

async function openConfig(user = adminUser, answers: Answers = {}) {
  const view = renderApp('/config', stubApi({ ...session(user), ...config(answers) }));
  await screen.findByRole('table', { name: 'Templates' });
  return view;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name.replace(/[()]/g, '\\$&')) });

describe('the Configuration screen', () => {
  it('shows an Administrator the version and the Templates tab, without the Email tab', async () => {
    await openConfig(adminUser);
    expect(screen.getByRole('heading', { name: 'Configuration' })).toBeInTheDocument();
    expect(screen.getByText('Server version v9.9.9')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Templates' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Email' })).not.toBeInTheDocument();
    expect(within(row('Invoice (PDF)')).getByText('Built-in default')).toBeInTheDocument();
    expect(within(row('E-mail: invoice')).getByText('Uploaded')).toBeInTheDocument();
    expect(within(row('Invoice (PDF)')).getByRole('button', { name: 'Reset Invoice (PDF) to default' })).toBeDisabled();
  });

  it('shows a Developer the Email tab too, with the e-mail settings', async () => {
    const { user } = await openConfig(developerUser, { 'GET /config/email': { body: emailConfig } });
    await user.click(screen.getByRole('tab', { name: 'Email' }));
    expect(await screen.findByLabelText(/SMTP server/)).toHaveValue('mail.example.org');
  });

  it('shows the DreamApply tab to a Developer only; its key is write-only and an empty key is not sent', async () => {
    await openConfig(adminUser);
    expect(screen.queryByRole('tab', { name: 'DreamApply' })).not.toBeInTheDocument();
    cleanup();
    const stored = { base_url: 'https://uni.dreamapply.com/api/', api_key_set: true, edit_timestamp: SEEN };
    const { user, api } = await openConfig(developerUser, {
      'GET /config/dream_apply': { body: stored },
      'PUT /config/dream_apply': { body: { ...stored, base_url: 'https://other.dreamapply.com/api/' } },
    });
    await user.click(screen.getByRole('tab', { name: 'DreamApply' }));
    const form = await screen.findByRole('form', { name: 'DreamApply settings' });
    expect(within(form).getByLabelText(/^Base URL/)).toHaveValue('https://uni.dreamapply.com/api/');
    expect(within(form).getByLabelText(/^API key/)).toHaveValue('');
    expect(within(form).getByText('A key is stored: leave empty to keep it')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(within(form).getByLabelText(/^Base URL/));
    await user.type(within(form).getByLabelText(/^Base URL/), 'https://other.dreamapply.com/api/');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.last('PUT /config/dream_apply')!.body).toEqual({ base_url: 'https://other.dreamapply.com/api/', api_key: null }));
  });

  it('keeps typed settings when another tab is opened, and asks before the screen is left with them unsaved', async () => {
    const stored = { base_url: 'https://uni.dreamapply.com/api/', api_key_set: true, edit_timestamp: SEEN };
    const { user, location } = await openConfig(developerUser, { 'GET /config/email': { body: emailConfig }, 'GET /config/dream_apply': { body: stored } });
    await user.click(screen.getByRole('tab', { name: 'Email' }));
    const server = await screen.findByLabelText(/SMTP server/);
    await user.clear(server);
    await user.type(server, 'smtp.typed.example');
    await user.click(screen.getByRole('tab', { name: 'Templates' }));
    await user.click(screen.getByRole('tab', { name: 'Email' }));
    expect(screen.getByLabelText(/SMTP server/)).toHaveValue('smtp.typed.example');

    await user.click(screen.getByRole('link', { name: 'Scholarship Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(dialog).toHaveTextContent('This Configuration has changes that are not saved. Leave without saving them?');
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(location()).toBe('/config');
    expect(screen.getByLabelText(/SMTP server/)).toHaveValue('smtp.typed.example');

    // Typed back as stored: nothing to lose, nothing asked.
    await user.clear(screen.getByLabelText(/SMTP server/));
    await user.type(screen.getByLabelText(/SMTP server/), emailConfig.smtp_servername);
    await user.click(screen.getByRole('link', { name: 'Scholarship Office' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).not.toBeInTheDocument();
  });

  it('is not allowed for Users and Readers, and asks the server nothing', async () => {
    for (const who of [plainUser, readerUser]) {
      const api = stubApi({ ...session(who), ...config() });
      const view = renderApp('/config', api);
      expect(await screen.findByRole('alert')).toHaveTextContent('not allowed');
      expect(api.sent('GET /config')).toHaveLength(0);
      view.unmount();
    }
  });

  it('downloads a template under its name, by its internalname', async () => {
    const { user, api } = await openConfig(adminUser, {
      'POST /config/get_template': { file: { content: new Blob(['subject: x'], { type: 'text/plain' }), filename: 'invoice_email.liquid' } },
    });
    await user.click(screen.getByRole('button', { name: 'Download E-mail: invoice' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /config/get_template')!.body).toEqual({ internalname: 'invoice_email' });
    expect(savedFiles[0]!.filename).toBe('invoice_email.liquid');
    expect(await blobText(savedFiles[0]!.blob)).toBe('subject: x');
  });

  it('keeps Upload disabled until a file is chosen, sends it for the template and reloads the list', async () => {
    const { user, api } = await openConfig(adminUser, { 'POST /config/import/': { body: template(1, 'invoice_pdf', 'Invoice (PDF)', 'pdf', true) } });
    await user.click(screen.getByRole('button', { name: 'Upload Invoice (PDF)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload template: Invoice (PDF)' });
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('Template file'), new File(['title: Rechnung'], 'invoice_pdf.liquid', { type: 'text/plain' }));
    expect(upload).toBeEnabled();
    await user.click(upload);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload template: Invoice (PDF)' })).not.toBeInTheDocument());
    const sent = api.last('POST /config/import/')!;
    expect(sent.query.get('internalname')).toBe('invoice_pdf');
    expect((sent.body as FormData).get('file')).toBeInstanceOf(File);
    expect(api.sent('GET /config')).toHaveLength(2);
    expect(await screen.findByText('Uploaded Invoice (PDF)')).toBeInTheDocument();
  });

  it("shows a refused template's error and line on the file field, and keeps the dialog open", async () => {
    const { user } = await openConfig(adminUser, {
      'POST /config/import/': failure(400, 'The template does not render with its sample data: line 4: tag {% for %} not closed', {
        file: ['line 4: tag {% for %} not closed'],
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Upload E-mail: invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload template: E-mail: invoice' });
    await user.upload(within(dialog).getByLabelText('Template file'), new File(['{% for x in y %}'], 'invoice_email.liquid', { type: 'text/plain' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('line 4: tag {% for %} not closed')).toBeInTheDocument();
  });

  it('resets to the default only after the confirm', async () => {
    const { user, api } = await openConfig(adminUser, { 'POST /config/reset_template': { body: template(5, 'invoice_email', 'E-mail: invoice', 'mail') } });
    await user.click(screen.getByRole('button', { name: 'Reset E-mail: invoice to default' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset to default' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('POST /config/reset_template')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Reset E-mail: invoice to default' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset to default' })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(api.sent('POST /config/reset_template')).toHaveLength(1));
    expect(api.last('POST /config/reset_template')!.body).toEqual({ internalname: 'invoice_email' });
    expect(await screen.findByText('E-mail: invoice is the built-in default again')).toBeInTheDocument();
  });

  it('checks the templates and saves the zip', async () => {
    const { user } = await openConfig(adminUser, {
      'POST /config/check_templates': { file: { content: new Blob(['PK zip'], { type: 'application/zip' }), filename: 'templates-check.zip' } },
    });
    await user.click(screen.getByRole('button', { name: 'Check templates' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('templates-check.zip');
  });

  it('lists the variables a template can use, with examples and how to write them', async () => {
    const { user } = await openConfig(adminUser);
    await user.click(screen.getByRole('button', { name: 'Variables of Invoice (PDF)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Variables: Invoice (PDF)' });
    const rows = within(dialog).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['student.nameŁukasz Wiśniewski', 'invoice.linesa list of 2', 'invoice.lines[].amount1234.56']);
    expect(within(dialog).getByText('{% for line in invoice.lines %}{{ line.amount | money }}{% endfor %}')).toBeInTheDocument();
  });

  it('says which templates do not render, in red, and marks their rows (a green "downloaded" hid them)', async () => {
    const said = '1 of 2 templates do not render: E-mail: invoice (line 3: undefined variable: invoice.numbr (column 4))';
    const { user } = await openConfig(adminUser, {
      'POST /config/check_templates': { file: { content: new Blob(['PK zip'], { type: 'application/zip' }), filename: 'templates-check.zip', message: said, headers: { 'X-Templates-Failed': 'invoice_email' } } },
    });
    await user.click(screen.getByRole('button', { name: 'Check templates' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`${said}. The zip's report.txt has the details.`);
    expect(within(row('E-mail: invoice')).getByText('Does not render')).toBeInTheDocument();
    expect(within(row('Invoice (PDF)')).queryByText('Does not render')).not.toBeInTheDocument();
  });

  it('says so when the check fails', async () => {
    const { user } = await openConfig(adminUser, { 'POST /config/check_templates': failure(500, 'Internal server error') });
    await user.click(screen.getByRole('button', { name: 'Check templates' }));
    expect(await screen.findByText('Server error while checking templates')).toBeInTheDocument();
  });
});
