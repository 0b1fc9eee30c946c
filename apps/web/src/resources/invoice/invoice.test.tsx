import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { choiceList, failure, page, plainUser, SEEN, session } from '../../test/fixtures';
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

function invoiceApi(answers: Answers = {}, user = plainUser) {
  return stubApi({
    ...session(user),
    ...choiceList('contracts', [{ id: 1, name: 'A000001' }]),
    ...choiceList('document_types_invoices', DOCUMENT_TYPES.filter((t) => t.id % 2 === 1).map((t) => ({ id: t.id, name: t.name }))),
    'GET /invoices': page([planned, numbered]),
    'GET /invoices/1': { body: planned },
    'GET /invoices/2': { body: numbered },
    ...answers,
  });
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
  });

  it('numbered invoices: Export Open Invoices sends the view filter and saves Open_Invoices.xlsx', async () => {
    const api = invoiceApi({
      'GET /invoices': page([numbered]),
      'POST /invoices/download_report_open': { file: { content: new Blob(['PK open']), filename: 'Open_Invoices.xlsx' } },
    });
    const { user } = renderApp('/invoices/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('button', { name: 'Export Open Invoices' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /invoices/download_report_open')!.body).toEqual({ filter: { numbered: 'true', sort: 'number|asc' } });
    expect(savedFiles[0]!.filename).toBe('Open_Invoices.xlsx');
    expect(screen.getByRole('button', { name: 'Export Selection' })).toBeInTheDocument();
  });

  it('the planned view offers the batch Create Invoice to a User, the numbered view does not', async () => {
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
    expect(screen.queryByRole('button', { name: 'Batch' })).not.toBeInTheDocument();
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
    const create = await screen.findByRole('button', { name: 'Create PDF' });
    expect(screen.queryByRole('button', { name: 'Download PDF' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    await user.click(create);
    expect(await screen.findByText('Server error while creating pdf')).toBeInTheDocument();
  });
});
