import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { savedFiles } from '../../test/downloads';
import { adminUser, choiceList, page, plainUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const plannedRow = {
  id: 1,
  number: null,
  contract_id: 1,
  contract: 'A000001',
  student_id: 1,
  student_name: 'José Müller',
  intake: 2024,
  scholarship_id: 1,
  scholarship_payment_type_id: 1,
  scholarship_payment_type: 'Milestone',
  period: 'Y1',
  amount: 1234.56,
  description: 'Milestone year 1',
  planned_date: '2026-03-01',
  payment_date: null,
  comments: null,
  university_id: null,
  university: null,
  linked_invoice_id: null,
  linked_invoice_number: null,
  exported_timestamp: null,
  exported_user: null,
  exported_userid: null,
  payment_allowed: false,
  creation_timestamp: SEEN,
  creation_user: 'Ada Admin',
  edit_timestamp: SEEN,
  edit_user: 'Ada Admin',
};
const numberedRow = { ...plannedRow, id: 2, number: 'S2026-00001', payment_date: '2026-03-05', payment_allowed: true };
const exportedRow = { ...numberedRow, id: 3, number: 'S2026-00002', exported_timestamp: SEEN, exported_user: 'Ada Admin', exported_userid: 1 };

function paymentApi(answers: Answers = {}, user = plainUser) {
  return stubApi({
    ...session(user),
    ...choiceList('contracts', [{ id: 1, name: 'A000001' }]),
    ...choiceList('scholarship_payment_types', [
      { id: 1, name: 'Milestone' },
      { id: 2, name: 'University fee' },
    ]),
    ...choiceList('contracts_intake', [{ id: 2024, name: '2024' }]),
    ...choiceList('scholarships', [{ id: 1, name: 'EMJMD' }]),
    ...choiceList('universities', [{ id: 1, name: 'KIT' }]),
    'GET /scholarship_payments': page([plannedRow]),
    'GET /scholarship_payments/1': { body: plannedRow },
    'GET /scholarship_payments/2': { body: numberedRow },
    'GET /scholarship_payments/3': { body: exportedRow },
    ...answers,
  });
}

const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼\d]/g, ''))
    .filter((t) => t && t !== 'Actions');

