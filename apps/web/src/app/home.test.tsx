import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/api-stub';
import { failure, page, plainUser, session } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { officeToday } from '../lib/format';

const counts = {
  'GET /invoices': page([], { total: 3 }),
  'GET /invoice_payments': page([], { total: 0 }),
  'GET /scholarship_payments': page([], { total: 12000, estimated: true }),
  'GET /outbox': page([], { total: 2 }),
} as const;

/** The day after today in the office's zone, as the "planned before" filter takes it. */
function tomorrow(): string {
  const next = new Date(`${officeToday()}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

describe('the home screen', () => {
  it('counts the work waiting, each linked to its overview with the filter set (decision 048)', async () => {
    const api = stubApi({ ...session(), ...counts });
    const { user, location } = renderApp('/', api);
    const card = await screen.findByRole('region', { name: 'Needs attention' });
    expect(await within(card).findByLabelText('Planned invoices due: 3')).toBeInTheDocument();
    expect(await within(card).findByLabelText('Payments not confirmed: 0')).toBeInTheDocument();
    expect(await within(card).findByLabelText('Scholarship payments ready for export: about 12.000')).toBeInTheDocument();
    expect(await within(card).findByLabelText('E-mails failed or waiting to retry: 2')).toBeInTheDocument();
    // One row each: the count is the list's total, asked with the overview's own view and filter.
    const asked = (path: '/invoices' | '/scholarship_payments' | '/invoice_payments' | '/outbox') =>
      api.sent(`GET ${path}`).map((r) => Object.fromEntries([...r.query.entries()].filter(([k]) => k !== 'per_page')));
    // What is due is counted exactly (its index finds it at once; the planner's guess was 15,040 for 14); what
    // reads the whole view keeps the estimate (decision 067).
    expect(asked('/invoices')).toEqual([{ planned: 'true', planned_before: tomorrow(), count: 'exact' }, { numbered: 'true', email_sent: 'false' }, { numbered: 'true', open: 'true' }]);
    expect(asked('/scholarship_payments')).toEqual([{ planned: 'true', planned_before: tomorrow(), count: 'exact' }, { numbered: 'true', ready_for_export: 'true' }]);
    // A mail waiting to retry after connection errors needs a look as a failed one does (decision 070).
    expect(asked('/outbox')).toEqual([{ delivery: 'failed_or_retrying' }]);
    expect(api.sent('GET /invoices').every((r) => r.query.get('per_page') === '1')).toBe(true);
    expect(within(card).getByRole('link', { name: 'E-mails failed or waiting to retry' })).toHaveAttribute('href', '/outbox?delivery=failed_or_retrying');

    await user.click(within(card).getByRole('link', { name: 'Scholarship payments ready for export' }));
    await waitFor(() => expect(location()).toBe('/scholarshippayments/numbered?ready_for_export=true'));
  });

  it('shows a User only the lists the role may read: no Outbox; a count that fails says so quietly', async () => {
    const api = stubApi({ ...session(plainUser), ...counts, 'GET /invoice_payments': failure(500, 'Server error') });
    renderApp('/', api);
    const card = await screen.findByRole('region', { name: 'Needs attention' });
    expect(await within(card).findByLabelText('Open invoices: 3')).toBeInTheDocument();
    expect(within(card).queryByText('E-mails failed or waiting to retry')).not.toBeInTheDocument();
    expect(api.sent('GET /outbox')).toHaveLength(0);
    expect(await within(card).findByText('not counted')).toHaveAttribute('title', 'Server error');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
