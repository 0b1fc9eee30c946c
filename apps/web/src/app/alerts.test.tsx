import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from './providers';
import { stubApi } from '../test/api-stub';
import { session } from '../test/fixtures';
import { ApiError } from '../lib/api-client';
import { useAlerts } from '../lib/alerts';

/** Buttons raising the alerts, inside the app's providers (where the toasts are drawn). */
function Harness({ error }: { error?: unknown }) {
  const alerts = useAlerts();
  return (
    <>
      <button onClick={() => alerts.showError('Passwords do not match')}>error</button>
      <button onClick={() => alerts.showSuccess('Saved')}>success</button>
      <button onClick={() => alerts.showSuccess('Document deleted')}>other success</button>
      <button onClick={() => alerts.showFailure(error, 'saving update')}>failure</button>
      <button onClick={() => alerts.clear()}>clear</button>
    </>
  );
}

function renderAlerts(error?: unknown) {
  stubApi(session());
  render(
    <AppProviders queryClient={new QueryClient()} mantineEnv="test">
      <Harness error={error} />
    </AppProviders>,
  );
}

const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const passTime = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('alerts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows an error as a red toast, announced as an alert, that stays until dismissed', () => {
    renderAlerts();
    press('error');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Passwords do not match');
    expect(alert.style.getPropertyValue('--notification-color')).toContain('red');
    passTime(60_000);
    expect(screen.getByRole('alert')).toBeInTheDocument();
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    passTime(1000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a success as a green toast, announced as a status, that closes by itself after some seconds', () => {
    renderAlerts();
    press('success');
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Saved');
    expect(status.style.getPropertyValue('--notification-color')).toContain('green');
    expect(within(status).getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    passTime(3000);
    expect(screen.getByRole('status')).toBeInTheDocument();
    passTime(5000);
    // Closing is a short transition of its own.
    passTime(1000);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows one toast for the same message raised twice', () => {
    renderAlerts();
    press('error');
    press('error');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('reports a 409 with the server’s message', () => {
    renderAlerts(new ApiError(409, 'This Country was changed by Bob Other'));
    press('failure');
    expect(screen.getByRole('alert')).toHaveTextContent('This Country was changed by Bob Other');
  });

  it('reports a 403 with the server’s reason (decision 054)', () => {
    renderAlerts(new ApiError(403, 'Only a Developer may create or change a Developer account'));
    press('failure');
    expect(screen.getByRole('alert')).toHaveTextContent('Only a Developer may create or change a Developer account');
  });

  it('reports any other failure as "Server error while {action}"', () => {
    renderAlerts(new ApiError(500, 'boom'));
    press('failure');
    expect(screen.getByRole('alert')).toHaveTextContent('Server error while saving update');
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it("adds to a server error what the server says went wrong and the request's reference for the operator (decision 055)", () => {
    renderAlerts(new ApiError(500, 'Invoice (PDF): the uploaded template invoice_pdf does not render (line 3)', {}, 'Invoice (PDF): the uploaded template invoice_pdf does not render (line 3)', 'req-7f3a'));
    press('failure');
    expect(screen.getByRole('alert')).toHaveTextContent('Server error while saving update: Invoice (PDF): the uploaded template invoice_pdf does not render (line 3) (reference req-7f3a)');
  });

  it('reports nothing for a 401: the login screen follows', () => {
    renderAlerts(new ApiError(401, 'Not logged in'));
    press('failure');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes every toast on clear (at logout)', () => {
    renderAlerts();
    press('error');
    press('success');
    press('clear');
    passTime(1000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows only the last success: an earlier green toast gives way to the next one (decision 067)', () => {
    renderAlerts();
    press('other success');
    expect(screen.getByRole('status')).toHaveTextContent('Document deleted');
    press('success');
    passTime(1000);
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });

  it('takes the errors away once something succeeds: the retry answered them (decision 052)', () => {
    renderAlerts();
    press('error');
    expect(screen.getByRole('alert')).toBeInTheDocument();
    press('success');
    passTime(1000);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });
});
