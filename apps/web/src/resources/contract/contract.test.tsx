import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APPLICATION_ROUNDS, CONTRACT_STATUSES, MAX_UPLOAD_BYTES, STATUS_ACTIONS } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { adminUser, choiceList, contractRow, failure, page, plainUser, readerUser, scholarships, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const LATER = '2024-06-01T09:00:00.000Z';

const enrolled = contractRow(2, {
  student_id: 2,
  student_name: 'Mia Schmidt',
  first_name: 'Mia',
  last_name: 'Schmidt',
  contract_status_id: 3,
  contract_status_name: 'Enrolled',
  contract_status_date: '2024-09-15',
});

const document1 = {
  id: 1,
  contract_id: 1,
  ft_id: 1,
  file_type: 'Contract',
  description: 'As sent',
  filename: 'contract.pdf',
  size: 2048,
  mime_type: 'application/pdf',
  uploaded: true,
  edit_timestamp: SEEN,
};

/** The choice lists of the contract form, its filters and its documents. */
const contractChoices: Answers = {
  ...choiceList('students', [
    { id: 1, name: 'Müller, José' },
    { id: 2, name: 'Schmidt, Mia' },
  ]),
  ...choiceList('scholarships', scholarships),
  ...choiceList('programs', [
    { id: 2, name: 'Applied Physics' },
    { id: 1, name: 'Data Science' },
  ]),
  ...choiceList('universities', [{ id: 1, name: 'Technical University of Munich' }]),
  ...choiceList('contracts', [
    { id: 1, name: 'A000001' },
    { id: 2, name: 'A000002' },
  ]),
  ...choiceList('contract_status', CONTRACT_STATUSES.map((s) => ({ id: s.id, name: s.name }))),
  ...choiceList('contracts_intake', [{ id: 2024, name: '2024' }]),
  ...choiceList('file_types', [
    { id: 1, name: 'Contract' },
    { id: 2, name: 'Signed contract' },
    { id: 3, name: 'Passport copy' },
  ]),
};

function contractApi(answers: Answers = {}) {
  return stubApi({
    ...session(),
    ...contractChoices,
    'GET /contracts': page([contractRow(1), enrolled]),
    'GET /contracts/1': { body: contractRow(1, { files: 1 }) },
    'GET /contracts/2': { body: enrolled },
    'GET /contract_files': page([document1]),
    ...answers,
  });
}

/** The contract's mail actions, as its screen offers them. */
const MAIL_BUTTONS = ['Send bank info request', 'Send PF status', 'Send payment info', 'Request payment info for refund'];

/** The record's action buttons that change its status (the variants of update_status). */
const STATUS_LABELS: readonly string[] = STATUS_ACTIONS.map((a) => a.label);
/** The status changes offered: the items of the one Change status menu (no status is a button of its own). */
async function statusChoices(user: ReturnType<typeof renderApp>['user']) {
  const actions = within(screen.getByRole('group', { name: 'Actions' }));
  expect(actions.getAllByRole('button').filter((b) => STATUS_LABELS.includes(b.textContent ?? ''))).toEqual([]);
  await user.click(actions.getByRole('button', { name: 'Change status' }));
  const items = within(await screen.findByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  return items;
}

/** Chooses a status change in the Change status menu. */
async function changeStatus(user: ReturnType<typeof renderApp>['user'], label: string) {
  await user.click(within(screen.getByRole('group', { name: 'Actions' })).getByRole('button', { name: 'Change status' }));
  await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: label }));
}

/** A finished batch run as `GET /batch_runs/{id}` answers it. */
function finishedRun(id: number, label: string, rows: { id: number; reference: string; ok: boolean; message: string; retryable?: boolean }[]) {
  const failed = rows.filter((r) => !r.ok).length;
  return {
    body: {
      id,
      resource: 'contract',
      action: 'x',
      label,
      dry_run: false,
      status: 'finished',
      total: rows.length,
      done: rows.length,
      failed,
      retryable: rows.filter((r) => !r.ok && r.retryable).length,
      amount: null,
      created_user: 'Ada Admin',
      created_timestamp: SEEN,
      finished_timestamp: LATER,
      source_run_id: null,
      totals: [],
      rows: rows.map((r) => ({ ...r, status: r.ok ? 'ok' : 'failed', amount: null, retryable: r.retryable ?? false })),
    },
  };
}

async function openContract(id: number, api = contractApi(), query = '') {
  const app = renderApp(`/contract/${id}${query}`, api);
  await waitFor(() => expect(screen.getByLabelText(/^Application Number/)).toHaveValue(`A00000${id}`));
  return app;
}

