import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub';
import { adminUser, page, plainUser, session, type Row } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

function mail(id: number, status: string, overrides: Partial<Row> = {}): Row {
  return {
    id,
    recipient: `student${id}@example.org`,
    recipient_name: 'Łukasz Wiśniewski',
    subject: `Bank information request ${id}`,
    text_body: 'Please send us your bank details.',
    html_body: null,
    status,
    attempts: 1,
    last_reply: status === 'unknown' ? 'Connection lost after the message was sent, before the server answered' : '250 OK',
    resource: 'contract',
    record_id: 12,
    contract_id: 12,
    record_reference: 'A000012 (Łukasz Wiśniewski)',
    contract_reference: 'A000012 (Łukasz Wiśniewski)',
    attachment_names: null,
    created_user: 1,
    created_user_name: 'Ada Lovelace',
    created_timestamp: '2024-05-01T10:00:00.000Z',
    sent_timestamp: null,
    edit_timestamp: '2024-05-01T10:00:01.000Z',
    ...overrides,
  };
}

describe('the Outbox', () => {
  it('lists every mail, newest first, for an Administrator', async () => {
    const api = stubApi({ ...session(adminUser), 'GET /outbox': page([mail(2, 'unknown'), mail(1, 'sent')]) });
    renderApp('/outbox', api);
    expect(await screen.findByRole('heading', { name: 'Outbox' })).toBeInTheDocument();
    await screen.findByText('1-2 of 2');
    expect(api.last('GET /outbox')!.query.get('sort')).toBe('created_timestamp|desc');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(['student2@example.org', 'student1@example.org']);
    expect(rows.map((r) => within(r).getAllByRole('cell')[4]!.textContent)).toEqual(['Unknown', 'Sent']);
    expect(screen.queryByRole('link', { name: /New/ })).not.toBeInTheDocument();
  });

  it('shows the whole status word in its narrow column: the badge never cuts it short ("QUEU…")', async () => {
    renderApp('/outbox', stubApi({ ...session(adminUser), 'GET /outbox': page([mail(3, 'queued')]) }));
    await screen.findByText('1-1 of 1');
    const status = within(screen.getByRole('table')).getAllByRole('row')[1]!.querySelectorAll('td')[4]!;
    const badge = within(status).getByText('Queued');
    // Mantine's badge hides what overflows, with an ellipsis, on the badge and on its label.
    expect(badge).toHaveStyle({ overflow: 'visible', textOverflow: 'clip' });
    expect(badge.parentElement).toHaveStyle({ overflow: 'visible' });
  });

  it('resends an unknown mail after a confirm that warns it may arrive twice', async () => {
    const api = stubApi({ ...session(adminUser), 'GET /outbox/2': { body: mail(2, 'unknown') }, 'GET /logging': page([]) });
    api.on('POST /outbox/2/resend', { body: mail(2, 'queued') });
    const { user } = renderApp('/outbox/2', api);
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/may get it twice/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.sent('POST /outbox/2/resend')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    const info = screen.getByRole('region', { name: 'E-mail information' });
    expect(within(info).getByRole('link', { name: 'Contract A000012 (Łukasz Wiśniewski)' })).toHaveAttribute('href', '/contract/12');
    expect(within(info).getByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('sends a queued mail waiting to retry now, by Resend; one not tried yet offers nothing to resend', async () => {
    const waiting = mail(6, 'queued', { attempts: 2, last_reply: 'connect ECONNREFUSED 10.0.0.5:587' });
    const api = stubApi({ ...session(adminUser), 'GET /outbox/6': { body: waiting }, 'GET /outbox/7': { body: mail(7, 'queued', { attempts: 0, last_reply: null }) }, 'GET /logging': page([]) });
    api.on('POST /outbox/6/resend', { body: { ...waiting, attempts: 0 } });
    const { user, router } = renderApp('/outbox/6', api);
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/A mail waiting to retry is tried now/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.sent('POST /outbox/6/resend')).toHaveLength(1));
    expect(api.last('POST /outbox/6/resend')!.headers['if-match']).toBe(waiting.edit_timestamp);
    await router.navigate('/outbox/7');
    await screen.findByText('Bank information request 7');
    expect(await screen.findByRole('button', { name: 'Resend' })).toBeDisabled();
  });

  it('opens on the mails that need a look when Home links to them: failed or waiting to retry', async () => {
    const api = stubApi({ ...session(adminUser), 'GET /outbox': page([mail(8, 'queued', { attempts: 1 })]) });
    renderApp('/outbox?delivery=failed_or_retrying', api);
    await screen.findByText('1-1 of 1');
    expect(api.last('GET /outbox')!.query.get('delivery')).toBe('failed_or_retrying');
  });

  it('names what each mail concerns as staff call it, with a link to its screen and to its contract; the Concerns filter offers each kind', async () => {
    const api = stubApi({
      ...session(adminUser),
      'GET /outbox': page([mail(1, 'sent')]),
      'GET /outbox/3': { body: mail(3, 'sent', { resource: 'invoice', record_id: 7, record_reference: '2026-00012' }) },
      'GET /outbox/4': { body: mail(4, 'sent', { resource: 'invoice_payment', record_id: 9, record_reference: 'P2026-00009' }) },
      'GET /outbox/5': { body: mail(5, 'sent', { resource: 'emailSettings', record_id: 1, contract_id: null, record_reference: null, contract_reference: null }) },
      'GET /outbox/9': { body: mail(9, 'failed', { resource: 'invoice_payment', record_id: 10, record_reference: null }) },
      'GET /logging': page([]),
    });
    const { user, router } = renderApp('/outbox/3', api);
    const info = () => screen.findByRole('region', { name: 'E-mail information' });
    // Named as staff know them (decision 070), not by id.
    expect(within(await info()).getByRole('link', { name: 'Invoice 2026-00012' })).toHaveAttribute('href', '/invoice/numbered/7');
    // An invoice's mail names its contract too (decision 045).
    expect(within(await info()).getByRole('link', { name: 'A000012 (Łukasz Wiśniewski)' })).toHaveAttribute('href', '/contract/12');
    await router.navigate('/outbox/4');
    expect(await screen.findByRole('link', { name: 'Invoice payment P2026-00009' })).toHaveAttribute('href', '/invoicepayment/9');
    // A payment deleted since: named by its id, with no link to a screen that is gone.
    await router.navigate('/outbox/9');
    await screen.findByText('Bank information request 9');
    expect(within(await info()).getByText('Invoice payment 10 (deleted)')).toBeInTheDocument();
    expect(within(await info()).queryByRole('link', { name: /Invoice payment/ })).not.toBeInTheDocument();
    await router.navigate('/outbox/5');
    await screen.findByText('Bank information request 5');
    expect(within(await info()).getByText('Test mail')).toBeInTheDocument();
    expect(within(await info()).queryByText('Contract')).not.toBeInTheDocument();

    await router.navigate('/outbox');
    await screen.findByText('1-1 of 1');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(await screen.findByRole('combobox', { name: /^Concerns/ }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Contract', 'Invoice', 'Invoice payment', 'Test mail']);
  });

  it('is not open to a User', async () => {
    const api = stubApi({ ...session(plainUser), 'GET /outbox': page([]) });
    renderApp('/outbox', api);
    expect(await screen.findByText(/You are not allowed to open/)).toBeInTheDocument();
    expect(api.sent('GET /outbox')).toHaveLength(0);
  });
});