describe('scholarship payment overviews (spec §2)', () => {
  it('planned: the spec columns, the planned flag, and Schedule Payments for a User', async () => {
    const api = paymentApi();
    const { user } = renderApp('/scholarshippayments/planned', api);
    expect(await screen.findByRole('heading', { name: 'Planned Scholarship Payments' })).toBeInTheDocument();
    await screen.findByText('1-1 of 1');
    expect(headers()).toEqual(['Contract', 'Student', 'Type', 'Period', 'Amount', 'Planned', 'Last Edit', 'Comments']);
    expect(api.last('GET /scholarship_payments')!.query.get('planned')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Schedule Payments']);
  });

  it('numbered: adds Number, Payment Date, Exported and Export Allowed; Export Payments saves Payments.xlsx', async () => {
    const api = paymentApi({
      'GET /scholarship_payments': page([numberedRow]),
      'POST /scholarship_payments/export_payments': {
        file: { content: new Blob(['PK']), filename: 'Payments.xlsx', message: 'Exported 1 scholarship payment(s), total € 10,00; left out (not exported): S2026-00009 (The IBAN of Jo Doe is not valid)' },
      },
      'POST /scholarship_payments/export_payments/summary': { body: { count: 2, total: 20, message: '2 payment(s) over € 20,00 would be exported and marked exported.' } },
    });
    const { user } = renderApp('/scholarshippayments/numbered', api);
    expect(await screen.findByRole('heading', { name: 'Numbered Scholarship Payments' })).toBeInTheDocument();
    await screen.findByText('1-1 of 1');
    expect(headers()).toEqual([
      'Number', 'Contract', 'Student', 'Type', 'Period', 'Amount', 'Planned', 'Payment Date', 'Exported', 'Export Allowed', 'Last Edit', 'Comments',
    ]);
    expect(api.last('GET /scholarship_payments')!.query.get('numbered')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Export Payments' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export Payments' });
    // Before anything is marked, the confirm says how many and how much, asked of the server with the export's body.
    expect(await within(dialog).findByText(/2 payment\(s\) over € 20,00 would be exported and marked exported\.$/)).toBeInTheDocument();
    expect(api.last('POST /scholarship_payments/export_payments/summary')!.body).toEqual({ filter: { numbered: 'true', sort: 'number|asc' } });
    // The export marks the rows exported: the overview reads its page again and shows when.
    api.on('GET /scholarship_payments', page([{ ...numberedRow, exported_timestamp: '2026-03-06T09:30:00.000Z' }]));
    await user.click(within(dialog).getByRole('button', { name: 'Export Payments' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('Payments.xlsx');
    expect(api.last('POST /scholarship_payments/export_payments')!.body).toEqual({ filter: { numbered: 'true', sort: 'number|asc' } });
    expect(await screen.findByRole('cell', { name: /^06-03-2026 / })).toBeInTheDocument();
    // What the export left out is said beside the file.
    expect(await screen.findByText(/left out \(not exported\): S2026-00009 \(The IBAN of Jo Doe is not valid\)$/)).toBeInTheDocument();
  });

  it('University Fee Check asks the period and sends only it; Download SEPA file asks which export (empty: your latest) and sends nothing of the list', async () => {
    const api = paymentApi({
      ...choiceList('scholarship_payment_exports', [
        { id: 6, name: 'Export 6 · 26-11-2026 10:30 · Ada Admin · 2 payment(s) · € 20,00' },
        { id: 5, name: 'Export 5 · 25-11-2026 09:00 · Ada Admin · 1 payment(s) · € 1.234,56' },
      ]),
      'GET /scholarship_payments': page([numberedRow]),
      'POST /scholarship_payments/export_university_fee_payments': { file: { content: new Blob(['PK']), filename: 'University_Fees_2026-2027_01.xlsx' } },
      'POST /scholarship_payments/download_sepa': { file: { content: new Blob(['<?xml'], { type: 'application/xml' }), filename: 'Payments_SP-1.xml' } },
    });
    const { user } = renderApp('/scholarshippayments/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('button', { name: 'University Fee Check' }));
    const dialog = await screen.findByRole('dialog', { name: 'University Fee Check' });
    await user.type(within(dialog).getByLabelText(/^Period/), '2026-2027/01');
    await user.click(within(dialog).getByRole('button', { name: 'University Fee Check' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /scholarship_payments/export_university_fee_payments')!.body).toEqual({ period: '2026-2027/01' });
    const sepa = async () => {
      await user.click(screen.getByRole('button', { name: 'Download SEPA file' }));
      return screen.findByRole('dialog', { name: 'Download SEPA file' });
    };
    await user.click(within(await sepa()).getByRole('button', { name: 'Download SEPA file' }));
    await waitFor(() => expect(savedFiles).toHaveLength(2));
    expect(api.last('POST /scholarship_payments/download_sepa')!.body).toEqual({});
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const chosen = await sepa();
    await user.click(within(chosen).getByRole('combobox', { name: /^Export/ }));
    await user.click(await screen.findByRole('option', { name: /^Export 5 · / }));
    await user.click(within(chosen).getByRole('button', { name: 'Download SEPA file' }));
    await waitFor(() => expect(savedFiles).toHaveLength(3));
    expect(api.last('POST /scholarship_payments/download_sepa')!.body).toEqual({ export_id: 5 });
    expect(screen.getByRole('button', { name: 'KIT Payments' })).toBeInTheDocument();
  });

  it('takes the advanced filters of the link that opened it (the contract screen, the scholarship overview)', async () => {
    const api = paymentApi();
    renderApp('/scholarshippayments/numbered?contract_id=1&scholarship_payment_type_id=2', api);
    await screen.findByText('1-1 of 1');
    const query = api.last('GET /scholarship_payments')!.query;
    expect([query.get('contract_id'), query.get('scholarship_payment_type_id'), query.get('numbered')]).toEqual(['1', '2', 'true']);
  });

  it('Bulk Edit (Administrator) keeps Apply disabled until amount or payment date is set, and sends only those', async () => {
    const api = paymentApi({ 'GET /scholarship_payments': page([numberedRow]), 'POST /scholarship_payments/bulk_edit': { status: 202, body: { run_id: 9 } } }, adminUser);
    const { user } = renderApp('/scholarshippayments/numbered', api);
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Batch' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Bulk Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Amount/), '99.5');
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(api.last('POST /scholarship_payments/bulk_edit')!.body).toEqual({ ids: [2], changes: { amount: 99.5 }, versions: { '2': SEEN } });
  });
});

describe('scholarship payment details', () => {
  it('a planned payment offers Create Payment; a numbered exported one Reset Export after a confirm', async () => {
    const api = paymentApi({ 'POST /scholarship_payments/3/reset_export': { body: { ...exportedRow, exported_timestamp: null, exported_user: null } } });
    const { router, user } = renderApp('/scholarshippayment/planned/1', api);
    expect(await screen.findByRole('button', { name: 'Create Payment' })).toBeInTheDocument();
    await router.navigate('/scholarshippayment/numbered/3');
    const reset = await screen.findByRole('button', { name: 'Reset Export' });
    await user.click(reset);
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent(/Only when the bank did not carry it out: .* the payee is paid twice/);
    await user.click(within(confirm).getByRole('button', { name: /Reset Export|Yes/ }));
    await waitFor(() => expect(api.sent('POST /scholarship_payments/3/reset_export')).toHaveLength(1));
  });
});

describe('a scholarship payment moving from planned to numbered', () => {
  it('Create Payment shows the payment it numbered as a numbered payment: route, title and its actions', async () => {
    const scheduled = { ...plannedRow, number: 'S2026-00001', payment_date: '2026-03-01', payment_allowed: true, edit_timestamp: '2026-03-01T08:00:00.000Z' };
    const api = paymentApi({ 'POST /scholarship_payments/1/create_payment': { body: scheduled } });
    const { user, location } = renderApp('/scholarshippayment/planned/1', api);
    await user.click(await screen.findByRole('button', { name: 'Create Payment' }));
    // Numbered from now on, as the server then answers it: a refetch of the stale planned row would send the
    // screen back to the planned route.
    api.on('GET /scholarship_payments/1', { body: scheduled });
    const dialog = await screen.findByRole('dialog', { name: 'Create Payment' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Payment' }));
    await waitFor(() => expect(location()).toBe('/scholarshippayment/numbered/1'));
    await waitFor(() => expect(screen.getByRole('heading', { name: /^Numbered Scholarship Payment/ })).toHaveTextContent('S2026-00001'));
    expect(screen.getByRole('status')).toHaveTextContent('Create Payment: done for Scholarship Payment S2026-00001');
    expect(screen.getByRole('button', { name: 'Reset Export' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Payment' })).not.toBeInTheDocument();
  });

  it('a planned payment opened under the numbered route is shown as planned', async () => {
    const { location } = renderApp('/scholarshippayment/numbered/1', paymentApi());
    await waitFor(() => expect(location()).toBe('/scholarshippayment/planned/1'));
    expect(await screen.findByRole('button', { name: 'Create Payment' })).toBeInTheDocument();
  });
});

describe('a new scholarship payment: the linked invoice (spec §5)', () => {
  const invoicesApi = (answers: Answers = {}) =>
    paymentApi({
      ...choiceList('contracts', [
        { id: 1, name: 'A000001' },
        { id: 2, name: 'A000002' },
      ]),
      ...choiceList('invoices_credit_notes', [
        { id: 4, name: '2026-00004 · A000001 · Participation fee' },
        { id: 5, name: '2026-00005 · A000002 · Participation fee' },
      ]),
      ...answers,
    });
  const choose = async (user: ReturnType<typeof renderApp>['user'], label: RegExp, option: string | RegExp) => {
    await user.click(screen.getByRole('combobox', { name: label }));
    await user.click(await screen.findByRole('option', { name: option }));
  };

  it("offers the invoices and credit notes of the chosen contract, and lets go of the one held when the contract changes", async () => {
    const api = invoicesApi();
    const { user } = renderApp('/scholarshippayment/planned/new', api);
    const linked = await screen.findByRole('combobox', { name: /^Linked invoice or credit note/ });
    await choose(user, /^Contract/, 'A000001');
    await waitFor(() => expect(api.last('GET /invoices_credit_notes/choice/search')!.query.get('contract_id')).toBe('1'));
    await choose(user, /^Linked invoice or credit note/, /^2026-00004/);
    expect(linked).toHaveValue('2026-00004 · A000001 · Participation fee');

    await choose(user, /^Contract/, 'A000002');
    await waitFor(() => expect(api.last('GET /invoices_credit_notes/choice/search')!.query.get('contract_id')).toBe('2'));
    expect(linked).toHaveValue('');
  });

  it('a university fee (type 2) shows that it needs its linked invoice and keeps Save disabled until one is chosen', async () => {
    const api = invoicesApi({ 'POST /scholarship_payments': { status: 201, body: { id: 1 } } });
    const { user } = renderApp('/scholarshippayment/planned/new', api);
    const linked = await screen.findByRole('combobox', { name: /^Linked invoice or credit note/ });
    const save = screen.getByRole('button', { name: 'Save' });
    await choose(user, /^Contract/, 'A000001');
    await user.type(screen.getByLabelText(/^Amount/), '500');
    await user.type(screen.getByLabelText(/^Planned Date/), '01-09-2026');
    await choose(user, /^Payment Type/, 'Milestone');
    await waitFor(() => expect(save).toBeEnabled());
    expect(linked).not.toHaveAttribute('aria-required', 'true');

    await choose(user, /^Payment Type/, 'University fee');
    expect(await screen.findByText('A university fee payment (type 2) needs its linked invoice or credit note')).toBeInTheDocument();
    expect(linked).toHaveAttribute('aria-required', 'true');
    expect(save).toBeDisabled();

    await choose(user, /^Linked invoice or credit note/, /^2026-00004/);
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.queryByText('A university fee payment (type 2) needs its linked invoice or credit note')).not.toBeInTheDocument();
    await user.click(save);
    await waitFor(() => expect(api.sent('POST /scholarship_payments')).toHaveLength(1));
    expect(api.last('POST /scholarship_payments')!.body).toMatchObject({ contract_id: 1, scholarship_payment_type_id: 2, linked_invoice_id: 4 });
  });
});

describe('the Scholarship overview (by scholarship)', () => {
  it('shows counts and sums per scholarship, intake and type, filters by intake, and each figure opens the payments behind it', async () => {
    const row = {
      scholarship_id: 1,
      scholarship_code: 'EMJMD',
      intake: 2024,
      scholarship_payment_type_id: 1,
      scholarship_payment_type: 'Milestone',
      planned_count: 2,
      planned_amount: 300.3,
      numbered_count: 1,
      numbered_amount: 70.07,
      exported_count: 0,
      exported_amount: 0,
    };
    const api = paymentApi({ 'GET /scholarship_payments/by_scholarship': { body: { data: [row] } } });
    const { user, location } = renderApp('/scholarshippayments/by_scholarship', api);
    // Each figure's name is what it shows, then what it counts (decision 055: the count and sum were not heard).
    const planned = await screen.findByRole('link', { name: '2 · € 300,30: Planned payments of EMJMD 2024 Milestone' });
    expect(planned).toHaveTextContent('2 · € 300,30');
    expect(screen.getByRole('link', { name: '1 · € 70,07: Numbered payments of EMJMD 2024 Milestone' })).toHaveTextContent('1 · € 70,07');
    await user.click(screen.getByRole('combobox', { name: 'Intake' }));
    await user.click(await screen.findByRole('option', { name: '2024' }));
    await waitFor(() => expect(api.last('GET /scholarship_payments/by_scholarship')!.query.get('intake')).toBe('2024'));
    await user.click(screen.getByRole('link', { name: /Planned payments of EMJMD 2024 Milestone$/ }));
    await waitFor(() => expect(location()).toBe('/scholarshippayments/planned?intake=2024&scholarship_id=1&scholarship_payment_type_id=1'));
    await screen.findByRole('heading', { name: 'Planned Scholarship Payments' });
    await waitFor(() => expect(api.last('GET /scholarship_payments')?.query.get('intake')).toBe('2024'));
    const query = api.last('GET /scholarship_payments')!.query;
    expect([query.get('scholarship_id'), query.get('scholarship_payment_type_id'), query.get('planned')]).toEqual(['1', '1', 'true']);
  });
});
