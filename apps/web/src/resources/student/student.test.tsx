import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { choiceList, contractRow, failure, page, readerUser, session, studentRow } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const dataRows = () => within(screen.getByRole('table', { name: 'Students' })).getAllByRole('row').slice(1);

const jose = studentRow(1, {
  first_name: 'José',
  last_name: 'Müller',
  gender: 'Male',
  active_contract_id: 1,
  bankinfo_request_timestamp: '2024-04-01T08:00:00.000Z',
  bankinfo_request_user: 'Ada Lovelace',
});
const mia = studentRow(2, { citizenship1_cntry_id: 1, citizenship1: 'Germany', city: 'Hamburg', zip: '20095', address: 'Alsterweg 2' });

function studentApi(answers: Answers = {}) {
  return stubApi({
    ...session(),
    ...choiceList('countries', [
      { id: 1, name: 'Germany' },
      { id: 2, name: 'France' },
    ]),
    ...choiceList('students', [
      { id: 1, name: 'Müller, José' },
      { id: 2, name: 'Schmidt, Mia' },
    ]),
    'GET /students': page([jose, mia]),
    'GET /students/1': { body: jose },
    'GET /students/2': { body: mia },
    'GET /contracts': page([contractRow(1)]),
    'GET /contracts/1': { body: contractRow(1) },
    ...answers,
  });
}

const xlsx = (): Answers => ({ 'POST /students/download_report': { file: { content: new Blob(['PK fixture']), filename: 'Students.xlsx' } } });

