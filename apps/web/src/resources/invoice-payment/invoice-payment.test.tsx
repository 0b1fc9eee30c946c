import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { savedFiles } from '../../test/downloads';
import { choiceList, failure, page, plainUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const paymentRow = {
  id: 7,
  number: 'P2026-00001',
  invoice_id: 2,
  invoice: '2026-00001',
  contract_id: 1,
  contract: 'A000001',
  student_id: 1,
  student_name: 'José Müller',
  payment_date: '2026-03-10',
  amount_paid: 1234.56,
  commission: 0.07,
  net_amount: 1234.49,
  amount_shopify: null,
  paid_by_shopify: false,
  invoice_open_amount: 0,
  payment_confirmation_timestamp: null,
  payment_confirmation_user: null,
  comments: null,
  pdf_filename: null,
  pdf_timestamp: null,
  pdf_user: null,
  creation_timestamp: SEEN,
  creation_user: 'Bob User',
  edit_timestamp: SEEN,
  edit_user: 'Bob User',
};

const invoice = {
  id: 2,
  number: '2026-00001',
  contract_id: 1,
  contract: 'A000001',
  student_id: 1,
  student_name: 'José Müller',
  amount: 1500,
  total_amount: 1500,
  payed_amount: 265.44,
  to_be_payed_amount: 1234.56,
};

function paymentApi(answers: Answers = {}, user = plainUser) {
  return stubApi({
    ...session(user),
    ...choiceList('invoices', [{ id: 2, name: '2026-00001' }]),
    ...choiceList('contracts', [{ id: 1, name: 'A000001' }]),
    ...choiceList('students', [{ id: 1, name: 'José Müller' }]),
    'GET /invoice_payments': page([paymentRow]),
    'GET /invoice_payments/7': { body: paymentRow },
    'GET /invoices/2': { body: invoice },
    ...answers,
  });
}

const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼]/g, '').trim())
    .filter((h) => h);

