import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const iban = () => screen.getByLabelText(/^Payment holder IBAN/);

async function openTum(path = '/university/1', server = new FakeServer()) {
  const app = renderApp(path, server);
  await waitFor(() => expect(screen.getByLabelText(/^Short Name/)).toHaveValue('TUM'));
  return app;
}

describe('universities', () => {
  it('shows the payment fields: addresses as text areas, the amount in euro', async () => {
    await openTum();
    expect(screen.getByLabelText(/^Payment holder address/).tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText(/^Bank address/)).toHaveValue('Commerzbank\nKöln');
    expect(screen.getByLabelText(/^Payment amount/)).toHaveValue('€ 1.234,50');
    expect(iban()).toHaveValue('DE89 3704 0044 0532 0130 00');
  });

  it('shows the IBAN message under the field for an invalid IBAN and does not save', async () => {
    const server = new FakeServer();
    const { user } = await openTum('/university/1?mode=edit', server);
    await user.clear(iban());
    await user.type(iban(), 'DE00 1234 5678');
    expect(await screen.findByText('Payment holder IBAN is not a valid IBAN')).toBeInTheDocument();
    expect(iban()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(server.requestsTo('PUT', '/universities/1')).toHaveLength(0);
  });

  it("shows the server's IBAN message of a 400 under the field", async () => {
    const server = new FakeServer().on('PUT', '/universities/1', {
      status: 400,
      body: { message: 'Invalid university', errors: { payment_holder_iban: ['Payment holder IBAN is not a valid IBAN'] } },
    });
    const { user } = await openTum('/university/1?mode=edit', server);
    await user.clear(iban());
    await user.type(iban(), 'GB82 WEST 1234 5698 7654 32');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment holder IBAN is not a valid IBAN')).toBeInTheDocument();
    expect(server.lastRequestTo('PUT', '/universities/1')!.body).toEqual({ id: 1, payment_holder_iban: 'GB82WEST12345698765432' });
  });

  it('sends a changed amount as a number with two decimals', async () => {
    const server = new FakeServer();
    const { user } = await openTum('/university/1?mode=edit', server);
    const amount = screen.getByLabelText(/^Payment amount/);
    await user.clear(amount);
    await user.type(amount, '2500.75');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(server.lastRequestTo('PUT', '/universities/1')!.body).toEqual({ id: 1, payment_amount: 2500.75 });
  });
});
