import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@app/contracts';
import { blobText, savedFiles } from '../../test/downloads';
import { adminUser, FakeServer, readerUser } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const plainUser: SessionUser = { ...adminUser, id: 3, usr_login_name: 'bob', usr_name: 'Bob User', usr_role_id: 3, userrole_name: 'User' };

const statusButtons = () =>
  within(screen.getByRole('group', { name: 'Status actions' }))
    .getAllByRole('button')
    .map((b) => b.textContent);

async function openContract(id: number, server = new FakeServer(), query = '') {
  const app = renderApp(`/contract/${id}${query}`, server);
  await waitFor(() => expect(screen.getByLabelText(/^Application Number/)).toHaveValue(`A00000${id}`));
  return app;
}

describe('contracts overview', () => {
  it('lists the spec’s columns by last name; the application number opens the contract, the name the student', async () => {
    const server = new FakeServer();
    const { user, location } = renderApp('/contracts', server);
    await screen.findByText('1-2 of 2');
    expect(server.lastRequestTo('GET', '/contracts')!.query.get('sort')).toBe('last_name|asc');
    const table = screen.getByRole('table', { name: 'Contracts' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent).slice(1, 13)).toEqual([
      'Application Number',
      'Student Name▲',
      'Status',
      'Code',
      'Program',
      'Start Date',
      'End Date',
      'Contract Sent',
      'Bank Request',
      'Bank Updated',
      'PF Status Sent',
      'Last Edit',
    ]);
    const first = within(table).getAllByRole('row')[1]!;
    expect(within(first).getAllByRole('cell').slice(1, 8).map((c) => c.textContent)).toEqual([
      'A000001',
      'José Müller',
      'Offer accepted',
      'EMJM-A',
      'DS',
      '01-09-2024',
      '31-08-2026',
    ]);
    // Dates and codes stay on one line however narrow the column gets.
    const cells = within(first).getAllByRole('cell');
    expect(cells[4]).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(cells[6]).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(cells[2]).not.toHaveStyle({ whiteSpace: 'nowrap' });
    await user.click(within(first).getByRole('link', { name: 'José Müller' }));
    expect(location()).toBe('/student/1');
  });

  it('filters by student, status, round, instalments and active', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/contracts', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    await user.click(within(form).getByRole('combobox', { name: /^Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Enrolled' }));
    await user.click(within(form).getByRole('combobox', { name: /^Round/ }));
    await user.click(await screen.findByRole('option', { name: '1' }));
    await user.click(within(form).getByRole('combobox', { name: /^Instalments/ }));
    await user.click(await screen.findByRole('option', { name: 'No' }));
    await user.click(within(form).getByRole('combobox', { name: /^Active/ }));
    await user.click(await screen.findByRole('option', { name: 'Yes' }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(server.lastRequestTo('GET', '/contracts')!.query.get('contract_status_id')).toBe('3'));
    const query = server.lastRequestTo('GET', '/contracts')!.query;
    expect(query.get('application_round')).toBe('1');
    expect(query.get('instalments')).toBe('false');
    expect(query.get('active')).toBe('true');
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Contracts' })).getByText('A000002')).toBeInTheDocument();
  });

  it('filters by contract, chosen from the contracts list', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/contracts', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    await user.click(within(form).getByRole('combobox', { name: /^Contract/ }));
    await user.click(await screen.findByRole('option', { name: /^A000002/ }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(server.lastRequestTo('GET', '/contracts')!.query.get('contract_id')).toBe('2'));
  });

  it('Export report sends the current filter, or the selection, and saves Contracts.xlsx', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/contracts', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('button', { name: 'Export report' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(server.lastRequestTo('POST', '/contracts/download_report')!.body).toEqual({ filter: { sort: 'last_name|asc' } });
    expect(savedFiles[0]!.filename).toBe('Contracts.xlsx');
    expect(await blobText(savedFiles[0]!.blob)).toMatch(/^PK/);

    await user.click(screen.getByRole('checkbox', { name: 'Select A000002' }));
    await user.click(screen.getByRole('button', { name: 'Export report' }));
    await waitFor(() => expect(savedFiles).toHaveLength(2));
    expect(server.lastRequestTo('POST', '/contracts/download_report')!.body).toEqual({ ids: [2] });
  });

  describe('Bulk Edit', () => {
    it('is offered to an Administrator only when rows are selected', async () => {
      const { user } = renderApp('/contracts');
      await screen.findByText('1-2 of 2');
      expect(screen.queryByRole('button', { name: 'Bulk Edit' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('checkbox', { name: 'Select A000001' }));
      expect(screen.getByRole('button', { name: 'Bulk Edit' })).toBeInTheDocument();
    });

    it('is hidden from a User, even with a selection', async () => {
      const { user } = renderApp('/contracts', new FakeServer({ session: plainUser }));
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      expect(screen.getByText('2 selected')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Bulk Edit' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Export report' })).toBeInTheDocument();
    });

    it('sends only the fields that were set, then confirms in green, clears the selection and refreshes', async () => {
      const server = new FakeServer();
      const { user } = renderApp('/contracts', server);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      for (const name of [/^Year 1 finished/, /^Year 2 finished/, /^University Y2/]) {
        expect(within(dialog).getByRole('combobox', { name })).toHaveValue('');
      }
      await user.click(within(dialog).getByRole('combobox', { name: /^Year 2 finished/ }));
      await user.click(await screen.findByRole('option', { name: 'No' }));
      await user.type(within(dialog).getByLabelText(/^Contract sent date/), '15-05-2024');
      const listsBefore = server.requestsTo('GET', '/contracts').length;
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Bulk Edit: 2 of 2 contracts changed');
      expect(server.requestsTo('POST', '/contracts/bulk_edit')).toHaveLength(1);
      expect(server.lastRequestTo('POST', '/contracts/bulk_edit')!.body).toEqual({
        ids: [1, 2],
        changes: { year2_finished: false, contract_sent_date: '2024-05-15' },
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.queryByText('2 selected')).not.toBeInTheDocument();
      await waitFor(() => expect(server.requestsTo('GET', '/contracts').length).toBeGreaterThan(listsBefore));
      expect(await screen.findAllByText('15-05-2024')).toHaveLength(2);
    });

    it('sends nothing when no field was set, and just closes', async () => {
      const server = new FakeServer();
      const { user } = renderApp('/contracts', server);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select A000001' }));
      await user.click(screen.getByRole('button', { name: 'Bulk Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('POST', '/contracts/bulk_edit')).toHaveLength(0);
      expect(screen.getByText('1 selected')).toBeInTheDocument();
    });
  });
});

describe('contract screen', () => {
  it('offers exactly the status actions of the current status: from Enrolled, Reject Offer, Take a break, Graduate, Drop-out', async () => {
    await openContract(2);
    expect(statusButtons()).toEqual(['Reject Offer', 'Take a break', 'Graduate', 'Drop-out']);
  });

  it('from Offer accepted offers Reject Offer and Enrole', async () => {
    await openContract(1);
    expect(statusButtons()).toEqual(['Reject Offer', 'Enrole']);
  });

  it('a status action sends the target and shows the returned record without reloading', async () => {
    const server = new FakeServer();
    const { user } = await openContract(2, server);
    const gets = server.requestsTo('GET', '/contracts/2').length;
    await user.click(screen.getByRole('button', { name: 'Take a break' }));
    await waitFor(() => expect(screen.getByLabelText(/^Status$/)).toHaveValue('On a break'));
    expect(server.lastRequestTo('PUT', '/contracts/2/update_status')!.body).toEqual({ contract_status_id: 4 });
    expect(screen.getByLabelText(/^Status date/)).toHaveValue('01-06-2024');
    expect(statusButtons()).toEqual(['Enrole', 'Drop-out']);
    expect(server.requestsTo('GET', '/contracts/2')).toHaveLength(gets);
  });

  it('shows the server’s message in a red alert when the transition is refused (409)', async () => {
    const server = new FakeServer().on('PUT', '/contracts/1/update_status', {
      status: 409,
      body: { message: 'A contract with status "Graduated" cannot change to "Offer rejected"' },
    });
    const { user } = await openContract(1, server);
    await user.click(screen.getByRole('button', { name: 'Reject Offer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A contract with status "Graduated" cannot change to "Offer rejected"');
    expect(screen.getByLabelText(/^Status$/)).toHaveValue('Offer accepted');
  });

  it('offers no status actions in edit mode', async () => {
    await openContract(2, new FakeServer(), '?mode=edit');
    expect(screen.queryByRole('group', { name: 'Status actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Graduate' })).not.toBeInTheDocument();
  });

  it('a Reader sees neither status actions nor upload and delete of documents, but may download', async () => {
    const { user } = await openContract(1, new FakeServer({ session: readerUser }));
    expect(screen.queryByRole('group', { name: 'Status actions' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const documents = screen.getByRole('table', { name: 'Documents' });
    expect(await within(documents).findByText('contract.pdf')).toBeInTheDocument();
    expect(within(documents).getByRole('button', { name: 'Download' })).toBeEnabled();
    expect(within(documents).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Upload document' })).not.toBeInTheDocument();
  });

  it('links to the student, shows application number, status and amounts read-only', async () => {
    const { user, location } = await openContract(1);
    expect(screen.getByLabelText(/^Application Number/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Status$/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Invoiced amount/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Invoiced amount/)).toHaveValue('€ 0,00');
    await user.click(within(screen.getByRole('region', { name: 'Contract information' })).getByRole('link', { name: 'José Müller' }));
    expect(location()).toBe('/student/1');
  });

  it('a new contract starts with the defaults; setting the start date sets the end date; Save sends both', async () => {
    const server = new FakeServer();
    const { user, location } = renderApp('/contract/new?student_id=2', server);
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Student/ })).toHaveValue('Schmidt, Mia'));
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bank info required' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Check university fee payment' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Instalments' })).not.toBeChecked();

    await user.type(screen.getByLabelText(/^Start date/), '01-09-2025');
    await waitFor(() => expect(screen.getByLabelText(/^End date/)).toHaveValue('31-08-2027'));

    await user.click(screen.getByRole('combobox', { name: /^Scholarship/ }));
    await user.click(await screen.findByRole('option', { name: 'EMJM-B' }));
    await user.click(screen.getByRole('combobox', { name: /^Program/ }));
    await user.click(await screen.findByRole('option', { name: 'Data Science' }));
    await user.type(screen.getByLabelText(/^Intake/), '2025');
    await user.click(screen.getByRole('combobox', { name: /^Round/ }));
    await user.click(await screen.findByRole('option', { name: '0' }));
    await user.type(screen.getByLabelText(/^Application ID/), 'APP-9');
    await user.click(screen.getByRole('combobox', { name: /^University Y1/ }));
    await user.click(await screen.findByRole('option', { name: 'Technical University of Munich' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/contract/3'));
    expect(server.lastRequestTo('POST', '/contracts')!.body).toEqual({
      student_id: 2,
      scholarship_id: 2,
      program_id: 1,
      intake: 2025,
      application_round: 0,
      application_id: 'APP-9',
      da_application_id: null,
      da_offer_type_displayname: null,
      number: null,
      y1_university_id: 1,
      y2_university_id: null,
      year1_finished: false,
      year2_finished: false,
      active: true,
      start_date: '2025-09-01',
      end_date: '2027-08-31',
      expected_graduation_date: null,
      contract_sent_date: null,
      contract_signed_date: null,
      contract_status_date: null,
      bankinfo_required: true,
      check_universityfee_payment: true,
      instalments: false,
      comments: null,
    });
    expect(await screen.findByRole('tab', { name: 'Documents (0)' })).toBeInTheDocument();
  });

  it('editing the start date moves the end date, and both are sent', async () => {
    const server = new FakeServer();
    const { user } = await openContract(1, server, '?mode=edit');
    const start = screen.getByLabelText(/^Start date/);
    await user.clear(start);
    await user.type(start, '29-02-2024');
    await waitFor(() => expect(screen.getByLabelText(/^End date/)).toHaveValue('27-02-2026'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(server.lastRequestTo('PUT', '/contracts/1')!.body).toEqual({ id: 1, start_date: '2024-02-29', end_date: '2026-02-27' });
  });
});

describe('contract documents', () => {
  it('shows the number of documents in the tab, and the list', async () => {
    const { user } = await openContract(1);
    expect(screen.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const row = (await within(screen.getByRole('table', { name: 'Documents' })).findByText('contract.pdf')).closest('tr')!;
    expect(within(row).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['contract.pdf', 'Contract', 'As sent', '2.0 KB']);
  });

  it('keeps Upload disabled until a file is chosen; uploads (record, then file) and counts it', async () => {
    const server = new FakeServer();
    const { user } = await openContract(1, server);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    const upload = within(form).getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();
    await waitFor(() => expect(within(form).getByRole('combobox', { name: /^Type/ })).toHaveValue('Contract'));
    await user.click(within(form).getByRole('combobox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Passport copy' }));
    await user.type(within(form).getByLabelText(/^Description/), 'Front page');
    await user.upload(within(form).getByLabelText('File'), new File(['passport bytes'], 'passport.pdf', { type: 'application/pdf' }));
    expect(upload).toBeEnabled();
    await user.click(upload);
    expect(await screen.findByRole('tab', { name: 'Documents (2)' })).toBeInTheDocument();
    expect(server.lastRequestTo('POST', '/contract_files')!.body).toEqual({ contract_id: 1, ft_id: 3, description: 'Front page', filename: 'passport.pdf' });
    const sent = server.lastRequestTo('POST', '/contract_files/2/upload')!.body as FormData;
    expect((sent.get('file') as File).name).toBe('passport.pdf');
    expect(await within(screen.getByRole('table', { name: 'Documents' })).findByText('passport.pdf')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('shows the server’s message of a too large file (413) and removes the empty record', async () => {
    const server = new FakeServer().on('POST', '/contract_files/2/upload', { status: 413, body: { message: 'The file is larger than 20 MB' } });
    const { user } = await openContract(1, server);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    await user.upload(within(form).getByLabelText('File'), new File(['x'], 'big.pdf'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is larger than 20 MB');
    expect(within(form).getByText('The file is larger than 20 MB')).toBeInTheDocument();
    await waitFor(() => expect(server.requestsTo('DELETE', '/contract_files/2')).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Documents (1)' })).toBeInTheDocument();
  });

  it('downloads a document under its file name', async () => {
    const server = new FakeServer();
    const { user } = await openContract(1, server);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const table = screen.getByRole('table', { name: 'Documents' });
    await within(table).findByText('contract.pdf');
    await user.click(within(table).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(server.requestsTo('POST', '/contract_files/1/download')).toHaveLength(1);
    expect(savedFiles[0]!.filename).toBe('contract.pdf');
    expect(await blobText(savedFiles[0]!.blob)).toBe('%PDF-1.4 fake');
  });

  it('deletes a document after the confirmation, and counts it', async () => {
    const server = new FakeServer();
    const { user } = await openContract(1, server);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const table = screen.getByRole('table', { name: 'Documents' });
    await within(table).findByText('contract.pdf');
    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Document?');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.requestsTo('DELETE', '/contract_files/1')).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('tab', { name: 'Documents (0)' })).toBeInTheDocument();
    expect(server.requestsTo('DELETE', '/contract_files/1')).toHaveLength(1);
    expect(await within(table).findByText('No Data Available')).toBeInTheDocument();
  });
});
