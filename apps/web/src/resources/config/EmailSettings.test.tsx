import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub';
import { adminUser, developerUser, emailConfig, failure, session } from '../../test/fixtures';
import { renderRoutes } from '../../test/render-app';
import { EmailSettings } from './EmailSettings';

const stored = emailConfig;

function renderSettings(user = developerUser) {
  const api = stubApi({ ...session(user), 'GET /config/email': { body: stored } });
  return renderRoutes([{ path: '/config', element: <EmailSettings /> }], '/config', api);
}

describe('the Email settings', () => {
  it('show the stored settings but never a password: the field is empty and says one is stored', async () => {
    renderSettings();
    expect(await screen.findByLabelText(/SMTP server/)).toHaveValue('mail.example.org');
    const password = screen.getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(screen.getByText('A password is stored: leave empty to keep it')).toBeInTheDocument();
  });

  it('save the changed settings with If-Match, sending no password when the field is left empty', async () => {
    const { api, user } = renderSettings();
    api.on('PUT /config/email/', { body: { ...stored, smtp_port: 2525, edit_timestamp: '2024-05-02T10:00:00.000Z' } });
    const port = await screen.findByLabelText(/SMTP port/);
    await user.clear(port);
    await user.type(port, '2525');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('PUT /config/email/')).toHaveLength(1));
    const put = api.last('PUT /config/email/')!;
    expect(put.headers['if-match']).toBe(stored.edit_timestamp);
    expect(put.body).toMatchObject({ smtp_servername: 'mail.example.org', smtp_port: 2525, smtp_password: null, from_email_address: 'office@example.org' });
  });

  it('send a typed password, and refuse an invalid from address before anything is sent', async () => {
    const { api, user } = renderSettings();
    api.on('PUT /config/email/', { body: stored });
    const from = await screen.findByLabelText(/From address/);
    await user.clear(from);
    await user.type(from, 'not an address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('From address must be a valid e-mail address')).toBeInTheDocument();
    expect(api.sent('PUT /config/email/')).toHaveLength(0);
    await user.clear(from);
    await user.type(from, 'office@example.org');
    await user.type(screen.getByLabelText('Password'), 'n3w-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('PUT /config/email/')).toHaveLength(1));
    expect(api.last('PUT /config/email/')!.body).toMatchObject({ smtp_password: 'n3w-secret' });
  });

  it('show the server field error of a 400 beside its field', async () => {
    const { api, user } = renderSettings();
    api.on('PUT /config/email/', failure(400, 'Invalid Email settings: smtp_servername', { smtp_servername: ['SMTP server is not reachable by name'] }));
    const server = await screen.findByLabelText(/SMTP server/);
    await user.type(server, 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('SMTP server is not reachable by name')).toBeInTheDocument();
  });

  it('show the Reply-To address read-only, set by the server\'s environment (OFFICE_EMAIL), or none; it is never sent', async () => {
    const { api, user } = renderSettings();
    const replyTo = await screen.findByLabelText('Reply-To address');
    expect(replyTo).toHaveValue('scholarships@example.org');
    expect(replyTo).toHaveAttribute('readonly');
    expect(screen.getByText(/^Set by the server's environment \(OFFICE_EMAIL\), not here: replies to every mail go to it$/)).toBeInTheDocument();
    // Saved with a From address that is the office's own: the server answers none, and the screen says so.
    api.on('PUT /config/email/', { body: { ...stored, from_email_address: 'scholarships@example.org', reply_to_address: null, edit_timestamp: '2024-05-02T10:00:00.000Z' } });
    const from = screen.getByLabelText(/From address/);
    await user.clear(from);
    await user.type(from, 'scholarships@example.org');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Reply-To address')).toHaveValue('none'));
    expect(screen.getByText(/none, so replies go to the From address/)).toBeInTheDocument();
    expect(api.last('PUT /config/email/')!.body).not.toHaveProperty('reply_to_address');
  });

  it('"Send test mail" asks the server to queue one and says so', async () => {
    const { api, user } = renderSettings();
    api.on('POST /config/email/send_test', { body: { message: 'Test mail queued: see the Outbox for its delivery', outbox_id: 7 } });
    await user.click(await screen.findByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('Test mail queued: see the Outbox for its delivery')).toBeInTheDocument();
    expect(api.sent('POST /config/email/send_test')).toHaveLength(1);
  });

  it('are not shown to an Administrator, and not even asked for', async () => {
    const { api } = renderSettings(adminUser);
    expect(await screen.findByText(/You are not allowed to open/)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.sent('GET /config/email')).toHaveLength(0);
  });
});