describe('invoice payments overview', () => {
  it('shows the spec columns, sorted by number, with Export Selection', async () => {
    const api = paymentApi({ 'POST /invoice_payments/download_report': { file: { content: new Blob(['PK']), filename: 'Invoice_Payments.xlsx' } } });
    const { user } = renderApp('/invoicepayments', api);
    expect(await screen.findByRole('heading', { name: 'Invoice Payments' })).toBeInTheDocument();
    await screen.findByText('1-1 of 1');
    expect(headers()).toEqual(['Payment ID', 'Invoice Number', 'Contract', 'Student Name', 'Net Amount', 'Commission', 'Amount Paid', 'Payment Date', 'Payment Confirmation', 'Last Edit', 'Actions']);
    expect(api.last('GET /invoice_payments')!.query.get('sort')).toBe('number|asc');
    expect(screen.getByText('€ 1.234,49')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export Selection' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('Invoice_Payments.xlsx');
  });

  it('offers the batch Send Payment Confirmation to a User', async () => {
    const { user } = renderApp('/invoicepayments', paymentApi());
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Send Payment Confirmation']);
  });
});

describe('invoice payment detail', () => {
  it('a new payment from an invoice starts with its invoice, contract, student and open amount, and shows the net amount live', async () => {
    const api = paymentApi({ 'POST /invoice_payments': { status: 201, body: { id: 7 } } });
    const { user } = renderApp('/invoicepayment/new?invoice_id=2', api);
    expect(await screen.findByText('Payment of invoice 2026-00001 (contract A000001, José Müller): € 1.234,56 open')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Amount Paid/)).toHaveValue('€ 1.234,56'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Contract/ })).toHaveValue('A000001'));
    expect(screen.getByLabelText(/^Student Name/)).toHaveValue('José Müller');
    expect(screen.getByLabelText(/^Commission/)).toHaveValue('€ 0,00');
    const commission = screen.getByLabelText(/^Commission/);
    await user.clear(commission);
    await user.type(commission, '0,07');
    await waitFor(() => expect(screen.getByLabelText(/^Net Amount/)).toHaveValue('€ 1.234,49'));
    await user.type(screen.getByLabelText(/^Payment Date/), '10-03-2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('POST /invoice_payments')).toHaveLength(1));
    expect(api.last('POST /invoice_payments')!.body).toMatchObject({ invoice_id: 2, amount_paid: 1234.56, commission: 0.07, payment_date: '2026-03-10' });
  });

  it('a payment date after today is refused on the form, by name, before anything is sent', async () => {
    const api = paymentApi();
    const { user } = renderApp('/invoicepayment/new?invoice_id=2', api);
    await waitFor(() => expect(screen.getByLabelText(/^Amount Paid/)).toHaveValue('€ 1.234,56'));
    await user.type(screen.getByLabelText(/^Payment Date/), '01-01-2099');
    await user.tab();
    expect(await screen.findByText('Payment Date cannot be in the future')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(screen.getByLabelText(/^Payment Date/));
    await user.type(screen.getByLabelText(/^Payment Date/), '10-03-2026');
    await user.tab();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(api.sent('POST /invoice_payments')).toHaveLength(0);
  });

  it('a new payment of an invoice paid in full or overpaid says so in words, and presets no amount', async () => {
    const paid = renderApp('/invoicepayment/new?invoice_id=2', paymentApi({ 'GET /invoices/2': { body: { ...invoice, to_be_payed_amount: 0 } } }));
    expect(await screen.findByText('Payment of invoice 2026-00001 (contract A000001, José Müller): paid in full')).toBeInTheDocument();
    paid.unmount();
    renderApp('/invoicepayment/new?invoice_id=2', paymentApi({ 'GET /invoices/2': { body: { ...invoice, to_be_payed_amount: -65.44 } } }));
    expect(await screen.findByText('Payment of invoice 2026-00001 (contract A000001, José Müller): overpaid by € 65,44')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Amount Paid/)).toHaveValue('');
  });

  it("the invoice list is the chosen contract's: preset from the invoice, it follows another contract, which lets go of the invoice held", async () => {
    const api = paymentApi({
      ...choiceList('contracts', [
        { id: 1, name: 'A000001' },
        { id: 2, name: 'A000002' },
      ]),
      ...choiceList('invoices', [
        { id: 2, name: '2026-00001 · A000001 · Participation fee' },
        { id: 3, name: '2026-00003 · A000002 · Participation fee' },
      ]),
      'POST /invoice_payments': { status: 201, body: { id: 7 } },
    });
    const { user } = renderApp('/invoicepayment/new?invoice_id=2', api);
    const contract = await screen.findByRole('combobox', { name: /^Contract/ });
    const invoiceBox = screen.getByRole('combobox', { name: /^Invoice/ });
    await waitFor(() => expect(contract).toHaveValue('A000001'));
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('contract_id')).toBe('1'));
    expect(invoiceBox).toHaveValue('2026-00001 · A000001 · Participation fee');

    await user.click(contract);
    await user.click(await screen.findByRole('option', { name: 'A000002' }));
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('contract_id')).toBe('2'));
    expect(invoiceBox).toHaveValue('');
    expect(screen.getByLabelText(/^Student Name/)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(invoiceBox);
    await user.click(await screen.findByRole('option', { name: /^2026-00003/ }));
    await user.type(screen.getByLabelText(/^Payment Date/), '10-03-2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('POST /invoice_payments')).toHaveLength(1));
    // The contract only narrows the list: the payment takes its invoice's.
    expect(api.last('POST /invoice_payments')!.body).toMatchObject({ invoice_id: 3, amount_paid: 1234.56 });
    expect(api.last('POST /invoice_payments')!.body).not.toHaveProperty('contract_id');
  });

  it('an overpayment refused by the server is asked in a confirm dialog and sent again with allow_overpayment', async () => {
    const message = 'Invoice 2026-00001 is open for € 1.234,56: a payment of € 2.000,00 pays € 765,44 too much.';
    const api = paymentApi({ 'POST /invoice_payments': failure(409, message, { allow_overpayment: [message] }) });
    const { user } = renderApp('/invoicepayment/new?invoice_id=2&amount_paid=2000&payment_date=2026-03-10', api);
    await screen.findByText(/Payment of invoice 2026-00001/);
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Contract/ })).toHaveValue('A000001'));
    expect(screen.getByLabelText(/^Amount Paid/)).toHaveValue('€ 2.000,00');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(message)).toBeInTheDocument();
    api.on('POST /invoice_payments', { status: 201, body: { id: 7 } });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.sent('POST /invoice_payments')).toHaveLength(2));
    expect(api.sent('POST /invoice_payments')[0]!.body).not.toHaveProperty('allow_overpayment');
    expect(api.last('POST /invoice_payments')!.body).toMatchObject({ amount_paid: 2000, allow_overpayment: true });
  });

  it('a User sends the confirmation by e-mail; Create PDF is for developers; a failure says "Server error while sending email"', async () => {
    const api = paymentApi({ 'POST /invoice_payments/7/send_email': failure(500, 'Internal server error') });
    const { user } = renderApp('/invoicepayment/7', api);
    const send = await screen.findByRole('button', { name: 'Send Email' });
    expect(screen.queryByRole('button', { name: 'Create PDF' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
    await user.click(send);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Yes|OK|Send|Confirm/ }));
    expect(await screen.findByText('Server error while sending email')).toBeInTheDocument();
  });

  it('sending the confirmation of a payment without a PDF reads the payment again: its PDF, made for the mail, can be downloaded', async () => {
    const api = paymentApi({ 'POST /invoice_payments/7/send_email': { body: { message: 'E-mail queued' } } });
    const { user } = renderApp('/invoicepayment/7', api);
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeDisabled();
    api.on('GET /invoice_payments/7', { body: { ...paymentRow, pdf_filename: 'Payment_Confirmation_P2026-00001.pdf', pdf_timestamp: SEEN } });
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('E-mail queued')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled());
  });

  it('shows the confirmation sent once the mail server took it, without a reload (decision 052)', async () => {
    const api = paymentApi({ 'POST /invoice_payments/7/send_email': { body: { message: 'E-mail queued' } } });
    const { user } = renderApp('/invoicepayment/7', api);
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('E-mail queued')).toBeInTheDocument();
    const reads = api.sent('GET /invoice_payments/7').length;
    // The outbox delivered it a moment later: the payment, read again by itself, shows when.
    api.on('GET /invoice_payments/7', { body: { ...paymentRow, payment_confirmation_timestamp: '2024-06-01T09:00:00.000Z' } });
    await waitFor(() => expect(api.sent('GET /invoice_payments/7').length).toBeGreaterThan(reads), { timeout: 4000 });
    await waitFor(() => expect(screen.getByLabelText(/^Payment Confirmation/)).toHaveValue('01-06-2024 11:00'));
  });

  it('Send Email on a payment confirmed before says when, before it sends the confirmation again', async () => {
    const api = paymentApi({ 'GET /invoice_payments/7': { body: { ...paymentRow, payment_confirmation_timestamp: '2024-06-01T09:00:00.000Z' } } });
    const { user } = renderApp('/invoicepayment/7', api);
    await user.click(await screen.findByRole('button', { name: 'Send Email' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      "The payment confirmation was already e-mailed on 01-06-2024 11:00. Send the payment confirmation to the student's address?",
    );
  });
});
