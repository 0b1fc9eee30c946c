import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const AMOUNTS = ['Reg Fee', 'Part Fee Y1', 'Part Fee Y2', 'Admin Fee Y1', 'Admin Fee Y2', 'Monthly Allowance'];

describe('student fees', () => {
  it('lists the amounts in euro and the last edit as a date-time', async () => {
    renderApp('/studentfees');
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
    const server = new FakeServer();
    const { user, location } = renderApp('/studentfee/new', server);
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
    expect(server.lastRequestTo('POST', '/studentfees')!.body).toEqual({
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
