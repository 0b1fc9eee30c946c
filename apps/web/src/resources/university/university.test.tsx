import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { failure, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const iban = () => screen.getByLabelText(/^Payment holder IBAN/);

const tum = {
  id: 1,
  name: 'Technical University of Munich',
  shortname: 'TUM',
  payment_holder_name: 'TU München',
  payment_holder_iban: 'DE89370400440532013000',
  payment_holder_swift: 'COBADEFFXXX',
  payment_holder_address: 'Arcisstraße 21\n80333 München',
  payment_bank_address: 'Commerzbank\nKöln',
  payment_amount: 1234.5,
  edit_timestamp: SEEN,
};

async function openTum(path = '/university/1', answers: Answers = {}) {
  const app = renderApp(path, stubApi({ ...session(), 'GET /universities/1': { body: tum }, ...answers }));
  await waitFor(() => expect(screen.getByLabelText(/^Short Name/)).toHaveValue('TUM'));
  return app;
}

describe('universities', () => {
  it('shows the payment fields: addresses as text areas, the amount in euro, the IBAN in groups of four', async () => {
    await openTum();
    expect(screen.getByLabelText(/^Payment holder address/).tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText(/^Bank address/)).toHaveValue('Commerzbank\nKöln');
    expect(screen.getByLabelText(/^Payment amount/)).toHaveValue('€ 1.234,50');
    expect(iban()).toHaveValue('DE89 3704 0044 0532 0130 00');
  });

  it('shows the IBAN message under the field for an invalid IBAN and does not save', async () => {
    const { user, api } = await openTum('/university/1?mode=edit');
    await user.clear(iban());
    await user.type(iban(), 'DE00 1234 5678');
    expect(await screen.findByText('Payment holder IBAN is not a valid IBAN')).toBeInTheDocument();
    expect(iban()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(api.sent('PUT /universities/1')).toHaveLength(0);
  });

  it("shows the server's IBAN message of a 400 under the field", async () => {
    const { user, api } = await openTum('/university/1?mode=edit', {
      'PUT /universities/1': failure(400, 'Invalid university', { payment_holder_iban: ['Payment holder IBAN is not a valid IBAN'] }),
    });
    await user.clear(iban());
    await user.type(iban(), 'GB82 WEST 1234 5698 7654 32');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment holder IBAN is not a valid IBAN')).toBeInTheDocument();
    expect(api.last('PUT /universities/1')!.body).toEqual({ id: 1, payment_holder_iban: 'GB82WEST12345698765432' });
  });

  it('sends a changed amount as a number with two decimals', async () => {
    const { user, api } = await openTum('/university/1?mode=edit', { 'PUT /universities/1': { body: { ...tum, payment_amount: 2500.75 } } });
    const amount = screen.getByLabelText(/^Payment amount/);
    await user.clear(amount);
    await user.type(amount, '2500.75');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    expect(api.last('PUT /universities/1')!.body).toEqual({ id: 1, payment_amount: 2500.75 });
  });
});
