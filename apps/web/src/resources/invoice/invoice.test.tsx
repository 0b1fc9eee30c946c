import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES, isCreditNoteType } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { adminUser, choiceList, failure, page, plainUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const base = {
  contract_id: 1,
  contract: 'A000001',
  student_id: 1,
  student_name: 'José Müller',
  year: 1,
  semester: 0,
  description: 'Participation fee year 1',
  planned_date: '2026-03-01',
  extended_deadline_date: null,
  email_timestamp: null,
  email_reminder_timestamp: null,
  credit_note: null,
  linked_invoice_id: null,
  linked_invoice_number: null,
  comments: null,
  is_expired: false,
  is_creditnote: false,
  document_type_id: 5,
  document_type: 'Participation fee',
  pro_forma: false,
  payed_amount: 0,
  creation_timestamp: SEEN,
  edit_timestamp: SEEN,
};

const planned = {
  ...base,
  id: 1,
  document_reference: 'A000001-Y1-T5',
  number: null,
  amount: 1234.56,
  total_amount: 1234.56,
  to_be_payed_amount: 1234.56,
  invoice_date: null,
  expiration_date: null,
  is_locked: false,
  pdf_filename: null,
  pdf_timestamp: null,
};

const numbered = {
  ...planned,
  id: 2,
  number: '2026-00001',
  invoice_date: '2026-03-05',
  expiration_date: '2026-04-04',
  is_locked: true,
  pdf_filename: 'Invoice_2026-00001.pdf',
  pdf_timestamp: SEEN,
};

/** The numbered invoice mailed and reminded, each step by someone else (spec §3 audit pairs). */
const audited = {
  ...numbered,
  // Winter and summer time in the office's zone (Europe/Berlin): +1 and +2 hours.
  creation_timestamp: '2026-02-27T23:15:00.000Z',
  creation_user: 'Clara Creator',
  pdf_timestamp: '2026-03-05T08:05:00.000Z',
  pdf_user: 'Pál Pdf-Nyomtató',
  email_timestamp: '2026-03-05T09:30:00.000Z',
  email_user: 'Mia Mailer',
  email_reminder_timestamp: '2026-04-10T06:45:00.000Z',
  edit_user: 'Eddie Editor',
};

function invoiceApi(answers: Answers = {}, user = plainUser) {
  return stubApi({
    ...session(user),
    ...choiceList('contracts', [{ id: 1, name: 'A000001' }]),
    ...choiceList('document_types_invoices', DOCUMENT_TYPES.filter((t) => !isCreditNoteType(t.id)).map((t) => ({ id: t.id, name: t.name }))),
    ...choiceList('document_types_creditnotes', DOCUMENT_TYPES.filter((t) => isCreditNoteType(t.id)).map((t) => ({ id: t.id, name: t.name }))),
    'GET /invoices': page([planned, numbered]),
    'GET /invoices/1': { body: planned },
    'GET /invoices/2': { body: numbered },
    ...answers,
  });
}

/** The e-mails offered on an invoice: its Send Email and Send Reminder buttons that are enabled (the reminder only when due). */
async function mailChoices() {
  const actions = await screen.findByRole('group', { name: 'Actions' });
  return within(actions)
    .getAllByRole('button', { name: /^Send (Email|Reminder)$/ })
    .filter((b) => !(b as HTMLButtonElement).disabled)
    .map((b) => b.textContent);
}

async function sendMail(user: ReturnType<typeof renderApp>['user'], label: 'Send Email' | 'Send Reminder') {
  await user.click(await screen.findByRole('button', { name: label }));
  // Asked first: the e-mail goes to the student (decision 042).
  const dialog = await screen.findByRole('dialog', { name: label });
  expect(dialog).toHaveTextContent("The e-mail goes to the student's address with the PDF attached.");
  await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
}

/** Create PDF, and Yes to its question: the number it takes is not given back (decision 042). */
async function createPdf(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Create PDF' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create PDF' });
  expect(dialog).toHaveTextContent('It takes the next invoice number, which cannot be given back.');
  await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
}

const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼\d]/g, ''))
    .filter((t) => t && t !== 'Actions');

