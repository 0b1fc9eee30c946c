import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BatchRun } from '@app/contracts';
import { stubApi } from '../../test/api-stub';
import { SEEN, session } from '../../test/fixtures';
import { renderInApp } from '../../test/render-app';
import { BatchDialog } from './batch-dialog';

function run(id: number, over: Partial<BatchRun>): { body: BatchRun } {
  return {
    body: {
      id,
      resource: 'invoice',
      action: 'create_pdf',
      label: 'Create Invoice',
      dry_run: false,
      status: 'finished',
      total: 0,
      done: 0,
      failed: 0,
      retryable: 0,
      amount: null,
      created_user: 'Ada Admin',
      created_timestamp: SEEN,
      finished_timestamp: SEEN,
      source_run_id: null,
      totals: [],
      rows: [],
      ...over,
    },
  };
}

const row = (id: number, status: 'ok' | 'failed' | 'pending', message: string | null, amount: number | null = null, retryable = false) => ({
  id,
  reference: `R${id}`,
  status,
  ok: status === 'ok',
  message,
  amount,
  retryable,
});

function renderDialog(runId: number, answers: Parameters<typeof stubApi>[0]) {
  const api = stubApi({ ...session(), ...answers });
  const onFinished = vi.fn();
  const onClose = vi.fn();
  const { user } = renderInApp(<BatchDialog runId={runId} onClose={onClose} onFinished={onFinished} />);
  return { api, onFinished, onClose, user };
}

