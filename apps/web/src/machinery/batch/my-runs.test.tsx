import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BatchRun, BatchRunSummary } from '@app/contracts';
import { stubApi } from '../../test/api-stub';
import { SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const summary = (id: number, over: Partial<BatchRunSummary>): BatchRunSummary => ({
  id,
  label: 'Change status',
  dry_run: false,
  status: 'finished',
  total: 3,
  done: 3,
  failed: 0,
  created_timestamp: SEEN,
  finished_timestamp: SEEN,
  ...over,
});

const working: BatchRun = {
  ...summary(7, { label: 'Create Invoice', status: 'running', total: 4, done: 1, finished_timestamp: null }),
  resource: 'invoice',
  action: 'create_pdf',
  retryable: 0,
  amount: null,
  created_user: 'Ada Lovelace',
  source_run_id: null,
  totals: [],
  rows: [
    { id: 1, reference: 'R1', status: 'ok', ok: true, message: 'Done', amount: null, retryable: false },
    { id: 2, reference: 'R2', status: 'pending', ok: false, message: null, amount: null, retryable: false },
  ],
};

describe('Batch runs in the top bar', () => {
  it("lists the user's own runs, newest first, with where each stands, and opens one in the batch dialog", async () => {
    const api = stubApi({
      ...session(),
      'GET /batch_runs': {
        body: {
          data: [
            summary(7, { label: 'Create Invoice', status: 'running', total: 4, done: 1, finished_timestamp: null }),
            summary(6, { dry_run: true, failed: 1 }),
            summary(5, { failed: 1 }),
            summary(4, { status: 'cancelled', done: 1 }),
          ],
        },
      },
      'GET /batch_runs/7': { body: working },
    });
    const { user } = renderApp('/', api);
    await user.click((await screen.findAllByRole('button', { name: 'Batch runs' }))[0]!);
    const table = await screen.findByRole('table', { name: 'My batch runs' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual([
      '01-05-2024 12:00Create Invoice (run 7)1 of 4 done…Open',
      '01-05-2024 12:00Preview: Change status (run 6)Preview: 2 of 3 would be doneOpen',
      '01-05-2024 12:00Change status (run 5)Finished: 2 of 3 done, 1 failedOpen',
      '01-05-2024 12:00Change status (run 4)Cancelled: 1 of 3 doneOpen',
    ]);
    await user.click(within(table).getByRole('button', { name: 'Open run 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Invoice' });
    expect(await within(dialog).findByTestId('batch-status')).toHaveTextContent('1 of 4 done…');
    expect(within(dialog).getByRole('button', { name: 'Cancel run' })).toBeInTheDocument();
    expect(api.sent('GET /batch_runs/7').length).toBeGreaterThan(0);
  });

  it('says so when the user has started none, and asks again each time it opens', async () => {
    const api = stubApi({ ...session(), 'GET /batch_runs': { body: { data: [] } } });
    const { user } = renderApp('/', api);
    await user.click((await screen.findAllByRole('button', { name: 'Batch runs' }))[0]!);
    expect(await screen.findByText('You have not started a batch run yet.')).toBeInTheDocument();
    expect(api.sent('GET /batch_runs')).toHaveLength(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('You have not started a batch run yet.')).not.toBeInTheDocument());
    await user.click(screen.getAllByRole('button', { name: 'Batch runs' })[0]!);
    await waitFor(() => expect(api.sent('GET /batch_runs')).toHaveLength(2));
  });
});