describe('invoice overviews (spec §2)', () => {
  it('planned invoices: the spec columns, the planned flag and the sort by reference', async () => {
    const api = invoiceApi();
    renderApp('/invoices/planned', api);
    expect(await screen.findByRole('heading', { name: 'Planned Invoices' })).toBeInTheDocument();
    await screen.findByText('1-2 of 2');
    expect(headers()).toEqual(['Reference', 'Contract', 'Student Name', 'Year', 'Semester', 'Amount to be paid', 'Description', 'Planned Date', 'Last Edit', 'Comments']);
    const query = api.last('GET /invoices')!.query;
    expect([query.get('planned'), query.get('numbered'), query.get('sort')]).toEqual(['true', null, 'document_reference|asc']);
    expect(screen.getAllByText('€ 1.234,56').length).toBeGreaterThan(0);
  });

  it('numbered invoices: the spec columns, the numbered flag and the sort by number', async () => {
    const api = invoiceApi({ 'GET /invoices': page([numbered]) });
    renderApp('/invoices/numbered', api);
    expect(await screen.findByRole('heading', { name: 'Numbered Invoices' })).toBeInTheDocument();
    await screen.findByText('1-1 of 1');
    expect(headers()).toEqual([
      'Invoice Number', 'Contract', 'Student Name', 'Year', 'Semester', 'Amount invoiced', 'Amount to be paid', 'Amount paid', 'Date',
      'Exp. Date', 'Ext. Deadline', 'Email Sent', 'Reminder Sent', 'Credit Note', 'Last Edit', 'Comments',
    ]);
    const query = api.last('GET /invoices')!.query;
    expect([query.get('numbered'), query.get('sort')]).toEqual(['true', 'number|asc']);
    expect(screen.getByText('05-03-2026')).toBeInTheDocument();
    // Semester 0 reads as on the invoice screen.
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('cell')[headers().indexOf('Semester') + 1]).toHaveTextContent(/^Whole year$/);
  });

  it('numbered invoices: Export Open Invoices sends the view filter and saves Open_Invoices.xlsx', async () => {
    const api = invoiceApi({
      'GET /invoices': page([numbered]),
      'POST /invoices/download_report_open': { file: { content: new Blob(['PK open']), filename: 'Open_Invoices.xlsx' } },
    });
    const { user } = renderApp('/invoices/numbered', api);
    await screen.findByText('1-1 of 1');
    // Spec §2: a cog menu holds Export Selection and Export Open Invoices.
    await user.click(screen.getByRole('button', { name: 'Options' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Export Selection', 'Export Open Invoices']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Export Open Invoices' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /invoices/download_report_open')!.body).toEqual({ filter: { numbered: 'true', sort: 'number|asc' } });
    expect(savedFiles[0]!.filename).toBe('Open_Invoices.xlsx');
  });

  it('numbered invoices: Export Selection of the whole filter says it is being prepared until the file comes', async () => {
    let send!: () => void;
    const api = invoiceApi({
      'GET /invoices': page([numbered]),
      'POST /invoices/download_report': { file: { content: new Blob(['PK all']), filename: 'Invoices.xlsx' }, wait: new Promise<void>((r) => (send = r)) },
    });
    const { user } = renderApp('/invoices/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('button', { name: 'Options' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Export Selection' }));
    const note = await screen.findByText('Preparing Invoices.xlsx for every row of the current filter…');
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(savedFiles).toHaveLength(0);
    send();
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Preparing Invoices.xlsx for every row of the current filter…')).not.toBeInTheDocument());
  });

  it('the Batch menus of the three views (spec §2): Create Invoice on planned; Send Email and Send Email Reminder not on planned', async () => {
    const { user, router } = renderApp('/invoices/planned', invoiceApi());
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Create Invoice']);
    await router.navigate('/invoices/numbered');
    expect(await screen.findByRole('heading', { name: 'Numbered Invoices' })).toBeInTheDocument();
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    const numberedMenu = await screen.findByRole('menu');
    expect(within(numberedMenu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Send Email', 'Send Email Reminder']);
  });

  it('Send Email Reminder starts a previewed batch with reminder true', async () => {
    const api = invoiceApi({
      'GET /invoices': page([numbered]),
      'POST /invoices/batch/send_email': { status: 202, body: { run_id: 7 } },
      'GET /batch_runs/7': { body: { id: 7, action: 'send_email', label: 'Send Email Reminder', status: 'finished', dry_run: true, total: 1, done: 1, failed: 0, rows: [], amount_total: null, totals: [] } },
    });
    const { user } = renderApp('/invoices/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Send Email Reminder' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send Email Reminder' })).getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(api.sent('POST /invoices/batch/send_email')).toHaveLength(1));
    expect(api.last('POST /invoices/batch/send_email')!.body).toMatchObject({ ids: [2], reminder: true, dry_run: true });
  });

  it('credit notes: the spec column titles, no Bulk Edit even for an Administrator', async () => {
    const cn = { ...numbered, id: 3, number: 'CN-2026-00001', is_creditnote: true, document_type_id: 6, linked_invoice_id: 2, linked_invoice_number: '2026-00001' };
    const { user } = renderApp('/invoices/creditnote', invoiceApi({ 'GET /invoices': page([cn]) }, adminUser));
    await screen.findByText('1-1 of 1');
    expect(headers()).toEqual([
      'Number', 'Contract', 'Student Name', 'Year', 'Semester', 'Amount credited', 'Amount to be paid', 'Description', 'Date',
      'Exp. Date', 'Ext. Deadline', 'Email Sent', 'Last Edit', 'Comments',
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Send Email', 'Send Email Reminder']);
  });

  it("a numbered row's New Payment button goes to /invoicepayment/new?invoice_id=…; a planned row has none", async () => {
    renderApp('/invoices/numbered', invoiceApi());
    await screen.findByText('1-2 of 2');
    const links = screen.getAllByRole('link', { name: /^New payment for invoice/ });
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/invoicepayment/new?invoice_id=2');
  });

  it("a contract's link narrows the overview by the route's contract_id", async () => {
    const api = invoiceApi({ 'GET /invoices': page([numbered]) });
    renderApp('/invoices/numbered?contract_id=5', api);
    await screen.findByText('1-1 of 1');
    expect(api.last('GET /invoices')!.query.get('contract_id')).toBe('5');
    expect(api.last('GET /invoices')!.query.get('numbered')).toBe('true');
  });

  it("following a contract's link keeps the plain overview's remembered filter; each keeps its own", async () => {
    const api = invoiceApi({ 'GET /invoices': page([numbered]) });
    const { user, router } = renderApp('/invoices/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.type(screen.getByLabelText('Quick filter'), 'Müller{Enter}');
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('search')).toBe('Müller'));

    await router.navigate('/invoices/numbered?contract_id=5');
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('contract_id')).toBe('5'));
    expect(api.last('GET /invoices')!.query.get('search')).toBeNull();
    expect(screen.getByLabelText('Quick filter')).toHaveValue('');
    await user.type(screen.getByLabelText('Quick filter'), '2026{Enter}');
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('search')).toBe('2026'));

    await router.navigate('/invoices/numbered');
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('contract_id')).toBeNull());
    expect(api.last('GET /invoices')!.query.get('search')).toBe('Müller');
    expect(screen.getByLabelText('Quick filter')).toHaveValue('Müller');
    expect(screen.queryByRole('form', { name: 'Advanced filter' })).not.toBeInTheDocument();

    await router.navigate('/invoices/numbered?contract_id=5');
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('contract_id')).toBe('5'));
    expect(api.last('GET /invoices')!.query.get('search')).toBe('2026');
  });

  it("the Document Type filter offers the credit notes' types on Credit Notes and the invoices' types on the invoice views", async () => {
    const api = invoiceApi({ 'GET /invoices': page([]) });
    const { user, router } = renderApp('/invoices/creditnote', api);
    await screen.findByText('No Data Available');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(screen.getByRole('form', { name: 'Advanced filter' })).getByRole('combobox', { name: /^Document Type/ }));
    const creditNoteTypes = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(creditNoteTypes).toEqual([
      'Credit note for invoice', 'Registration fee cancellation', 'Credit note for participation fee', 'Credit note for administration fee', 'Credit note for transaction fee',
    ]);
    await user.click(screen.getByRole('option', { name: 'Credit note for participation fee' }));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(api.last('GET /invoices')!.query.get('document_type_id')).toBe('6'));
    expect(api.sent('GET /document_types_invoices/choice')).toHaveLength(0);

    await router.navigate('/invoices/numbered');
    expect(await screen.findByRole('heading', { name: 'Numbered Invoices' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(screen.getByRole('form', { name: 'Advanced filter' })).getByRole('combobox', { name: /^Document Type/ }));
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Invoice', 'Registration fee', 'Participation fee', 'Administration fee', 'Transaction fee']));
  });

  it('Enter on a mistyped date in the filter says it is no date and filters nothing (spec §2: Enter filters)', async () => {
    const api = invoiceApi({ 'GET /invoices': page([]) });
    const { user } = renderApp('/invoices/numbered', api);
    await screen.findByText('No Data Available');
    const asked = api.sent('GET /invoices').length;
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    await user.type(within(form).getByLabelText(/^Expired after/), '31-02-2026{Enter}');
    expect(await within(form).findByText('"31-02-2026" is not a date: enter it as DD-MM-YYYY')).toBeInTheDocument();
    expect(api.sent('GET /invoices')).toHaveLength(asked);
  });

  it('credit notes ask with the creditnote flag', async () => {
    const api = invoiceApi({ 'GET /invoices': page([]) });
    renderApp('/invoices/creditnote', api);
    expect(await screen.findByRole('heading', { name: 'Credit Notes' })).toBeInTheDocument();
    await screen.findByText('No Data Available');
    expect(api.last('GET /invoices')!.query.get('creditnote')).toBe('true');
  });
});

