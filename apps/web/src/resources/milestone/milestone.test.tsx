import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { choiceList, page, scholarships, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const milestones = [
  { id: 1, intake: 2024, scholarship_id: 1, scholarship_code: 'EMJM-A', year: 1, milestone_date: '2024-10-01', milestone_amount: 500, edit_timestamp: SEEN },
  { id: 2, intake: 2025, scholarship_id: 2, scholarship_code: 'EMJM-B', year: 2, milestone_date: null, milestone_amount: 0, edit_timestamp: SEEN },
];

function milestoneApi(answers: Answers = {}) {
  return stubApi({
    ...session(),
    ...choiceList('scholarships', scholarships),
    'GET /milestones': page(milestones),
    'GET /milestones/1': { body: milestones[0] },
    ...answers,
  });
}

describe('milestones', () => {
  it('lists intake, scholarship, year, date (DD-MM-YYYY), amount (€) and last edit', async () => {
    renderApp('/milestones', milestoneApi());
    await screen.findByText('1-2 of 2');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(1, 7).map((c) => c.textContent))).toEqual([
      ['2024', 'EMJM-A', '1', '01-10-2024', '€ 500,00', '01-05-2024 12:00'],
      ['2025', 'EMJM-B', '2', '', '€ 0,00', '01-05-2024 12:00'],
    ]);
  });

  it('creates a milestone: year from the inline list, date typed DD-MM-YYYY, amount 0 by default', async () => {
    const created = { id: 3, intake: 2026, scholarship_id: 3, scholarship_code: 'NAT-C', year: 2, milestone_date: '2026-09-15', milestone_amount: 0, edit_timestamp: SEEN };
    const api = milestoneApi({ 'POST /milestones': { status: 201, body: { id: 3 } }, 'GET /milestones/3': { body: created } });
    const { user, location } = renderApp('/milestone/new', api);
    await user.type(await screen.findByLabelText(/^Intake/), '2026');
    expect(screen.getByLabelText(/^Amount/)).toHaveValue('€ 0,00');
    await user.click(screen.getByRole('combobox', { name: /^Scholarship/ }));
    await user.click(await screen.findByRole('option', { name: 'NAT-C' }));
    await user.click(screen.getByRole('combobox', { name: /^Year/ }));
    await user.click(await screen.findByRole('option', { name: '2' }));
    await user.type(screen.getByLabelText(/^Date/), '15-09-2026');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/milestone/3'));
    expect(api.last('POST /milestones')!.body).toEqual({
      intake: 2026,
      scholarship_id: 3,
      year: 2,
      milestone_date: '2026-09-15',
      milestone_amount: 0,
    });
    // The saved record replaces the new-record screen: wait for the read-only one, not a moment of the other.
    await waitFor(() => {
      expect(screen.getByLabelText(/^Date/)).toHaveValue('15-09-2026');
      expect(screen.getByLabelText(/^Date/)).toHaveAttribute('readonly');
    });
  });

  it('clears the optional date with its clear button and sends null; required selects have none', async () => {
    const api = milestoneApi({ 'PUT /milestones/1': { body: { ...milestones[0], milestone_date: null } } });
    const { user } = renderApp('/milestone/1?mode=edit', api);
    await waitFor(() => expect(screen.getByLabelText(/^Date/)).toHaveValue('01-10-2024'));
    expect(screen.queryByRole('button', { name: 'Clear Year' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear Scholarship' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear Date' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(api.last('PUT /milestones/1')!.body).toEqual({ id: 1, milestone_date: null });
  });
});