describe('the batch dialog', () => {
  it("shows what an import's preview says about its file as a whole", async () => {
    renderDialog(5, {
      'GET /batch_runs/5': run(5, {
        resource: 'contract',
        action: 'import',
        label: 'Import Excel contracts',
        dry_run: true,
        total: 1,
        done: 1,
        notes: ['Not imported: the columns "Mobile", "Notes"'],
        rows: [row(1, 'ok', 'Will create student and contract')],
      }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Import Excel contracts' });
    expect(await within(dialog).findByText('Not imported: the columns "Mobile", "Notes"')).toBeInTheDocument();
  });

  it('asks for the refused rows only while a run works, and for every row once it is over', async () => {
    const refused = row(2, 'failed', 'Error for R2: no fee');
    const { api } = renderDialog(8, { 'GET /batch_runs/8': run(8, { dry_run: true, status: 'running', total: 200, done: 40, failed: 1, rows: [refused] }) });
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Create Invoice' });
    expect(await within(dialog).findByText('Checking 40 of 200…')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('GET /batch_runs/8').length).toBeGreaterThan(1));
    expect(api.sent('GET /batch_runs/8').map((r) => r.query.get('rows'))).toEqual(api.sent('GET /batch_runs/8').map(() => 'failed'));
    const rows = Array.from({ length: 200 }, (_, i) => (i === 1 ? refused : row(i + 1, 'ok', `Would be 2026-${String(i + 1).padStart(5, '0')}`)));
    api.on('GET /batch_runs/8', run(8, { dry_run: true, status: 'finished', total: 200, done: 200, failed: 1, rows }));
    expect(await within(dialog).findByText('Would be 2026-00200', {}, { timeout: 5000 })).toBeInTheDocument();
    const asked = api.sent('GET /batch_runs/8').map((r) => r.query.get('rows'));
    expect(asked.at(-1)).toBeNull();
    expect(asked.filter((q) => q === null)).toHaveLength(1);
  });

  it('shows a preview with what each row would do and the total, changes nothing, and Confirm runs it for real', async () => {
    const { api, onFinished, user } = renderDialog(3, {
      'GET /batch_runs/3': run(3, {
        dry_run: true,
        total: 3,
        done: 3,
        failed: 1,
        amount: 1500,
        rows: [row(1, 'ok', 'Would be 2026-00001', 1000), row(2, 'failed', 'Error for R2: already numbered'), row(3, 'ok', 'Would be 2026-00002', 500)],
      }),
      'POST /batch_runs/3/confirm': { status: 202, body: { run_id: 4 } },
      'GET /batch_runs/4': run(4, { total: 2, done: 2, failed: 0, source_run_id: 3, rows: [row(1, 'ok', '2026-00001'), row(3, 'ok', '2026-00002')] }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Create Invoice' });
    expect(await within(dialog).findByText('Nothing has been changed yet. 2 of 3 would be done, € 1.500,00 in all; 1 refused.')).toBeInTheDocument();
    const table = within(dialog).getByRole('table', { name: 'Preview' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'ReferenceResultWhat would happen',
      'R1OKWould be 2026-00001',
      'R2RefusedError for R2: already numbered',
      'R3OKWould be 2026-00002',
    ]);
    expect(onFinished).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.sent('POST /batch_runs/3/confirm')).toHaveLength(1));
    expect(await screen.findByText('Finished: 2 of 2 done, 0 failed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create Invoice' })).toBeInTheDocument();
    await waitFor(() => expect(onFinished).toHaveBeenCalledTimes(1));
  });

  it("closes a preview with a plain Close without running, never a filled Done beside Confirm", async () => {
    const { onClose, user } = renderDialog(3, {
      'GET /batch_runs/3': run(3, { dry_run: true, total: 1, done: 1, amount: 250, rows: [row(1, 'ok', 'Would be 2026-00001', 250)] }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Create Invoice' });
    const close = await within(dialog).findByRole('button', { name: 'Close without running' });
    expect(within(dialog).queryByRole('button', { name: 'Done' })).not.toBeInTheDocument();
    // Not the filled look of Confirm: the way out is the default button.
    expect(close).toHaveAttribute('data-variant', 'default');
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).not.toHaveAttribute('data-variant', 'default');
    await user.click(close);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says no "€ 0,00 in all" in the preview of a run without an amount (a mail)', async () => {
    renderDialog(3, {
      'GET /batch_runs/3': run(3, { label: 'Send Email', dry_run: true, total: 2, done: 2, amount: 0, rows: [row(1, 'ok', 'E-mail queued', 0), row(2, 'ok', 'E-mail queued', 0)] }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Preview: Send Email' });
    expect(await within(dialog).findByTestId('batch-status')).toHaveTextContent(/^Nothing has been changed yet\. 2 of 2 would be done; 0 refused\.$/);
  });

  it('ends a real run with Done', async () => {
    renderDialog(6, { 'GET /batch_runs/6': run(6, { total: 1, done: 1, rows: [row(1, 'ok', 'done')] }) });
    expect(await screen.findByRole('button', { name: 'Done' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close without running' })).not.toBeInTheDocument();
  });

  it('offers Retry failed rows for a finished run with failed rows, not for a cancelled one (the API refuses it)', async () => {
    const failedRow = row(2, 'failed', 'Error for A000002: given up after 3 attempts: it clashed with other changes each time', null, true);
    renderDialog(6, { 'GET /batch_runs/6': run(6, { status: 'cancelled', total: 3, done: 2, failed: 1, retryable: 1, rows: [row(1, 'ok', 'done'), failedRow] }) });
    expect(await screen.findByText(/^Cancelled/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry failed rows' })).not.toBeInTheDocument();
    cleanup();
    renderDialog(7, { 'GET /batch_runs/7': run(7, { status: 'finished', total: 2, done: 2, failed: 1, retryable: 1, rows: [row(1, 'ok', 'done'), failedRow] }) });
    expect(await screen.findByRole('button', { name: 'Retry failed rows' })).toBeEnabled();
    expect(screen.queryByTestId('batch-retry-note')).not.toBeInTheDocument();
  });

  it('disables Retry failed rows, saying why, when every failed row was refused for its data: it would be refused again', async () => {
    const { api, user } = renderDialog(9, {
      'GET /batch_runs/9': run(9, {
        label: 'Import Excel contracts',
        total: 3,
        done: 3,
        failed: 2,
        retryable: 0,
        rows: [row(1, 'ok', 'Created student and contract'), row(2, 'failed', 'Error for R2: IBAN: checksum wrong'), row(3, 'failed', 'Error for R3: Country: "Atlantis" is not known')],
      }),
      'POST /batch_runs/9/retry_failed': run(9, {}),
    });
    const retry = await screen.findByRole('button', { name: 'Retry failed rows' });
    expect(retry).toBeDisabled();
    expect(retry.parentElement).toHaveAttribute('aria-description', "Each of the 2 failed rows was refused for its data or its record's state, and would be refused again: correct them and start again");
    await user.click(retry.parentElement!);
    expect(api.sent('POST /batch_runs/9/retry_failed')).toHaveLength(0);
  });

  it('retries only the rows whose failure may pass, says so before, and says after in words what became of them', async () => {
    const before = [
      row(1, 'ok', 'Created student and contract'),
      row(2, 'failed', 'Error for R2: given up after 3 attempts: it clashed with other changes each time', null, true),
      row(3, 'failed', 'Error for R3: an unexpected error (see the server log)', null, true),
      row(5, 'failed', 'Error for R5: IBAN: checksum wrong'),
    ];
    const { api, onFinished, user } = renderDialog(9, {
      'GET /batch_runs/9': run(9, { label: 'Import Excel contracts', total: 4, done: 4, failed: 3, retryable: 2, rows: before }),
      'POST /batch_runs/9/retry_failed': run(9, {
        label: 'Import Excel contracts',
        status: 'queued',
        finished_timestamp: null,
        total: 4,
        done: 2,
        failed: 1,
        rows: [before[0]!, row(2, 'pending', null), row(3, 'pending', null), before[3]!],
      }),
    });
    const retry = await screen.findByRole('button', { name: 'Retry failed rows' });
    expect(screen.getByTestId('batch-retry-note')).toHaveTextContent(
      'Retry does again the 2 rows that failed for a passing reason. 1 row refused for their data or state would be refused again and is left as it is.',
    );
    await waitFor(() => expect(onFinished).toHaveBeenCalledTimes(1));
    api.on(
      'GET /batch_runs/9',
      run(9, {
        label: 'Import Excel contracts',
        total: 4,
        done: 4,
        failed: 2,
        retryable: 1,
        rows: [before[0]!, row(2, 'ok', 'Created student and contract'), row(3, 'failed', 'Error for R3: an unexpected error (see the server log)', null, true), before[3]!],
      }),
    );
    await user.click(retry);
    expect(api.sent('POST /batch_runs/9/retry_failed')).toHaveLength(1);
    expect(await screen.findByTestId('batch-retried', {}, { timeout: 5000 })).toHaveTextContent(
      /^2 rows retried: 1 done, 1 failed again — Error for R3: an unexpected error \(see the server log\)$/,
    );
    expect(screen.getByTestId('batch-status')).toHaveTextContent('Finished: 2 of 4 done, 2 failed');
    await waitFor(() => expect(onFinished).toHaveBeenCalledTimes(2));
  });

  it('follows a run while it works, and cancels it on request', async () => {
    const { api, onFinished, user } = renderDialog(5, {
      'GET /batch_runs/5': run(5, { status: 'running', total: 4, done: 1, rows: [row(1, 'ok', 'done'), row(2, 'pending', null), row(3, 'pending', null), row(4, 'pending', null)], finished_timestamp: null }),
      'POST /batch_runs/5/cancel': run(5, { status: 'cancelled', total: 4, done: 1 }),
    });
    expect(await screen.findByText('1 of 4 done…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(screen.queryByRole('button', { name: 'Download result' })).not.toBeInTheDocument();
    api.on('GET /batch_runs/5', run(5, { status: 'cancelled', total: 4, done: 1, rows: [row(1, 'ok', 'done')] }));
    await user.click(screen.getByRole('button', { name: 'Cancel run' }));
    expect(await screen.findByText('Cancelled: 1 of 4 done')).toBeInTheDocument();
    expect(api.sent('POST /batch_runs/5/cancel')).toHaveLength(1);
    await waitFor(() => expect(onFinished).toHaveBeenCalledTimes(1));
  });
});
