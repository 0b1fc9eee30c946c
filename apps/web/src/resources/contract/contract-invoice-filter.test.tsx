import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONTRACT_STATUSES } from '@app/contracts';
import { stubApi } from '../../test/api-stub';
import { choiceList, contractRow, page, scholarships, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

/** Issue 18 point 1: the contract overview's advanced filter has the invoice fields of the invoice overview. */
function contractApi() {
  return stubApi({
    ...session(),
    ...choiceList('students', [{ id: 1, name: 'Müller, José' }]),
    ...choiceList('scholarships', scholarships),
    ...choiceList('programs', [{ id: 1, name: 'Data Science' }]),
    ...choiceList('contracts', [{ id: 1, name: 'A000001' }]),
    ...choiceList('contract_status', CONTRACT_STATUSES.map((s) => ({ id: s.id, name: s.name }))),
    ...choiceList('contracts_intake', [{ id: 2024, name: '2024' }]),
    ...choiceList('document_types_invoices', [
      { id: 1, name: 'Invoice' },
      { id: 3, name: 'Registration fee' },
      { id: 5, name: 'Participation fee' },
    ]),
    'GET /contracts': page([contractRow(1), contractRow(2)]),
  });
}

async function openFilter() {
  const api = contractApi();
  const { user } = renderApp('/contracts', api);
  await screen.findByText('1-2 of 2');
  await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
  return { api, user, form: screen.getByRole('form', { name: 'Advanced filter' }) };
}

describe('contract overview: filter by invoices', () => {
  it('offers the invoice fields: Document Type, Email Sent, Open, Pro Forma, Planned before, Expired after', async () => {
    const { form } = await openFilter();
    for (const label of [/^Document Type/, /^Email Sent/, /^Open/, /^Pro Forma/]) expect(within(form).getByRole('combobox', { name: label })).toBeInTheDocument();
    expect(within(form).getByLabelText('Planned before')).toBeInTheDocument();
    expect(within(form).getByLabelText('Expired after')).toBeInTheDocument();
  });

  it('sends Open and Document Type as the invoice overview names them', async () => {
    const { api, user, form } = await openFilter();
    await user.click(within(form).getByRole('combobox', { name: /^Open/ }));
    await user.click(await screen.findByRole('option', { name: 'Yes' }));
    await user.click(within(form).getByRole('combobox', { name: /^Document Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Participation fee' }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(api.last('GET /contracts')!.query.get('open')).toBe('true'));
    expect(api.last('GET /contracts')!.query.get('document_type_id')).toBe('5');
  });

  it('sends Email Sent, Pro Forma and the two dates', async () => {
    const { api, user, form } = await openFilter();
    await user.click(within(form).getByRole('combobox', { name: /^Email Sent/ }));
    await user.click(await screen.findByRole('option', { name: 'No' }));
    await user.click(within(form).getByRole('combobox', { name: /^Pro Forma/ }));
    await user.click(await screen.findByRole('option', { name: 'Yes' }));
    await user.type(within(form).getByLabelText('Planned before'), '01-06-2026{Enter}');
    await user.type(within(form).getByLabelText('Expired after'), '15-03-2026{Enter}');
    await waitFor(() => expect(api.last('GET /contracts')!.query.get('expired_after')).toBe('2026-03-15'));
    const query = api.last('GET /contracts')!.query;
    expect(query.get('email_sent')).toBe('false');
    expect(query.get('pro_forma')).toBe('true');
    expect(query.get('planned_before')).toBe('2026-06-01');
  });
});
