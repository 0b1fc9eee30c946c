import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, readerUser } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const NEW_PASSWORD = 'a long new password';

async function openUser(path: string, server = new FakeServer()) {
  const app = renderApp(path, server);
  await waitFor(() => expect(screen.getByLabelText(/^Login/)).not.toHaveValue(''));
  return app;
}

async function openSetPassword(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Set Password' }));
  return screen.findByRole('dialog', { name: 'Set Password' });
}

describe('users', () => {
  it('lists login, name, role and active, with no advanced search', async () => {
    renderApp('/users');
    expect(await screen.findByText('1-3 of 3')).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(1, 5).map((c) => c.textContent))).toEqual([
      ['ada', 'Ada Lovelace', 'Administrator', 'Yes'],
      ['bob', 'Bob User', 'User', 'Yes'],
      ['rita', 'Rita Reader', 'Reader', 'Yes'],
    ]);
    expect(screen.queryByRole('checkbox', { name: 'Advanced' })).not.toBeInTheDocument();
  });

  it('never offers Delete, even to an administrator', async () => {
    await openUser('/user/3');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await openUser('/user/3?mode=edit');
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('shows the role from the userroles list and the two flags read-only', async () => {
    await openUser('/user/4');
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Role/ })).toHaveValue('Reader'));
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Filter active' })).toBeChecked();
    expect(screen.getByLabelText(/^First name/)).toHaveAttribute('readonly');
  });

  it('creates a user with a role chosen from the list, active by default', async () => {
    const server = new FakeServer();
    const { user, location } = renderApp('/user/new', server);
    await user.type(await screen.findByLabelText(/^Login/), 'carl');
    await user.type(screen.getByLabelText(/^First name/), 'Carl');
    await user.type(screen.getByLabelText(/^Last name/), 'Reader');
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Reader' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/user/5'));
    expect(server.lastRequestTo('POST', '/users')!.body).toEqual({
      usr_login_name: 'carl',
      usr_first_name: 'Carl',
      usr_last_name: 'Reader',
      usr_role_id: 4,
      usr_active: true,
      usr_filter_active: false,
    });
    // A required select has no clear button.
    expect(screen.queryByRole('button', { name: 'Clear Role' })).not.toBeInTheDocument();
  });

  describe('Set Password', () => {
    it('shows "Passwords do not match" and sends nothing when the entries differ', async () => {
      const server = new FakeServer();
      const { user } = await openUser('/user/3', server);
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), `${NEW_PASSWORD}!`);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('PUT', /^\/users\//)).toHaveLength(0);
    });

    it('sends PUT /users/{id} with the password when both entries match, then confirms in green', async () => {
      const server = new FakeServer();
      const { user } = await openUser('/user/3', server);
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), `${NEW_PASSWORD}{Enter}`);
      expect(await screen.findByRole('status')).toHaveTextContent('Password set');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const puts = server.requestsTo('PUT', '/users/3');
      expect(puts).toHaveLength(1);
      expect(puts[0]!.body).toEqual({ id: 3, usr_login_password: NEW_PASSWORD });
      expect(server.passwords.get(3)).toBe(NEW_PASSWORD);
    });

    it('refuses a short password before sending, and shows the server message of a 400 under the field', async () => {
      const server = new FakeServer();
      const { user } = await openUser('/user/3', server);
      let dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), 'short');
      await user.type(within(dialog).getByLabelText('Repeat password'), 'short{Enter}');
      expect(await within(dialog).findByText('Password must be at least 12 characters')).toBeInTheDocument();
      expect(server.requestsTo('PUT', '/users/3')).toHaveLength(0);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      server.on('PUT', '/users/3', { status: 400, body: { message: 'Invalid user', errors: { usr_login_password: ['Password is too common'] } } });
      dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), NEW_PASSWORD);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await within(dialog).findByText('Password is too common')).toBeInTheDocument();
    });

    it('is offered on the read-only page only', async () => {
      const { user } = await openUser('/user/3');
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
    });

    it('is offered to a Reader on their own record only, and works there', async () => {
      const server = new FakeServer({ session: readerUser });
      const other = await openUser('/user/3', server);
      expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
      other.unmount();

      const { user } = await openUser('/user/4', server);
      expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), NEW_PASSWORD);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Password set');
      expect(server.lastRequestTo('PUT', '/users/4')!.body).toEqual({ id: 4, usr_login_password: NEW_PASSWORD });
    });
  });
});