describe('students overview', () => {
  it('lists first and last name, citizenship, address, postal code, city, country and last edit, asked by last name', async () => {
    const api = studentApi();
    renderApp('/students', api);
    await screen.findByText('1-2 of 2');
    expect(api.last('GET /students')!.query.get('sort')).toBe('last_name|asc');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 9)).toEqual(['First Name', 'Last Name▲', 'Citizenship 1', 'Street Address', 'Postal Code', 'City', 'Country', 'Last Edit']);
    expect(dataRows().map((r) => within(r).getAllByRole('cell').slice(1, 9).map((c) => c.textContent))).toEqual([
      ['José', 'Müller', 'France', 'Hauptstraße 1', '10115', 'Berlin', 'Germany', '01-05-2024 12:00'],
      ['Mia', 'Schmidt', 'Germany', 'Alsterweg 2', '20095', 'Hamburg', 'Germany', '01-05-2024 12:00'],
    ]);
  });

  it('Export Selection sends the selected ids, and saves Students.xlsx', async () => {
    const api = studentApi(xlsx());
    const { user } = renderApp('/students', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Select Mia Schmidt' }));
    await user.click(screen.getByRole('button', { name: 'Export Selection' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.sent('POST /students/download_report')).toHaveLength(1);
    expect(api.last('POST /students/download_report')!.body).toEqual({ ids: [2], filter: { sort: 'last_name|asc' } });
    expect(savedFiles[0]!.filename).toBe('Students.xlsx');
    expect(await blobText(savedFiles[0]!.blob)).toBe('PK fixture');
  });

  it('Export Selection without a selection sends the current filter (quick filter, advanced filters, sort)', async () => {
    const api = studentApi(xlsx());
    const { user } = renderApp('/students', api);
    await screen.findByText('1-2 of 2');
    await user.type(screen.getByLabelText('Quick filter'), 'mia{Enter}');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    await user.type(within(form).getByLabelText('Address'), 'Alster');
    await user.type(within(form).getByLabelText('Bank info updated before'), '01-06-2024{Enter}');
    await waitFor(() => expect(api.last('GET /students')!.query.get('bankinfo_updated_before')).toBe('2024-06-01'));
    await user.click(screen.getByRole('button', { name: 'Export Selection' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /students/download_report')!.body).toEqual({
      filter: { search: 'mia', sort: 'last_name|asc', address: 'Alster', bankinfo_updated_before: '2024-06-01' },
    });
  });

  it('is offered to a Reader too (everyone may export)', async () => {
    renderApp('/students', studentApi(session(readerUser)));
    await screen.findByText('1-2 of 2');
    expect(screen.getByRole('button', { name: 'Export Selection' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
  });

  it('reports a failed export, and saves nothing', async () => {
    const { user } = renderApp('/students', studentApi({ 'POST /students/download_report': failure(500, 'boom') }));
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('button', { name: 'Export Selection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while exporting Students.xlsx');
    expect(savedFiles).toHaveLength(0);
  });
});

describe('student detail', () => {
  it('shows the fields in sections, and the read-only facts: active contract link and bank info request', async () => {
    const { user, location } = renderApp('/student/1', studentApi());
    await waitFor(() => expect(screen.getByLabelText(/^First Name/)).toHaveValue('José'));
    // Named by first and last name, not the last name alone.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('StudentJosé Müller');
    for (const section of ['Personal', 'Address', 'Payment holder', 'Bank', 'Other']) {
      expect(screen.getByRole('region', { name: section })).toBeInTheDocument();
    }
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Gender/ })).toHaveValue('Male'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Citizenship 1/ })).toHaveValue('France'));
    const facts = screen.getByRole('region', { name: 'Student information' });
    expect(facts).toHaveTextContent('Registration fee paidNo');
    expect(facts).toHaveTextContent('Bank info requested01-04-2024 10:00 by Ada Lovelace');
    await user.click(await within(facts).findByRole('link', { name: 'A000001' }));
    expect(location()).toBe('/contract/1');
  });

  it('lists the student’s contracts (asked by student_id) and starts a new contract with the student preset', async () => {
    const api = studentApi({ 'GET /contracts': page([contractRow(2, { student_id: 2 })]) });
    const { user, location } = renderApp('/student/2', api);
    const contracts = await screen.findByRole('region', { name: 'Contracts of the student' });
    expect(await within(contracts).findByRole('link', { name: 'A000002' })).toHaveAttribute('href', '/contract/2');
    expect(api.last('GET /contracts')!.query.get('student_id')).toBe('2');
    await user.click(within(contracts).getByRole('button', { name: 'New contract' }));
    expect(location()).toBe('/contract/new?student_id=2');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Student/ })).toHaveValue('Schmidt, Mia'));
  });

  it('says so when the student has no contracts yet', async () => {
    renderApp('/student/2', studentApi({ 'GET /contracts': page([]) }));
    const contracts = await screen.findByRole('region', { name: 'Contracts of the student' });
    expect(await within(contracts).findByText('No contracts yet.')).toBeInTheDocument();
  });

  it('shows an invalid IBAN and BIC on their fields and keeps Save disabled; valid ones are sent without spaces, in capitals', async () => {
    const api = studentApi({ 'PUT /students/2': { body: mia } });
    const { user } = renderApp('/student/2?mode=edit', api);
    await waitFor(() => expect(screen.getByLabelText(/^First Name/)).toHaveValue('Mia'));
    await user.type(screen.getByLabelText(/^IBAN/), 'DE00 3704 0044 0532 0130 00');
    await user.type(screen.getByLabelText(/^BIC/), 'XX');
    expect(await screen.findByText('IBAN is not a valid IBAN')).toBeInTheDocument();
    expect(screen.getByText('BIC / SWIFT is not a valid BIC (8 or 11 characters)')).toBeInTheDocument();
    expect(screen.getByLabelText(/^IBAN/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.clear(screen.getByLabelText(/^IBAN/));
    await user.type(screen.getByLabelText(/^IBAN/), 'de89 3704 0044 0532 0130 00');
    await user.clear(screen.getByLabelText(/^BIC/));
    await user.type(screen.getByLabelText(/^BIC/), 'cobadeffxxx');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(api.last('PUT /students/2')!.body).toEqual({
      id: 2,
      payment_bank_iban: 'DE89370400440532013000',
      payment_bank_swift: 'COBADEFFXXX',
    });
  });

  it('counts an IBAN typed again without its spaces as no change', async () => {
    const withIban = { ...mia, payment_bank_iban: 'DE89370400440532013000' };
    const { user, location } = renderApp('/student/2?mode=edit', studentApi({ 'GET /students/2': { body: withIban } }));
    await waitFor(() => expect(screen.getByLabelText(/^IBAN/)).toHaveValue('DE89 3704 0044 0532 0130 00'));
    await user.clear(screen.getByLabelText(/^IBAN/));
    await user.type(screen.getByLabelText(/^IBAN/), 'DE89370400440532013000');
    // Nothing to lose: the overview opens without the unsaved-changes question.
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    await waitFor(() => expect(location()).toBe('/students'));
  });

  it('creates a student with the required fields; read-only fields are never sent', async () => {
    const api = studentApi({ 'POST /students': { status: 201, body: { id: 3 } }, 'GET /students/3': { body: studentRow(3) } });
    const { user, location } = renderApp('/student/new', api);
    await user.type(await screen.findByLabelText(/^First Name/), 'Lea');
    await user.type(screen.getByLabelText(/^Last Name/), 'Weber');
    await user.type(screen.getByLabelText(/^Birth Date/), '02-03-2001');
    await user.type(screen.getByLabelText(/^Email Address/), 'lea@example.org');
    await user.type(screen.getByLabelText(/^Street Address/), 'Ring 5');
    await user.type(screen.getByLabelText(/^Postal Code/), '50667');
    await user.type(screen.getByLabelText(/^City/), 'Köln');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: /^Country/ }));
    await user.click(await screen.findByRole('option', { name: 'Germany' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/student/3'));
    expect(api.last('POST /students')!.body).toMatchObject({
      first_name: 'Lea',
      last_name: 'Weber',
      birth_date: '2001-03-02',
      email_address: 'lea@example.org',
      address: 'Ring 5',
      zip: '50667',
      city: 'Köln',
      cntry_id: 1,
      payment_bank_iban: null,
    });
    // Read-only fields are never sent (the API refuses them).
    expect(Object.keys(api.last('POST /students')!.body as object)).not.toContain('registration_fee_payed');
  });
});
