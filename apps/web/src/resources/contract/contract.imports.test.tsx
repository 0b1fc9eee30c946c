import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { blobText, savedFiles } from '../../test/downloads';
import { contractRow, failure, page, plainUser, readerUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const LATER = '2024-06-01T09:00:00.000Z';

function run(id: number, dryRun: boolean, rows: { id: number; reference: string; ok: boolean; message: string }[]) {
  return {
    body: {
      id,
      resource: 'contract',
      action: 'import',
      label: 'Import Excel contracts',
      dry_run: dryRun,
      status: 'finished',
      total: rows.length,
      done: rows.length,
      failed: rows.filter((r) => !r.ok).length,
      retryable: 0,
      amount: null,
      created_user: 'Uma User',
      created_timestamp: SEEN,
      finished_timestamp: LATER,
      source_run_id: null,
      totals: [],
      rows: rows.map((r) => ({ ...r, status: r.ok ? 'ok' : 'failed', amount: null, retryable: false })),
    },
  };
}

function importApi(answers: Answers = {}) {
  return stubApi({ ...session(plainUser), 'GET /contracts': page([contractRow(1)]), ...answers });
}

const xlsx = (name = 'Intake 2021 – Zoë.xlsx') => new File(['PK sheet'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

async function openImport(user: ReturnType<typeof renderApp>['user'], item: string) {
  await screen.findByText('1-1 of 1');
  await user.click(screen.getByRole('button', { name: 'Import' }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('the contract overview Import menu', () => {
  it('offers Excel contracts, bank info and DreamApply to a User', async () => {
    const { user } = renderApp('/contracts', importApi());
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect((await screen.findAllByRole('menuitem')).map((m) => m.textContent)).toEqual(['Excel contracts', 'Bank info', 'DreamApply']);
  });

  it('hides the Import menu from a Reader', async () => {
    renderApp('/contracts', stubApi({ ...session(readerUser), 'GET /contracts': page([contractRow(1)]) }));
    await screen.findByText('1-1 of 1');
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
  });

  it('keeps Upload disabled until a file is chosen, uploads it, shows the preview, confirms, and downloads the results', async () => {
    const api = importApi({
      'POST /contracts/import': { status: 202, body: { filename: 'Intake 2021 – Zoë.xlsx', run_id: 4 } },
      'GET /batch_runs/4': run(4, true, [
        { id: 0, reference: 'row 2', ok: true, message: 'Will create student and contract' },
        { id: 1, reference: 'row 3', ok: false, message: 'Error for row 3: IBAN: checksum wrong' },
      ]),
      'POST /batch_runs/4/confirm': { status: 202, body: { run_id: 5 } },
      'GET /batch_runs/5': run(5, false, [{ id: 0, reference: 'row 2', ok: true, message: 'Created student and contract' }]),
      'POST /contracts/get_import_results': { file: { content: new Blob(['PK results']), filename: 'Import_results_Intake_2021.xlsx' } },
    });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'Excel contracts');
    const dialog = await screen.findByRole('dialog', { name: 'Import Excel contracts' });
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('File'), xlsx());
    expect(upload).toBeEnabled();
    await user.click(upload);
    const sent = api.last('POST /contracts/import')!.body as FormData;
    expect((sent.get('file') as File).name).toBe('Intake 2021 – Zoë.xlsx');

    const preview = await screen.findByRole('dialog', { name: 'Preview: Import Excel contracts' });
    expect(await within(preview).findByText('Will create student and contract')).toBeInTheDocument();
    expect(within(preview).getByText('Error for row 3: IBAN: checksum wrong')).toBeInTheDocument();
    await user.click(within(preview).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.sent('POST /batch_runs/4/confirm')).toHaveLength(1));
    const done = await screen.findByRole('dialog', { name: 'Import Excel contracts' });
    expect(await within(done).findByText('Finished: 1 of 1 done, 0 failed')).toBeInTheDocument();
    await user.click(within(done).getByRole('button', { name: 'Download results' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(api.last('POST /contracts/get_import_results')!.body).toEqual({ filename: 'Intake 2021 – Zoë.xlsx', type: 'contracts' });
    expect(await blobText(savedFiles[0]!.blob)).toBe('PK results');
  });

  it('bank info accepts .xlsx and .zip and shows why a file was refused', async () => {
    const api = importApi({ 'POST /contracts/import_bankinfo': failure(400, 'file: the entry "../../evil.xlsx" points outside the archive') });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'Bank info');
    const dialog = await screen.findByRole('dialog', { name: 'Import Bank info' });
    expect(within(dialog).getByLabelText('File').getAttribute('accept')).toBe('.xlsx,.zip');
    await user.upload(within(dialog).getByLabelText('File'), new File(['PK'], 'forms.zip', { type: 'application/zip' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('file: the entry "../../evil.xlsx" points outside the archive');
  });

  it('an upload that fails in the server shows "Server error while uploading file"', async () => {
    const api = importApi({ 'POST /contracts/import': failure(500, 'boom') });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'Excel contracts');
    const dialog = await screen.findByRole('dialog', { name: 'Import Excel contracts' });
    await user.upload(within(dialog).getByLabelText('File'), xlsx('a.xlsx'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Server error while uploading file');
  });

  it('the template is downloaded from the upload dialog', async () => {
    const api = importApi({ 'GET /contracts/import_template': { file: { content: new Blob(['PK template']), filename: 'Contract_Import_Template.xlsx' } } });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'Excel contracts');
    await user.click(within(await screen.findByRole('dialog', { name: 'Import Excel contracts' })).getByRole('button', { name: 'Download the template' }));
    await waitFor(() => expect(savedFiles).toHaveLength(1));
    expect(savedFiles[0]!.filename).toBe('Contract_Import_Template.xlsx');
  });

  it('DreamApply asks academic year (2021) and updates in last days (0) and previews the import', async () => {
    const api = importApi({
      'POST /contracts/import_dream_apply': { status: 202, body: { filename: 'DreamApply 2021', run_id: 7 } },
      'GET /batch_runs/7': run(7, true, [{ id: 0, reference: 'DreamApply application 101', ok: true, message: 'Updated contract: da_application_id' }]),
    });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'DreamApply');
    const dialog = await screen.findByRole('dialog', { name: 'Import from DreamApply' });
    expect(within(dialog).getByLabelText(/^Academic year/)).toHaveValue('2021');
    expect(within(dialog).getByLabelText(/^Updates in last days/)).toHaveValue('0');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(api.last('POST /contracts/import_dream_apply')!.body).toEqual({ academic_year: 2021, updates_in_last_days: 0 }));
    const preview = await screen.findByRole('dialog', { name: 'Preview: Import Excel contracts' });
    expect(await within(preview).findByText('Updated contract: da_application_id')).toBeInTheDocument();
  });

  it('a DreamApply failure shows its message', async () => {
    const api = importApi({ 'POST /contracts/import_dream_apply': failure(503, 'DreamApply: answered 500 for /api/applications') });
    const { user } = renderApp('/contracts', api);
    await openImport(user, 'DreamApply');
    await user.click(within(await screen.findByRole('dialog', { name: 'Import from DreamApply' })).getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('DreamApply: answered 500 for /api/applications');
  });
});