describe('contracts overview', () => {
  it('lists the spec’s columns, asks for them by last name; the application number opens the contract, the name the student', async () => {
    const api = contractApi();
    const { user, location } = renderApp('/contracts', api);
    await screen.findByText('1-2 of 2');
    expect(api.last('GET /contracts')!.query.get('sort')).toBe('last_name|asc');
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
    // Dates and codes stay on one line however narrow the column gets, and so do short texts such as a name drawn
    // as a link; a long text may wrap (overview.test.tsx).
    const cells = within(first).getAllByRole('cell');
    expect(cells[4]).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(cells[6]).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(cells[2]).toHaveStyle({ whiteSpace: 'nowrap' });
    await user.click(within(first).getByRole('link', { name: 'José Müller' }));
    expect(location()).toBe('/student/1');
  });

  it('sends the status, round, instalments and active filters as query parameters', async () => {
    const api = contractApi();
    const { user } = renderApp('/contracts', api);
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
    await waitFor(() => expect(api.last('GET /contracts')!.query.get('contract_status_id')).toBe('3'));
    const query = api.last('GET /contracts')!.query;
    expect(query.get('application_round')).toBe('1');
    expect(query.get('instalments')).toBe('false');
    expect(query.get('active')).toBe('true');
    expect(query.get('page')).toBe('1');
  });

  it('shows the advanced filter fields in the spec’s order, the contract’s own extras after them', async () => {
    const { user } = renderApp('/contracts', contractApi());
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    const labels = [...form.querySelectorAll('label')].map((l) => l.textContent?.trim()).filter((l) => l);
    expect(labels).toEqual([
      'Contract',
      'Student',
      'Intake',
      'Round',
      'Status',
      'Instalments',
      'Program',
      'Document Type',
      'Email Sent',
      'Open',
      'Pro Forma',
      'Planned before',
      'Expired after',
      'Scholarship',
      'Active',
    ]);
  });

  it('offers the rounds of the spec in the Round filter', async () => {
    const { user } = renderApp('/contracts', contractApi());
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(screen.getByRole('form', { name: 'Advanced filter' })).getByRole('combobox', { name: /^Round/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(APPLICATION_ROUNDS.map(String));
  });

  it('filters by contract, chosen from the contracts list (contract_id)', async () => {
    const api = contractApi();
    const { user } = renderApp('/contracts', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = screen.getByRole('form', { name: 'Advanced filter' });
    await user.click(within(form).getByRole('combobox', { name: /^Contract/ }));
    await user.click(await screen.findByRole('option', { name: /^A000002/ }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(api.last('GET /contracts')!.query.get('contract_id')).toBe('2'));
  });

  it('Export report sends the current filter, or the selection, and saves the file as Contracts.xlsx', async () => {
    const api = contractApi({
      'POST /contracts/download_report': { file: { content: new Blob(['PK fixture']), filename: 'Contracts.xlsx' } },
    });
    const { user } = renderApp('/contracts', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('button', { name: 'Export report' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /contracts/download_report')!.body).toEqual({ filter: { sort: 'last_name|asc' } });
    expect(savedFiles[0]!.filename).toBe('Contracts.xlsx');
    expect(await blobText(savedFiles[0]!.blob)).toBe('PK fixture');

    await user.click(screen.getByRole('checkbox', { name: 'Select A000002' }));
    await user.click(screen.getByRole('button', { name: 'Export report' }));
    await waitFor(() => expect(savedFiles).toHaveLength(2));
    // The selection in the overview's order (decision 041).
    expect(api.last('POST /contracts/download_report')!.body).toEqual({ ids: [2], filter: { sort: 'last_name|asc' } });
  });

  describe('Batch menu', () => {
    const openBatch = async (user: ReturnType<typeof renderApp>['user']) => {
      await user.click(screen.getByRole('button', { name: 'Batch' }));
      return screen.findByRole('menu');
    };

    it('is offered only when rows are selected, with Bulk Edit for an Administrator', async () => {
      const { user } = renderApp('/contracts', contractApi());
      await screen.findByText('1-2 of 2');
      expect(screen.queryByRole('button', { name: 'Batch' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('checkbox', { name: 'Select A000001' }));
      const menu = await openBatch(user);
      expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Change status', 'Mark contract sent', 'Email bank info request', 'Send PF Status', 'Plan invoices', 'Plan scholarship payments', 'Bulk Edit']);
    });

    it('offers a User the batch actions but not Bulk Edit (Administrator, DESIGN §4)', async () => {
      const { user } = renderApp('/contracts', contractApi(session(plainUser)));
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      expect(screen.getByText('2 selected')).toBeInTheDocument();
      const menu = await openBatch(user);
      expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Change status', 'Mark contract sent', 'Email bank info request', 'Send PF Status', 'Plan invoices', 'Plan scholarship payments']);
      expect(screen.getByRole('button', { name: 'Export report' })).toBeInTheDocument();
    });

    it('offers a Reader no Batch menu at all', async () => {
      const { user } = renderApp('/contracts', contractApi(session(readerUser)));
      await screen.findByText('1-2 of 2');
      const select = screen.queryByRole('checkbox', { name: 'Select A000001' });
      if (select) await user.click(select);
      expect(screen.queryByRole('button', { name: 'Batch' })).not.toBeInTheDocument();
    });

    it('Email bank info request previews who would get the mail and who is skipped and why, and Confirm sends it for real', async () => {
      const api = contractApi({
        ...session(plainUser),
        'POST /contracts/batch/send_bankinfo_request': { status: 202, body: { run_id: 9 } },
        'GET /batch_runs/9': {
          body: {
            ...finishedRun(9, 'Email bank info request', [
              { id: 1, reference: 'A000001', ok: true, message: 'E-mail "Your bank details for contract A000001" to José Müller <jose.mueller@example.org> queued' },
              { id: 2, reference: 'A000002', ok: false, message: 'Error for A000002: The student has no e-mail address' },
            ]).body,
            dry_run: true,
          },
        },
        'POST /batch_runs/9/confirm': { status: 202, body: { run_id: 10 } },
        'GET /batch_runs/10': finishedRun(10, 'Email bank info request', [
          { id: 1, reference: 'A000001', ok: true, message: 'E-mail "Your bank details for contract A000001" to José Müller <jose.mueller@example.org> queued' },
        ]),
      });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Email bank info request' }));
      const ask = await screen.findByRole('dialog', { name: 'Email bank info request' });
      expect(within(ask).getByText(/Nothing is sent until you confirm/)).toBeInTheDocument();
      await user.click(within(ask).getByRole('button', { name: 'Preview' }));
      expect(api.last('POST /contracts/batch/send_bankinfo_request')!.body).toEqual({ ids: [1, 2], dry_run: true, versions: { '1': SEEN, '2': SEEN } });
      const preview = await screen.findByRole('dialog', { name: 'Preview: Email bank info request' });
      expect(await within(preview).findByText(/to José Müller <jose.mueller@example.org> queued/)).toBeInTheDocument();
      expect(within(preview).getByText('Error for A000002: The student has no e-mail address')).toBeInTheDocument();
      await user.click(within(preview).getByRole('button', { name: /^Confirm/ }));
      await waitFor(() => expect(api.sent('POST /batch_runs/9/confirm')).toHaveLength(1));
    });

    it('reports "Server error while sending email" when Send PF Status cannot start', async () => {
      const api = contractApi({ 'POST /contracts/batch/send_pf_status': failure(500, 'boom') });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select A000001' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Send PF Status' }));
      await user.click(within(await screen.findByRole('dialog', { name: 'Send PF Status' })).getByRole('button', { name: 'Preview' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Server error while sending email');
    });

    it('Bulk Edit keeps Apply disabled until a field is set, sends only the fields set with the versions seen, follows the run to Finished, then clears the selection and reloads', async () => {
      const api = contractApi({
        'POST /contracts/bulk_edit': { status: 202, body: { run_id: 7 } },
        'GET /batch_runs/7': finishedRun(7, 'Bulk Edit', [
          { id: 1, reference: 'A000001', ok: true, message: 'Changed year2_finished, contract_sent_date' },
          { id: 2, reference: 'A000002', ok: false, message: 'Error for A000002: This Contract was changed by Bob User at 01-06-2024 11:00 after you opened it. Reload it to see the changes.' },
        ]),
      });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Bulk Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      for (const name of [/^Year 1 finished/, /^Year 2 finished/, /^University Y2/]) {
        expect(within(dialog).getByRole('combobox', { name })).toHaveValue('');
      }
      expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
      await user.click(within(dialog).getByRole('combobox', { name: /^Year 2 finished/ }));
      await user.click(await screen.findByRole('option', { name: 'No' }));
      await user.type(within(dialog).getByLabelText(/^Contract sent date/), '15-05-2024');
      const listsBefore = api.sent('GET /contracts').length;
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      expect(api.last('POST /contracts/bulk_edit')!.body).toEqual({
        ids: [1, 2],
        changes: { year2_finished: false, contract_sent_date: '2024-05-15' },
        versions: { '1': SEEN, '2': SEEN },
      });
      const run = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      expect(await within(run).findByText('Finished: 1 of 2 done, 1 failed')).toBeInTheDocument();
      expect(within(run).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
      expect(within(within(run).getByRole('list', { name: 'Errors' })).getByText(/^Error for A000002: This Contract was changed by Bob User/)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByText('2 selected')).not.toBeInTheDocument());
      await waitFor(() => expect(api.sent('GET /contracts').length).toBeGreaterThan(listsBefore));
      await user.click(within(run).getByRole('button', { name: 'Download result' }));
      await waitFor(() => expect(api.sent('GET /batch_runs/7/result')).toHaveLength(1));
    });

    it('Bulk Edit keeps what was set when the session ends at Apply: a login over the dialog, then Apply sends it (decision 061)', async () => {
      const api = contractApi({ 'POST /contracts/bulk_edit': failure(401, 'You are not logged in') });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Bulk Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      await user.type(within(dialog).getByLabelText(/^Contract sent date/), '15-05-2024');
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));

      const login = await screen.findByRole('dialog', { name: 'Your session has ended' });
      api.on('POST /auth/login', { body: { user: adminUser, token: 'jwt' } });
      api.on('POST /contracts/bulk_edit', { status: 202, body: { run_id: 7 } });
      api.on('GET /batch_runs/7', finishedRun(7, 'Bulk Edit', [{ id: 1, reference: 'A000001', ok: true, message: 'Changed contract_sent_date' }]));
      await user.type(within(login).getByLabelText('Password'), 'right password{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your session has ended' })).not.toBeInTheDocument());
      expect(within(dialog).getByLabelText(/^Contract sent date/)).toHaveValue('15-05-2024');
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      await waitFor(() => expect(api.sent('POST /contracts/bulk_edit')).toHaveLength(2));
      expect(api.last('POST /contracts/bulk_edit')!.body).toMatchObject({ ids: [1, 2], changes: { contract_sent_date: '2024-05-15' } });
    });

    it('Change status asks the new status, sends it with the selection, and retries the failed rows on request', async () => {
      const api = contractApi({
        'POST /contracts/batch/update_status': { status: 202, body: { run_id: 8 } },
        'GET /batch_runs/8': finishedRun(8, 'Change status', [
          // A failure that may pass (a clash with other changes): Retry failed rows does it again.
          { id: 1, reference: 'A000001', ok: false, message: 'Error for A000001: given up after 3 attempts: it clashed with other changes each time', retryable: true },
          { id: 2, reference: 'A000002', ok: true, message: 'Enrolled → Graduated' },
        ]),
        'POST /batch_runs/8/retry_failed': finishedRun(8, 'Change status', []),
      });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Change status' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change status' });
      expect(within(dialog).getByRole('button', { name: 'Run' })).toBeDisabled();
      await user.click(within(dialog).getByRole('combobox', { name: /^New status/ }));
      await user.click(await screen.findByRole('option', { name: 'Graduated' }));
      await user.click(within(dialog).getByRole('button', { name: 'Run' }));
      expect(api.last('POST /contracts/batch/update_status')!.body).toEqual({ contract_status_id: 5, ids: [1, 2], versions: { '1': SEEN, '2': SEEN } });
      const run = await screen.findByRole('dialog', { name: 'Change status' });
      expect(await within(run).findByText('Error for A000001: given up after 3 attempts: it clashed with other changes each time')).toBeInTheDocument();
      await user.click(within(run).getByRole('button', { name: 'Retry failed rows' }));
      await waitFor(() => expect(api.sent('POST /batch_runs/8/retry_failed')).toHaveLength(1));
    });

    it('reports "Server error while saving update" when Bulk Edit cannot start, and keeps the dialog with what was typed', async () => {
      const api = contractApi({ 'POST /contracts/bulk_edit': failure(500, 'boom') });
      const { user } = renderApp('/contracts', api);
      await screen.findByText('1-2 of 2');
      await user.click(screen.getByRole('checkbox', { name: 'Select A000001' }));
      await user.click(within(await openBatch(user)).getByRole('menuitem', { name: 'Bulk Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      await user.type(within(dialog).getByLabelText(/^Contract sent date/), '15-05-2024');
      await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Server error while saving update');
      expect(screen.getByRole('dialog', { name: 'Bulk Edit' })).toBeInTheDocument();
      expect(within(dialog).getByLabelText(/^Contract sent date/)).toHaveValue('15-05-2024');
      expect(screen.getByText('1 selected')).toBeInTheDocument();
    });
  });
});

describe('contract screen', () => {
  it('offers exactly the status actions of the current status in one menu: from Enrolled, Reject Offer, Take a break, Graduate, Drop-out', async () => {
    const { user } = await openContract(2);
    expect(await statusChoices(user)).toEqual(['Reject Offer', 'Take a break', 'Graduate', 'Drop-out']);
  });

  it('from Offer accepted offers Reject Offer and Enrole', async () => {
    const { user } = await openContract(1);
    expect(await statusChoices(user)).toEqual(['Reject Offer', 'Enrole']);
  });

  it('a status action sends the target, shows the returned record without reloading, and says it was done', async () => {
    const onBreak = { ...enrolled, contract_status_id: 4, contract_status_name: 'On a break', contract_status_date: '2024-06-01', edit_timestamp: LATER };
    const api = contractApi({ 'PUT /contracts/2/update_status': { body: onBreak } });
    const { user } = await openContract(2, api);
    const gets = api.sent('GET /contracts/2').length;
    await changeStatus(user, 'Take a break');
    await waitFor(() => expect(screen.getByLabelText(/^Status$/)).toHaveValue('On a break'));
    expect(await screen.findByRole('status')).toHaveTextContent('Take a break: done for Contract A000002');
    expect(api.last('PUT /contracts/2/update_status')!.body).toEqual({ contract_status_id: 4 });
    expect(screen.getByLabelText(/^Status date/)).toHaveValue('01-06-2024');
    expect(await statusChoices(user)).toEqual(['Enrole', 'Drop-out']);
    expect(api.sent('GET /contracts/2')).toHaveLength(gets);
  });

  it('shows the server’s message in a red alert when the transition is refused (409), and keeps the status', async () => {
    const message = 'A contract with status "Graduated" cannot change to "Offer rejected"';
    const { user } = await openContract(1, contractApi({ 'PUT /contracts/1/update_status': failure(409, message) }));
    await changeStatus(user, 'Reject Offer');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText(/^Status$/)).toHaveValue('Offer accepted');
  });

  it('offers Mark contract sent while the contract is not sent, and says why not once it is', async () => {
    const marked = { ...enrolled, contract_sent_date: '2024-06-01', edit_timestamp: LATER };
    const api = contractApi({ 'POST /contracts/2/mark_sent': { body: marked } });
    const { user } = await openContract(2, api);
    await user.click(screen.getByRole('button', { name: 'Mark contract sent' }));
    expect(api.last('POST /contracts/2/mark_sent')!.headers['if-match']).toBe(SEEN);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark contract sent' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Mark contract sent' })).toHaveAttribute('data-disabled-reason', 'The contract was already marked sent on 01-06-2024');
    expect(screen.getByLabelText(/^Contract sent date/)).toHaveValue('01-06-2024');
  });

  it("opens a History that lists the events of its invoices, payments and mails too (contract_id)", async () => {
    const api = contractApi({
      'GET /logging': page([
        { id: 8, le_time: LATER, eventtype_id: 12, eventtype: 'E-mail failed', le_message: 'Invoice "2024-00007": e-mail to mia@example.org failed: mailbox full', student_id: 2, student_name: 'Mia Schmidt', contract_id: 2, le_contract: 'A000002', usr_id: 1, usr_name: 'Ada Admin', changes: null },
        { id: 5, le_time: LATER, eventtype_id: 5, eventtype: 'Update', le_message: 'Updated Invoice "A000002-Y1-T5": amount 10 → 12.5', student_id: 2, student_name: 'Mia Schmidt', contract_id: 2, le_contract: 'A000002', usr_id: 1, usr_name: 'Ada Admin', resource: 'invoice', changes: { amount: { old: 10, new: 12.5 }, planned_date: { old: null, new: '2026-03-01' }, semester: { old: 0, new: 1 } } },
        { id: 4, le_time: LATER, eventtype_id: 8, eventtype: 'Status change', le_message: 'Enrole: Contract "A000002"', student_id: 2, student_name: 'Mia Schmidt', contract_id: 2, le_contract: 'A000002', usr_id: 1, usr_name: 'Ada Admin', resource: 'contract', changes: { contract_status_id: { old: 1, new: 3 }, contract_status_date: { old: '2024-09-03', new: '2026-11-27' }, year1_finished: { old: false, new: true } } },
        { id: 6, le_time: LATER, eventtype_id: 6, eventtype: 'Delete', le_message: 'Deleted Contract File "scan.pdf"', student_id: 2, student_name: 'Mia Schmidt', contract_id: 2, le_contract: 'A000002', usr_id: 1, usr_name: 'Ada Admin', resource: 'contract_file', changes: { ft_id: { old: 3, new: null }, contract_id: { old: 2, new: null } } },
        { id: 3, le_time: SEEN, eventtype_id: 4, eventtype: 'Create', le_message: 'Created Contract "A000002"', student_id: 2, student_name: 'Mia Schmidt', contract_id: 2, le_contract: 'A000002', usr_id: 1, usr_name: 'Ada Admin', changes: null },
      ]),
    });
    const { user } = await openContract(2, api);
    await user.click(screen.getByRole('button', { name: 'History' }));
    const history = await screen.findByRole('table', { name: 'History' });
    expect(within(history).getByText(/Invoice "2024-00007": e-mail .* failed/)).toBeInTheDocument();
    // Each change named and shown as the screens do: the invoice's amount in euros, dates as DD-MM-YYYY (decision 052).
    const change = (label: string) => [...within(history).getByText(label).closest('tr')!.children].map((c) => c.textContent);
    expect(change('Amount')).toEqual(['Amount', '€ 10,00', '→', '€ 12,50']);
    expect(change('Planned Date')).toEqual(['Planned Date', '(empty)', '→', '01-03-2026']);
    // A value the overview names in words is named so here too: not "0 → 1".
    expect(change('Semester')).toEqual(['Semester', 'Whole year', '→', '1']);
    // Another record's id is named as its choice list names it (decision 067): not "Contract status 1 → 3".
    await waitFor(() => expect(change('Status')).toEqual(['Status', 'Offer accepted', '→', 'Enrolled']));
    await waitFor(() => expect(change('Type')).toEqual(['Type', 'Passport copy', '→', '(empty)']));
    await waitFor(() => expect(change('Contract')).toEqual(['Contract', 'A000002', '→', '(empty)']));
    // The contract's own fields as its form names them, not as the column is spelt ("Year1 finished").
    expect(change('Year 1 finished')).toEqual(['Year 1 finished', 'No', '→', 'Yes']);
    expect(change('Status date')).toEqual(['Status date', '03-09-2024', '→', '27-11-2026']);
    expect(screen.getByText('With the events of its invoices, payments, scholarship payments, documents and e-mails.')).toBeInTheDocument();
    const query = api.last('GET /logging')!.query;
    expect([query.get('contract_id'), query.get('resource'), query.get('record_id')]).toEqual(['2', null, null]);
  });

  it('on a phone folds its many actions behind one button, so the contract comes first (decision 054)', async () => {
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...wide(query), matches: query.includes('max-width: 48em') })) as typeof window.matchMedia;
    try {
      const { user } = await openContract(2);
      const fold = screen.getByRole('button', { name: /^Actions \(\d+\)$/ });
      expect(fold).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('button', { name: 'Mark contract sent' })).not.toBeInTheDocument();
      await user.click(fold);
      expect(fold).toHaveAttribute('aria-expanded', 'true');
      expect(await screen.findByRole('button', { name: 'Mark contract sent' })).toBeVisible();
    } finally {
      window.matchMedia = wide;
    }
  });

  it('offers no status actions in edit mode', async () => {
    await openContract(2, contractApi(), '?mode=edit');
    expect(screen.queryByRole('group', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change status' })).not.toBeInTheDocument();
  });

  it('a Reader sees neither status actions nor upload and delete of documents, but may download', async () => {
    const { user } = await openContract(1, contractApi(session(readerUser)));
    // Everyone logged in may download (spec §6): the numbered invoice details and the payment status files are the Reader's only actions.
    const actions = screen.getByRole('group', { name: 'Actions' });
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Download numbered invoice details', 'Download payment status', 'Download PF payment status']);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const documents = screen.getByRole('table', { name: 'Documents' });
    expect(await within(documents).findByText('contract.pdf')).toBeInTheDocument();
    expect(within(documents).getByRole('button', { name: 'Download' })).toBeEnabled();
    expect(within(documents).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Upload document' })).not.toBeInTheDocument();
  });

  it('links to the six overviews of the contract, filtered by contract_id (spec §2)', async () => {
    const { user, location } = await openContract(1);
    const nav = screen.getByRole('navigation', { name: 'Overviews of this contract' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Planned invoices', '/invoices/planned?contract_id=1'],
      ['Numbered invoices', '/invoices/numbered?contract_id=1'],
      ['Credit notes', '/invoices/creditnote?contract_id=1'],
      ['Invoice payments', '/invoicepayments?contract_id=1'],
      ['Planned scholarship payments', '/scholarshippayments/planned?contract_id=1'],
      ['Numbered scholarship payments', '/scholarshippayments/numbered?contract_id=1'],
    ]);
    await user.click(within(nav).getByRole('link', { name: 'Numbered invoices' }));
    expect(location()).toBe('/invoices/numbered?contract_id=1');
  });

  it('Download numbered invoice details saves the xlsx the server answers', async () => {
    const api = contractApi({
      'POST /contracts/1/download_invoice_details': { file: { content: new Blob(['PK details']), filename: 'Invoice_Details_A000001.xlsx' } },
    });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Download numbered invoice details' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('Invoice_Details_A000001.xlsx');
    expect(await blobText(savedFiles[0]!.blob)).toBe('PK details');
  });

  it('Create transaction fee asks invoice date and amount, sends them, and shows the amounts the contract has afterwards', async () => {
    const api = contractApi({ 'POST /contracts/1/create_transaction_fee': { body: { message: 'Transaction fee 2026-00007 created' } } });
    const { user } = await openContract(1, api);
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, invoiced_amount: 12.5, to_be_payed_amount: 12.5 }) });
    await user.click(screen.getByRole('button', { name: 'Create transaction fee' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Create transaction fee' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Invoice date/), '01-02-2026');
    await user.type(within(dialog).getByLabelText(/^Amount/), '12,50');
    await user.click(within(dialog).getByRole('button', { name: 'Create transaction fee' }));
    expect(await screen.findByText('Transaction fee 2026-00007 created')).toBeInTheDocument();
    expect(api.last('POST /contracts/1/create_transaction_fee')!.body).toEqual({ invoice_date: '2026-02-01', amount: 12.5 });
    // The action answers a message: the contract is read again for its amounts.
    await waitFor(() => expect(screen.getByLabelText(/^Invoiced amount/)).toHaveValue('€ 12,50'));
    expect(screen.getByLabelText(/^Amount to be paid/)).toHaveValue('€ 12,50');
  });

  it('Plan invoices reads the contract again: the planned amount is the one after planning', async () => {
    const api = contractApi({ 'POST /contracts/1/plan_invoices': { body: { message: 'Planned 3 invoice(s) over € 9.150,50' } } });
    const { user } = await openContract(1, api);
    expect(screen.getByLabelText(/^Planned amount/)).toHaveValue('€ 0,00');
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, planned_amount: 9150.5 }) });
    await user.click(screen.getByRole('button', { name: 'Plan invoices' }));
    expect(await screen.findByText('Planned 3 invoice(s) over € 9.150,50')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Planned amount/)).toHaveValue('€ 9.150,50'));
  });

  it('Switch to semester payment reads the contract again: Instalments is set, and the next action sends the new version', async () => {
    const api = contractApi({
      'POST /contracts/1/switch_to_semester_payment': { body: { message: 'Split 2 yearly invoice(s) into semesters' } },
      'POST /contracts/1/plan_invoices': { body: { message: 'Nothing to plan' } },
    });
    const { user } = await openContract(1, api);
    expect(screen.getByRole('checkbox', { name: 'Instalments' })).not.toBeChecked();
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, instalments: true, edit_timestamp: LATER }) });
    await user.click(screen.getByRole('button', { name: 'Switch to semester payment' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Instalments' })).toBeChecked());
    // The switch changed the contract's version: an action after it is not refused as a stale one (409).
    await user.click(screen.getByRole('button', { name: 'Plan invoices' }));
    await waitFor(() => expect(api.sent('POST /contracts/1/plan_invoices')).toHaveLength(1));
    expect(api.last('POST /contracts/1/plan_invoices')!.headers['if-match']).toBe(LATER);
  });

  it('links to the student, shows application number, status and amounts read-only', async () => {
    const { user, location } = await openContract(1);
    expect(screen.getByLabelText(/^Application Number/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Status$/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Invoiced amount/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Invoiced amount/)).toHaveValue('€ 0,00');
    const info = within(screen.getByRole('region', { name: 'Contract information' }));
    await user.click(info.getByRole('link', { name: 'José Müller' }));
    expect(location()).toBe('/student/1');
  });

  it('a new contract starts with the defaults and the preset student; the start date sets the end date; Save sends the whole record', async () => {
    const api = contractApi({ 'POST /contracts': { status: 201, body: { id: 3 } }, 'GET /contracts/3': { body: contractRow(3) } });
    const { user, location } = renderApp('/contract/new?student_id=2', api);
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
    expect(api.last('POST /contracts')!.body).toEqual({
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
    const api = contractApi({ 'PUT /contracts/1': { body: contractRow(1, { start_date: '2024-02-29', end_date: '2026-02-27', edit_timestamp: LATER }) } });
    const { user } = await openContract(1, api, '?mode=edit');
    const start = screen.getByLabelText(/^Start date/);
    await user.clear(start);
    await user.type(start, '29-02-2024');
    await waitFor(() => expect(screen.getByLabelText(/^End date/)).toHaveValue('27-02-2026'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(api.last('PUT /contracts/1')!.body).toEqual({ id: 1, start_date: '2024-02-29', end_date: '2026-02-27' });
  });

  it('refuses an end date before the start date on the end date field, and keeps Save disabled', async () => {
    const { user } = await openContract(1, contractApi(), '?mode=edit');
    const end = screen.getByLabelText(/^End date/);
    await user.clear(end);
    await user.type(end, '31-08-2023');
    expect(await screen.findByText('End date cannot be before the start date')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});

describe('contract mails', () => {
  const outboxRow = (id: number, status: string, about: Record<string, unknown> = {}) => ({
    id,
    recipient: 'jose.mueller@example.org',
    recipient_name: 'José Müller',
    subject: `Your bank details for contract A000001 (${id})`,
    text_body: 'x',
    html_body: null,
    status,
    attempts: 1,
    last_reply: null,
    resource: 'contract',
    record_id: 1,
    contract_id: 1,
    ...about,
    attachment_names: null,
    created_user: 1,
    created_user_name: 'Ada Admin',
    created_timestamp: SEEN,
    sent_timestamp: status === 'sent' ? LATER : null,
    edit_timestamp: SEEN,
  });

  const mailButtons = () =>
    within(screen.getByRole('group', { name: 'Actions' }))
      .getAllByRole('button')
      .map((b) => b.textContent)
      .filter((label) => MAIL_BUTTONS.includes(label ?? ''));

  it('offers a User the four mail actions from the declarations (a Reader has no actions at all: see the contract screen)', async () => {
    // A contract with a credit: the refund request is offered too.
    await openContract(1, contractApi({ ...session(plainUser), 'GET /contracts/1': { body: contractRow(1, { files: 1, to_be_payed_amount: -150.5 }) } }));
    expect(mailButtons()).toEqual(MAIL_BUTTONS);
    for (const name of MAIL_BUTTONS) expect(screen.getByRole('button', { name })).toBeEnabled();
  });

  it('says why not on the disabled button when the student has no e-mail address', async () => {
    await openContract(1, contractApi({ 'GET /contracts/1': { body: contractRow(1, { student_email: '' }) } }));
    expect(screen.getByRole('button', { name: 'Send bank info request' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send bank info request' })).toHaveAttribute('data-disabled-reason', 'The student has no e-mail address');
  });

  it('offers the refund request only on a contract with a credit', async () => {
    await openContract(1, contractApi());
    expect(screen.getByRole('button', { name: 'Request payment info for refund' })).toHaveAttribute('data-disabled-reason', 'The contract has no credit to refund');
  });

  it('says the contract is not active on the disabled buttons', async () => {
    await openContract(1, contractApi({ 'GET /contracts/1': { body: contractRow(1, { active: false }) } }));
    expect(screen.getByRole('button', { name: 'Send PF status' })).toHaveAttribute('data-disabled-reason', 'The contract is not active');
  });

  it('Send bank info request asks first, then sends and shows the answer', async () => {
    const message = 'E-mail "Your bank details for contract A000001" to José Müller <jose.mueller@example.org> queued';
    const api = contractApi({ 'POST /contracts/1/send_bankinfo_request': { body: { message } } });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Send bank info request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send bank info request' });
    expect(api.sent('POST /contracts/1/send_bankinfo_request')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.sent('POST /contracts/1/send_bankinfo_request')).toHaveLength(1));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('a failed send reads "Server error while sending email"', async () => {
    const { user } = await openContract(1, contractApi({ 'POST /contracts/1/send_pf_status': failure(500, 'boom') }));
    await user.click(screen.getByRole('button', { name: 'Send PF status' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send PF status' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while sending email');
  });

  it('a refused send closes its question with the reason: there is nothing in it to correct (decision 054)', async () => {
    const reason = 'No participation fee is invoiced for contract A000001';
    const { user } = await openContract(1, contractApi({ 'POST /contracts/1/send_pf_status': failure(409, reason) }));
    await user.click(screen.getByRole('button', { name: 'Send PF status' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send PF status' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send PF status' })).not.toBeInTheDocument());
  });

  it('Request payment info for refund asks the amount and the reason and sends them', async () => {
    const api = contractApi({ 'POST /contracts/1/request_refund_info': { body: { message: 'queued' } }, 'GET /contracts/1': { body: contractRow(1, { files: 1, to_be_payed_amount: -150.5 }) } });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Request payment info for refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request payment info for refund' });
    await user.type(within(dialog).getByLabelText(/^Amount/), '150,50');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Semester cancelled');
    await user.click(within(dialog).getByRole('button', { name: 'Request payment info for refund' }));
    await waitFor(() => expect(api.last('POST /contracts/1/request_refund_info')?.body).toEqual({ amount: 150.5, reason: 'Semester cancelled' }));
  });

  it("an Administrator sees the contract's mails in the E-mails tab, its invoices' too: recipient, subject, status and time", async () => {
    const invoiceMail = outboxRow(4, 'sent', { resource: 'invoice', record_id: 7, subject: 'Invoice 2024-00001' });
    const api = contractApi({ 'GET /outbox': page([invoiceMail, outboxRow(2, 'failed'), outboxRow(1, 'sent')]) });
    const { user } = await openContract(1, api);
    expect(api.sent('GET /outbox')).toHaveLength(0);
    await user.click(screen.getByRole('tab', { name: 'E-mails' }));
    const table = await screen.findByRole('table', { name: 'E-mails' });
    expect(await within(table).findByText('Your bank details for contract A000001 (2)')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['José Müller <jose.mueller@example.org>', 'Invoice 2024-00001', 'Sent', '01-06-2024 11:00'],
      ['José Müller <jose.mueller@example.org>', 'Your bank details for contract A000001 (2)', 'Failed', '01-05-2024 12:00'],
      ['José Müller <jose.mueller@example.org>', 'Your bank details for contract A000001 (1)', 'Sent', '01-06-2024 11:00'],
    ]);
    expect(within(rows[1]!).getByRole('link')).toHaveAttribute('href', '/outbox/2');
    // The contract's mails by the contract they concern (decision 045), not only those about the contract record.
    expect(Object.fromEntries(api.last('GET /outbox')!.query)).toEqual({ contract_id: '1', sort: 'created_timestamp|desc', per_page: '50' });
  });

  it('follows a queued mail until it is sent, then reads the contract again for its timestamps', async () => {
    const api = contractApi({ 'GET /outbox': page([outboxRow(3, 'queued')]) });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'E-mails' }));
    const table = await screen.findByRole('table', { name: 'E-mails' });
    expect(await within(table).findByText('Queued')).toBeInTheDocument();
    const reads = api.sent('GET /contracts/1').length;
    api.on('GET /outbox', page([outboxRow(3, 'sent')]));
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, bankinfo_emailrequest_timestamp: LATER }) });
    expect(await within(table).findByText('Sent', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(api.sent('GET /contracts/1').length).toBeGreaterThan(reads));
  });

  it('after a mail action, follows the mail until it is sent and reads the contract again, with the E-mails tab closed', async () => {
    const message = 'E-mail "Your bank details for contract A000001" to José Müller <jose.mueller@example.org> queued';
    const api = contractApi({ 'POST /contracts/1/send_bankinfo_request': { body: { message } }, 'GET /outbox': page([outboxRow(3, 'queued')]) });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Send bank info request' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send bank info request' })).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.sent('GET /outbox')).toHaveLength(1));
    const reads = api.sent('GET /contracts/1').length;
    api.on('GET /outbox', page([outboxRow(3, 'sent')]));
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, bankinfo_emailrequest_timestamp: LATER }) });
    const info = screen.getByRole('region', { name: 'Contract information' });
    expect(await within(info).findByText('01-06-2024 11:00')).toBeInTheDocument();
    expect(api.sent('GET /contracts/1')).toHaveLength(reads + 1);
    expect(Object.fromEntries(api.last('GET /outbox')!.query)).toMatchObject({ contract_id: '1' });
  });

  it('for a User, who may not read the outbox, reads the contract again after a mail action until its timestamps move', async () => {
    const api = contractApi({ ...session(plainUser), 'POST /contracts/1/send_pf_status': { body: { message: 'queued' } } });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Send PF status' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send PF status' })).getByRole('button', { name: 'Yes' }));
    const reads = api.sent('GET /contracts/1').length;
    await waitFor(() => expect(api.sent('GET /contracts/1').length).toBeGreaterThan(reads));
    api.on('GET /contracts/1', { body: contractRow(1, { files: 1, pf_status_email_timestamp: LATER }) });
    const info = screen.getByRole('region', { name: 'Contract information' });
    expect(await within(info).findByText('01-06-2024 11:00')).toBeInTheDocument();
    const settled = api.sent('GET /contracts/1').length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(api.sent('GET /contracts/1')).toHaveLength(settled);
    expect(api.sent('GET /outbox')).toHaveLength(0);
  });

  it('reads the contract again, once, when the E-mails tab lists a mail sent after the contract was read', async () => {
    const api = contractApi({ 'GET /outbox': page([outboxRow(4, 'sent')]) });
    const { user } = await openContract(1, api);
    const reads = api.sent('GET /contracts/1').length;
    await user.click(screen.getByRole('tab', { name: 'E-mails' }));
    expect(await within(await screen.findByRole('table', { name: 'E-mails' })).findByText('Sent')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('GET /contracts/1')).toHaveLength(reads + 1));
    // A mail that sets no timestamp of the contract (payment info) is not a reason to read it again and again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.sent('GET /contracts/1')).toHaveLength(reads + 1);
  });

  it('a User, who may not read the outbox, has no E-mails tab', async () => {
    await openContract(1, contractApi(session(plainUser)));
    expect(screen.getByRole('tab', { name: /^Documents/ })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'E-mails' })).not.toBeInTheDocument();
  });
});