describe('invoice detail', () => {
  it('a numbered invoice: Download PDF saves the stored file; frozen fields read-only and Delete disabled with the reason', async () => {
    const api = invoiceApi({
      'POST /invoices/2/download_pdf': { file: { content: new Blob(['%PDF-1.4 invoice'], { type: 'application/pdf' }), filename: 'Invoice_2026-00001.pdf' } },
    });
    const { user } = renderApp('/invoice/numbered/2', api);
    const download = await screen.findByRole('button', { name: 'Download PDF' });
    expect(screen.queryByRole('button', { name: 'Create PDF' })).not.toBeInTheDocument();
    await user.click(download);
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.sent('POST /invoices/2/download_pdf')).toHaveLength(1);
    expect(savedFiles[0]!.filename).toBe('Invoice_2026-00001.pdf');
    expect(await blobText(savedFiles[0]!.blob)).toBe('%PDF-1.4 invoice');
    const remove = screen.getByRole('button', { name: 'Delete' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('Invoice 2026-00001 is numbered and cannot be deleted: correct it with a credit note');
  });

  it('a numbered invoice in edit mode keeps its amount and description read-only', async () => {
    renderApp('/invoice/numbered/2?mode=edit', invoiceApi());
    expect(await screen.findByLabelText(/^Amount$/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Description/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Comments/)).not.toHaveAttribute('readonly');
  });

  it('a planned invoice offers Create PDF, and a failure says "Server error while creating pdf"', async () => {
    const api = invoiceApi({ 'POST /invoices/1/create_pdf': failure(500, 'Internal server error') });
    const { user } = renderApp('/invoice/planned/1', api);
    await screen.findByRole('button', { name: 'Create PDF' });
    expect(screen.queryByRole('button', { name: 'Download PDF' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    await createPdf(user);
    expect(await screen.findByText('Server error while creating pdf')).toBeInTheDocument();
  });

  it('a template that does not render: the spec\'s words, then what the server says is wrong (issue 18 point 4)', async () => {
    const reason = 'Invoice (PDF): the uploaded template invoice_pdf does not render (line 18: undefined variable: invoice.lines.1 (column 70)); check it on the Configuration screen';
    const { user } = renderApp('/invoice/planned/1', invoiceApi({ 'POST /invoices/1/create_pdf': failure(500, reason) }));
    await screen.findByRole('button', { name: 'Create PDF' });
    await createPdf(user);
    expect(await screen.findByText(`Server error while creating pdf: ${reason}`)).toBeInTheDocument();
  });

  it('Create PDF shows the invoice it numbered as a numbered invoice: route, title, Download PDF, Send Email and Overview', async () => {
    const made = { ...numbered, id: 1, document_reference: 'A000001-Y1-T5', edit_timestamp: '2026-03-05T08:05:00.000Z' };
    const api = invoiceApi({ 'POST /invoices/1/create_pdf': { body: made }, 'GET /invoices/1': { body: planned } });
    const { user, location } = renderApp('/invoice/planned/1', api);
    await screen.findByRole('button', { name: 'Create PDF' });
    // Numbered from now on, as the server then answers it.
    api.on('GET /invoices/1', { body: made });
    await createPdf(user);
    await waitFor(() => expect(location()).toBe('/invoice/numbered/1'));
    await waitFor(() => expect(screen.getByRole('heading', { name: /^Numbered Invoice/ })).toHaveTextContent('2026-00001'));
    expect(screen.getByRole('status')).toHaveTextContent('Create PDF: done for Invoice 2026-00001 A000001-Y1-T5');
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send Email' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Create PDF' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    expect(location()).toBe('/invoices/numbered');
  });

  it('numbered by someone else while the user edits it as planned: the typed text stays, Save says why not, a link goes there after the unsaved-changes question, showing it afresh', async () => {
    const message = 'This Invoice was changed by Bob Other at 05-03-2026 09:05 after you opened it.';
    const api = invoiceApi({ 'PUT /invoices/1': failure(409, message) });
    const { user, location } = renderApp('/invoice/planned/1?mode=edit', api);
    const description = await screen.findByLabelText(/^Description/);
    await user.type(description, ' (with the late fee agreed on the phone)');
    api.on('GET /invoices/1', { body: { ...numbered, id: 1, edit_timestamp: '2026-03-05T08:05:00.000Z' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);

    const notice = await screen.findByRole('status', { name: /This Planned Invoice is now a Numbered Invoice/ });
    expect(notice).toHaveTextContent('your changes are not saved');
    expect(location()).toBe('/invoice/planned/1?mode=edit');
    expect(screen.getByLabelText(/^Description/)).toHaveValue(`${planned.description} (with the late fee agreed on the phone)`);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/Description can no longer be changed/);

    await user.click(within(notice).getByRole('link', { name: 'Open the Numbered Invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(location()).toBe('/invoice/numbered/1?mode=edit'));
    expect(await screen.findByRole('heading', { name: /^Numbered Invoice/ })).toHaveTextContent('2026-00001');
    // Shown afresh: the invoice as it is, not the planned view's form with the text left behind.
    await waitFor(() => expect(screen.getByLabelText(/^Number$/)).toHaveValue('2026-00001'));
    expect(screen.getByLabelText(/^Description/)).toHaveValue(planned.description);
    expect(screen.queryByText(/was changed by someone else/)).not.toBeInTheDocument();
    expect(api.sent('PUT /invoices/1')).toHaveLength(1);
  });

  it('an invoice opened under another view’s route is shown under its own (a credit note linked as an invoice)', async () => {
    const cn = { ...numbered, id: 3, number: 'CN-2026-00001', is_creditnote: true, document_type_id: 6, linked_invoice_id: 2, linked_invoice_number: '2026-00001' };
    const { location } = renderApp('/invoice/numbered/3', invoiceApi({ 'GET /invoices/3': { body: cn } }));
    await waitFor(() => expect(location()).toBe('/invoice/creditnote/3'));
    expect(await screen.findByRole('heading', { name: /^Credit Note/ })).toBeInTheDocument();
  });

  it('a credit note shows the invoice it credits, offers Send Email, and neither a credit note of its own nor a reminder', async () => {
    const cn = { ...numbered, id: 3, number: 'CN-2026-00001', is_creditnote: true, document_type_id: 6, linked_invoice_id: 2, linked_invoice_number: '2026-00001' };
    renderApp('/invoice/creditnote/3', invoiceApi({ 'GET /invoices/3': { body: cn } }));
    expect(await screen.findByLabelText(/^Linked Invoice/)).toHaveValue('2026-00001');
    expect(screen.getByRole('button', { name: 'Send Email' })).toBeEnabled();
    expect(await mailChoices()).toEqual(['Send Email']);
    expect(screen.queryByRole('button', { name: 'Create Credit Note' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link Registration Fee' })).not.toBeInTheDocument();
  });

  it("a credit note's Document Type is named from the credit notes' types, an invoice's from the invoices' types", async () => {
    const cn = { ...numbered, id: 3, number: 'CN-2026-00001', is_creditnote: true, document_type_id: 6, linked_invoice_id: 2, linked_invoice_number: '2026-00001' };
    const api = invoiceApi({ 'GET /invoices/3': { body: cn } });
    const { router } = renderApp('/invoice/creditnote/3', api);
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Document Type/ })).toHaveValue('Credit note for participation fee'));
    expect(api.sent('GET /document_types_invoices/choice')).toHaveLength(0);

    await router.navigate('/invoice/numbered/2');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Document Type/ })).toHaveValue('Participation fee'));
    expect(api.sent('GET /document_types_invoices/choice')).toHaveLength(1);
  });

  it('Link Registration Fee asks the fee and shows the linked number the server answers', async () => {
    const inv = { ...numbered, document_type_id: 1 };
    const api = invoiceApi({
      'GET /invoices/2': { body: inv },
      'GET /invoices/choice/search': { body: [{ id: 5, name: '2026-00005 · A000001 · Registration fee' }] },
      'POST /invoices/2/link_registration_id': { body: { ...inv, linked_invoice_id: 5, linked_invoice_number: '2026-00005' } },
    });
    const { user } = renderApp('/invoice/numbered/2', api);
    await user.click(await screen.findByRole('button', { name: 'Link Registration Fee' }));
    const dialog = await screen.findByRole('dialog');
    // The fee is chosen from the server-searched `invoices` list (issue 18 point 2).
    const box = within(dialog).getByRole('combobox', { name: /^Registration fee/ });
    await user.click(box);
    await user.type(box, '2026-00005');
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('search')).toBe('2026-00005'));
    await user.click(await screen.findByRole('option', { name: '2026-00005 · A000001 · Registration fee' }));
    await user.click(within(dialog).getByRole('button', { name: 'Link Registration Fee' }));
    await waitFor(() => expect(screen.getByLabelText(/^Linked Invoice/)).toHaveValue('2026-00005'));
    expect(api.last('POST /invoices/2/link_registration_id')!.body).toEqual({ registration_fee_id: 5 });
  });

  it('Create Credit Note asks amount and description, posts them with the invoice, says it is done and opens the credit note', async () => {
    const api = invoiceApi({
      'POST /invoices': { status: 201, body: { id: 9 } },
      'GET /invoices/9': { body: { ...numbered, id: 9, number: 'CN-2026-00001', is_creditnote: true, document_type_id: 6, amount: 100, linked_invoice_id: 2 } },
    });
    const { user, router } = renderApp('/invoice/numbered/2', api);
    await user.click(await screen.findByRole('button', { name: 'Create Credit Note' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Amount/), '100');
    await user.type(within(dialog).getByLabelText(/^Description/), 'Semester cancelled');
    await user.click(within(dialog).getByRole('button', { name: 'Create Credit Note' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoice/creditnote/9'));
    expect(api.last('POST /invoices')!.body).toEqual({ linked_invoice_id: 2, amount: 100, description: 'Semester cancelled' });
    expect(screen.getByRole('status')).toHaveTextContent(`Create Credit Note: done for Invoice ${numbered.number}`);
  });

  it('a pro-forma registration fee offers Cancel Registration', async () => {
    const fee = { ...numbered, pro_forma: true, document_type_id: 3 };
    renderApp('/invoice/numbered/2', invoiceApi({ 'GET /invoices/2': { body: fee } }));
    expect(await screen.findByRole('button', { name: 'Cancel Registration' })).toBeEnabled();
  });

  it('a fully credited invoice: Create Credit Note disabled with the reason', async () => {
    renderApp('/invoice/numbered/2', invoiceApi({ 'GET /invoices/2': { body: { ...numbered, total_amount: 0, to_be_payed_amount: 0 } } }));
    expect(await screen.findByRole('button', { name: 'Create Credit Note' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create Credit Note' })).toHaveAttribute('data-disabled-reason', 'Invoice 2026-00001 is credited in full');
  });

  it('a paid invoice can still be credited (decision 036): Create Credit Note enabled', async () => {
    renderApp('/invoice/numbered/2', invoiceApi({ 'GET /invoices/2': { body: { ...numbered, payed_amount: numbered.total_amount, to_be_payed_amount: 0 } } }));
    expect(await screen.findByRole('button', { name: 'Create Credit Note' })).toBeEnabled();
  });

  it('Send Email sends reminder false; a failure says "Server error while sending email"; no reminder before expiry', async () => {
    const api = invoiceApi({ 'POST /invoices/2/send_email': failure(500, 'Internal server error') });
    const { user } = renderApp('/invoice/numbered/2', api);
    expect(await mailChoices()).toEqual(['Send Email']);
    // The reminder is a button of its own, disabled with the reason until the invoice is due.
    expect(screen.getByRole('button', { name: 'Send Reminder' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send Reminder' })).toHaveAttribute('data-disabled-reason');
    await sendMail(user, 'Send Email');
    expect(await screen.findByText('Server error while sending email')).toBeInTheDocument();
    expect(api.last('POST /invoices/2/send_email')!.body).toEqual({ reminder: false });
  });

  it('an expired invoice of type 1 offers Send Reminder, which sends reminder true', async () => {
    const expired = { ...numbered, document_type_id: 1, is_expired: true };
    const api = invoiceApi({ 'GET /invoices/2': { body: expired }, 'POST /invoices/2/send_email': { body: { message: 'E-mail queued' } } });
    const { user } = renderApp('/invoice/numbered/2', api);
    expect(await mailChoices()).toEqual(['Send Email', 'Send Reminder']);
    await sendMail(user, 'Send Reminder');
    expect(await screen.findByText('E-mail queued')).toBeInTheDocument();
    expect(api.last('POST /invoices/2/send_email')!.body).toEqual({ reminder: true });
  });

  it('Send Email on an invoice e-mailed before says when it was, before it sends it again; the reminder says when a reminder was', async () => {
    const mailed = { ...numbered, document_type_id: 1, is_expired: true, email_timestamp: '2026-03-05T09:30:00.000Z', email_reminder_timestamp: null };
    const api = invoiceApi({ 'GET /invoices/2': { body: mailed }, 'POST /invoices/2/send_email': { body: { message: 'E-mail queued' } } });
    const { user } = renderApp('/invoice/numbered/2', api);
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Email' });
    expect(dialog).toHaveTextContent("This invoice was already e-mailed on 05-03-2026 10:30. The e-mail goes to the student's address with the PDF attached.");
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('POST /invoices/2/send_email')).toHaveLength(0);
    // No reminder was sent yet: its question says nothing of one.
    await user.click(screen.getByRole('button', { name: 'Send Reminder' }));
    const reminder = await screen.findByRole('dialog', { name: 'Send Reminder' });
    expect(reminder).not.toHaveTextContent('already');
  });
});

describe('invoice detail: the audit pairs (spec §3)', () => {
  it('shows who created, numbered, mailed and last edited the invoice, each time as DD-MM-YYYY HH:mm in the office zone, in a History section', async () => {
    renderApp('/invoice/numbered/2', invoiceApi({ 'GET /invoices/2': { body: audited } }));
    const history = await screen.findByRole('region', { name: 'History' });
    const value = (label: RegExp) => within(history).getByLabelText(label);
    await within(history).findByDisplayValue('Clara Creator');
    expect(value(/^Created$/)).toHaveValue('28-02-2026 00:15');
    expect(value(/^Created By/)).toHaveValue('Clara Creator');
    expect(value(/^PDF Created$/)).toHaveValue('05-03-2026 09:05');
    expect(value(/^PDF Created By/)).toHaveValue('Pál Pdf-Nyomtató');
    expect(value(/^Email Sent$/)).toHaveValue('05-03-2026 10:30');
    expect(value(/^Email Sent By/)).toHaveValue('Mia Mailer');
    expect(value(/^Reminder Sent/)).toHaveValue('10-04-2026 08:45');
    expect(value(/^Last Edit By/)).toHaveValue('Eddie Editor');
    for (const input of within(history).getAllByRole('textbox')) expect(input).toHaveAttribute('readonly');
  });

  it("shows the times on the clock of the office's zone as the server names it (APP_TIMEZONE), not Berlin's (decision 060)", async () => {
    const api = invoiceApi({ 'GET /auth/me': { body: { user: plainUser, timezone: 'America/New_York' } }, 'GET /invoices/2': { body: audited } });
    renderApp('/invoice/numbered/2', api);
    const history = await screen.findByRole('region', { name: 'History' });
    await within(history).findByDisplayValue('Clara Creator');
    expect(within(history).getByLabelText(/^Created$/)).toHaveValue('27-02-2026 18:15');
    expect(within(history).getByLabelText(/^Reminder Sent/)).toHaveValue('10-04-2026 02:45');
    // SEEN, 10:00 UTC on 1 May: summer time in New York, four hours behind.
    expect(screen.getByText(/^Last edit /)).toHaveTextContent('Last edit 01-05-2024 06:00');
  });

  it('in edit mode the pairs stay read-only and are never sent: a save sends only the changed field plus id', async () => {
    const api = invoiceApi({ 'GET /invoices/2': { body: audited }, 'PUT /invoices/2': { body: { ...audited, comments: 'Checked', edit_timestamp: '2026-05-01T10:00:00.000Z' } } });
    const { user } = renderApp('/invoice/numbered/2?mode=edit', api);
    const history = await screen.findByRole('region', { name: 'History' });
    await within(history).findByDisplayValue('Mia Mailer');
    for (const input of within(history).getAllByRole('textbox')) expect(input).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText(/^Comments/), 'Checked');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(api.last('PUT /invoices/2')!.body).toEqual({ id: 2, comments: 'Checked' });
  });
});

describe('Link Registration Fee', () => {
  it("offers only the pro-forma registration fees (type 3) of the invoice's student, and follows the student of the invoice shown", async () => {
    const api = invoiceApi({
      ...choiceList('invoices', [{ id: 5, name: '2026-00005 · A000001 · Registration fee' }]),
      'GET /invoices/2': { body: { ...numbered, student_id: 11 } },
      'GET /invoices/4': { body: { ...numbered, id: 4, contract_id: 7, contract: 'A000007', document_reference: 'A000007-Y1-T5', student_id: 17 } },
    });
    const { user, router } = renderApp('/invoice/numbered/2', api);
    await user.click(await screen.findByRole('button', { name: 'Link Registration Fee' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(api.sent('GET /invoices/choice/search')).not.toHaveLength(0));
    const query = api.last('GET /invoices/choice/search')!.query;
    expect([query.get('student_id'), query.get('document_type_id'), query.get('pro_forma'), query.get('contract_id')]).toEqual(['11', '3', 'true', null]);
    // What is typed is searched among them.
    const box = within(dialog).getByRole('combobox', { name: /^Registration fee/ });
    await user.click(box);
    await user.type(box, '2026-00005');
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('search')).toBe('2026-00005'));
    expect(api.last('GET /invoices/choice/search')!.query.get('student_id')).toBe('11');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await router.navigate('/invoice/numbered/4');
    await screen.findByText('A000007-Y1-T5', { exact: false });
    await user.click(await screen.findByRole('button', { name: 'Link Registration Fee' }));
    await screen.findByRole('dialog');
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('student_id')).toBe('17'));
    expect(api.last('GET /invoices/choice/search')!.query.get('document_type_id')).toBe('3');
  });
});
