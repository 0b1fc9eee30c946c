import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub';
import { choiceList, page, scholarships, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const AMOUNTS = ['Reg Fee', 'Part Fee Y1', 'Part Fee Y2', 'Admin Fee Y1', 'Admin Fee Y2', 'Monthly Allowance'];

const fee = {
  id: 1,
  intake: 2024,
  scholarship_id: 1,
  scholarship_code: 'EMJM-A',
  registration_fee_amount: 150,
  participationfee1_amount: 4500,
  participationfee2_amount: 4500.5,
  administrationfee1_amount: 0,
  administrationfee2_amount: 0,
  monthly_allowance_amount: 1400,
  edit_timestamp: SEEN,
};

describe('student fees', () => {
  it('lists the amounts in euro and the last edit as a date-time', async () => {
    renderApp('/studentfees', stubApi({ ...session(), 'GET /studentfees': page([fee]) }));
    await screen.findByText('1-1 of 1');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 11)).toEqual(['Intake▲', 'Scholarship', ...AMOUNTS, 'Last Edit', 'Actions']);
    const cells = within(within(screen.getByRole('table')).getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(1, 10)).toEqual([
      '2024',
      'EMJM-A',
      '€ 150,00',
      '€ 4.500,00',
      '€ 4.500,50',
      '€ 0,00',
      '€ 0,00',
      '€ 1.400,00',
      '01-05-2024 12:00',
    ]);
  });

  it('starts a new fee with every amount at € 0,00 and sends numbers', async () => {
    const api = stubApi({
      ...session(),
      ...choiceList('scholarships', scholarships),
      'POST /studentfees': { status: 201, body: { id: 2 } },
      'GET /studentfees/2': { body: { ...fee, id: 2, intake: 2026, scholarship_id: 2, scholarship_code: 'EMJM-B' } },
    });
    const { user, location } = renderApp('/studentfee/new', api);
    const intake = await screen.findByLabelText(/^Intake/);
    for (const label of AMOUNTS) expect(screen.getByLabelText(new RegExp(`^${label}`))).toHaveValue('€ 0,00');
    await user.type(intake, '2026');
    await user.click(screen.getByRole('combobox', { name: /^Scholarship/ }));
    await user.click(await screen.findByRole('option', { name: 'EMJM-B' }));
    const reg = screen.getByLabelText(/^Reg Fee/);
    await user.clear(reg);
    await user.type(reg, '175.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/studentfee/2'));
    expect(api.last('POST /studentfees')!.body).toEqual({
      intake: 2026,
      scholarship_id: 2,
      registration_fee_amount: 175.5,
      participationfee1_amount: 0,
      participationfee2_amount: 0,
      administrationfee1_amount: 0,
      administrationfee2_amount: 0,
      monthly_allowance_amount: 0,
    });
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Scholarship/ })).toHaveValue('EMJM-B'));
  });
});