describe('contract documents', () => {
  it('shows the number of documents in the tab, and the list of the contract', async () => {
    const { user, api } = await openContract(1);
    expect(screen.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const row = (await within(screen.getByRole('table', { name: 'Documents' })).findByText('contract.pdf')).closest('tr')!;
    expect(within(row).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['contract.pdf', 'Contract', 'As sent', '2.0 KB']);
    expect(api.last('GET /contract_files')!.query.get('contract_id')).toBe('1');
  });

  it('keeps Upload disabled until a file is chosen; uploads (record, then file) and reloads the count and the list', async () => {
    const passport = { ...document1, id: 2, ft_id: 3, file_type: 'Passport copy', description: 'Front page', filename: 'passport.pdf' };
    const api = contractApi({
      'POST /contract_files': { status: 201, body: { id: 2 } },
      'POST /contract_files/2/upload': { body: passport },
    });
    const { user } = await openContract(1, api);
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

    // What the server answers once the document is there.
    api.on('GET /contracts/1', { body: contractRow(1, { files: 2 }) }).on('GET /contract_files', page([passport, document1]));
    await user.click(upload);
    expect(await screen.findByRole('tab', { name: 'Documents (2)' })).toBeInTheDocument();
    expect(api.last('POST /contract_files')!.body).toEqual({ contract_id: 1, ft_id: 3, description: 'Front page', filename: 'passport.pdf' });
    const sent = api.last('POST /contract_files/2/upload')!.body as FormData;
    expect((sent.get('file') as File).name).toBe('passport.pdf');
    expect(screen.getByRole('status')).toHaveTextContent('Uploaded passport.pdf');
    expect(await within(screen.getByRole('table', { name: 'Documents' })).findByText('passport.pdf')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('keeps the chosen file and description when the session ends at Upload: after the login, Upload sends them (decision 061)', async () => {
    const api = contractApi({ 'POST /contract_files': failure(401, 'You are not logged in') });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    await user.type(within(form).getByLabelText(/^Description/), 'Front page');
    await user.upload(within(form).getByLabelText('File'), new File(['passport bytes'], 'passport.pdf', { type: 'application/pdf' }));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));

    const login = await screen.findByRole('dialog', { name: 'Your session has ended' });
    api.on('POST /auth/login', { body: { user: adminUser, token: 'jwt' } });
    await user.type(within(login).getByLabelText('Password'), 'right password{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your session has ended' })).not.toBeInTheDocument());
    expect(within(form).getByLabelText(/^Description/)).toHaveValue('Front page');
    api.on('POST /contract_files', { status: 201, body: { id: 2 } }).on('POST /contract_files/2/upload', { body: { ...document1, id: 2, description: 'Front page', filename: 'passport.pdf' } });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.sent('POST /contract_files/2/upload')).toHaveLength(1));
    expect(((api.last('POST /contract_files/2/upload')!.body as FormData).get('file') as File).name).toBe('passport.pdf');
  });

  it('refuses a file over the upload limit before sending anything', async () => {
    const { user, api } = await openContract(1);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    await user.upload(within(form).getByLabelText('File'), new File([new Uint8Array(MAX_UPLOAD_BYTES + 1)], 'huge.pdf'));
    expect(within(form).getByText(`The file is larger than ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB`)).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(api.sent('POST /contract_files')).toHaveLength(0);
  });

  it('shows the server’s message of a too large file (413) and removes the empty record', async () => {
    const api = contractApi({
      'POST /contract_files': { status: 201, body: { id: 2 } },
      'POST /contract_files/2/upload': failure(413, 'The file is larger than 20 MB'),
      'DELETE /contract_files/2': { status: 204 },
    });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    await user.upload(within(form).getByLabelText('File'), new File(['x'], 'big.pdf'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is larger than 20 MB');
    expect(within(form).getByText('The file is larger than 20 MB')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('DELETE /contract_files/2')).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Documents (1)' })).toBeInTheDocument();
  });

  it('shows the server’s reason when it refuses the file (400), not "Server error", and removes the empty record', async () => {
    const reason = '"notes.exe" (application/x-msdownload by its content) is not an allowed type (allowed: PDF document, JPEG image)';
    const api = contractApi({
      'POST /contract_files': { status: 201, body: { id: 2 } },
      'POST /contract_files/2/upload': failure(400, `file: ${reason}`, { file: [reason] }),
      'DELETE /contract_files/2': { status: 204 },
    });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const form = screen.getByRole('form', { name: 'Upload document' });
    await user.upload(within(form).getByLabelText('File'), new File(['MZ'], 'notes.exe'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    expect(screen.queryByText('Server error while uploading document')).not.toBeInTheDocument();
    expect(within(form).getByText(reason)).toBeInTheDocument();
    await waitFor(() => expect(api.sent('DELETE /contract_files/2')).toHaveLength(1));
  });

  it('downloads a document under its file name', async () => {
    const api = contractApi({
      'POST /contract_files/1/download': { file: { content: new Blob(['%PDF-1.4 fixture'], { type: 'application/pdf' }), filename: 'contract.pdf' } },
    });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const table = screen.getByRole('table', { name: 'Documents' });
    await within(table).findByText('contract.pdf');
    await user.click(within(table).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.sent('POST /contract_files/1/download')).toHaveLength(1);
    expect(savedFiles[0]!.filename).toBe('contract.pdf');
    expect(await blobText(savedFiles[0]!.blob)).toBe('%PDF-1.4 fixture');
  });

  it('deletes a document after the confirmation, and reloads the count and the list', async () => {
    const api = contractApi({ 'DELETE /contract_files/1': { status: 204 } });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('tab', { name: 'Documents (1)' }));
    const table = screen.getByRole('table', { name: 'Documents' });
    await within(table).findByText('contract.pdf');
    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Document?');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('DELETE /contract_files/1')).toHaveLength(0);

    api.on('GET /contracts/1', { body: contractRow(1, { files: 0 }) }).on('GET /contract_files', page([]));
    await user.click(within(table).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('tab', { name: 'Documents (0)' })).toBeInTheDocument();
    expect(api.sent('DELETE /contract_files/1')).toHaveLength(1);
    expect(await within(table).findByText('No Data Available')).toBeInTheDocument();
  });
});

describe('contract finance (issue 14 point 5, issue 18 point 3)', () => {
  it('the contract screen downloads the payment status as of a simulation date', async () => {
    const api = contractApi({
      'POST /contracts/1/download_payment_status': { file: { content: new Blob(['%PDF-1.4 status'], { type: 'application/pdf' }), filename: 'Payment_Status_A000001_2026-04-15.pdf' } },
    });
    const { user } = await openContract(1, api);
    await user.click(screen.getByRole('button', { name: 'Download payment status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Download payment status' });
    await user.type(within(dialog).getByLabelText(/^Simulation date/), '15-04-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Download payment status' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /contracts/1/download_payment_status')!.body).toEqual({ date: '2026-04-15', format: 'pdf' });
    expect(savedFiles[0]!.filename).toBe('Payment_Status_A000001_2026-04-15.pdf');
    expect(await blobText(savedFiles[0]!.blob)).toBe('%PDF-1.4 status');
  });

  it('the overview exports Payments_Due.xlsx and the payment status over a period for its filter', async () => {
    const api = contractApi({
      'POST /contracts/download_payments_due': { file: { content: new Blob(['PK due']), filename: 'Payments_Due.xlsx' } },
      'POST /contracts/download_paymentstatus_period': { file: { content: new Blob(['PK period']), filename: 'Payment_Status_2026-02-01_2026-03-31.xlsx' } },
    });
    const { user } = renderApp('/contracts', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('button', { name: 'Export payments due' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('Payments_Due.xlsx');
    expect(api.last('POST /contracts/download_payments_due')!.body).toMatchObject({ filter: expect.any(Object) });
    await user.click(screen.getByRole('button', { name: 'Export payment status (period)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export payment status (period)' });
    await user.type(within(dialog).getByLabelText(/^From/), '01-02-2026');
    await user.type(within(dialog).getByLabelText(/^Until/), '31-03-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Export payment status (period)' }));
    await waitFor(() => expect(savedFiles).toHaveLength(2));
    expect(api.last('POST /contracts/download_paymentstatus_period')!.body).toMatchObject({ from: '2026-02-01', until: '2026-03-31' });
    expect(savedFiles[1]!.filename).toBe('Payment_Status_2026-02-01_2026-03-31.xlsx');
  });
});
