import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ROLE_IDS, ROLES, type SessionUser } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { adminUser, choiceList, failure, page, plainUser, readerUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const NEW_PASSWORD = 'a long new password';

const userRow = (u: SessionUser, filterActive = false) => ({ ...u, usr_filter_active: filterActive, edit_timestamp: SEEN });

function userApi(answers: Answers = {}) {
  return stubApi({
    ...session(),
    ...choiceList('userroles', ROLES.map((r) => ({ id: r.id, name: r.name }))),
    'GET /users': page([userRow(adminUser), userRow(plainUser), userRow(readerUser, true)]),
    'GET /users/3': { body: userRow(plainUser) },
    'GET /users/4': { body: userRow(readerUser, true) },
    ...answers,
  });
}

async function openUser(path: string, api = userApi()) {
  const app = renderApp(path, api);
  await waitFor(() => expect(screen.getByLabelText(/^Login/)).not.toHaveValue(''));
  return app;
}

async function openSetPassword(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Set Password' }));
  return screen.findByRole('dialog', { name: 'Set Password' });
}

describe('users', () => {
  it('lists login, name, role and active, with no advanced search', async () => {
    renderApp('/users', userApi());
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
    const read = await openUser('/user/3');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    read.unmount();
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
    const api = userApi({ 'POST /users': { status: 201, body: { id: 5 } }, 'GET /users/5': { body: userRow({ ...readerUser, id: 5, usr_login_name: 'carl' }) } });
    const { user, location } = renderApp('/user/new', api);
    await user.type(await screen.findByLabelText(/^Login/), 'carl');
    await user.type(screen.getByLabelText(/^First name/), 'Carl');
    await user.type(screen.getByLabelText(/^Last name/), 'Reader');
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Reader' }));
    // A required select has no clear button.
    expect(screen.queryByRole('button', { name: 'Clear Role' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/user/5'));
    expect(api.last('POST /users')!.body).toEqual({
      usr_login_name: 'carl',
      usr_first_name: 'Carl',
      usr_last_name: 'Reader',
      usr_role_id: 4,
      usr_active: true,
      usr_filter_active: false,
    });
  });

  it("offers an Administrator neither Edit nor Set Password on a Developer's account, and says why", async () => {
    const developer: SessionUser = { ...plainUser, id: 7, usr_login_name: 'dev', usr_name: 'Dee Veloper', usr_role_id: ROLE_IDS.Developer, userrole_name: 'Developer' };
    await openUser('/user/7', userApi({ 'GET /users/7': { body: userRow(developer) } }));
    const edit = screen.getByRole('button', { name: 'Edit' });
    expect(edit).toBeDisabled();
    expect(edit).toHaveAccessibleDescription('Only a Developer may create or change a Developer account');
    expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
  });

  describe('Set Password', () => {
    it('shows "Passwords do not match", closes and sends nothing when the entries differ', async () => {
      const { user, api } = await openUser('/user/3');
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), `${NEW_PASSWORD}!`);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(api.sent('PUT /users/3')).toHaveLength(0);
    });

    it('keeps Set Password disabled until both entries are filled', async () => {
      const { user } = await openUser('/user/3');
      const dialog = await openSetPassword(user);
      const submit = within(dialog).getByRole('button', { name: 'Set Password' });
      expect(submit).toBeDisabled();
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      expect(submit).toBeDisabled();
      await user.type(within(dialog).getByLabelText('Repeat password'), 'x');
      expect(submit).toBeEnabled();
    });

    it('sends PUT /users/{id} with the id and the password alone, and the version on screen in If-Match, when both entries match, then confirms in green', async () => {
      const api = userApi({ 'PUT /users/3': { body: userRow(plainUser) } });
      const { user } = await openUser('/user/3', api);
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), `${NEW_PASSWORD}{Enter}`);
      expect(await screen.findByRole('status')).toHaveTextContent('Password set');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const puts = api.sent('PUT /users/3');
      expect(puts).toHaveLength(1);
      expect(puts[0]!.body).toEqual({ id: 3, usr_login_password: NEW_PASSWORD });
      expect(puts[0]!.headers['if-match']).toBe(SEEN);
    });

    it('refuses a short password before sending, and shows the message of a 400 under the field', async () => {
      const api = userApi();
      const { user } = await openUser('/user/3', api);
      let dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), 'short');
      await user.type(within(dialog).getByLabelText('Repeat password'), 'short{Enter}');
      expect(await within(dialog).findByText('Password must be at least 12 characters')).toBeInTheDocument();
      expect(api.sent('PUT /users/3')).toHaveLength(0);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

      api.on('PUT /users/3', failure(400, 'Invalid user', { usr_login_password: ['Password is too common'] }));
      dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), NEW_PASSWORD);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await within(dialog).findByText('Password is too common')).toBeInTheDocument();
      // Typing a new password drops the message.
      await user.type(within(dialog).getByLabelText('New password'), '!');
      expect(within(dialog).queryByText('Password is too common')).not.toBeInTheDocument();
    });

    it('closes and reports "Server error while setting the password" on another failure', async () => {
      const { user } = await openUser('/user/3', userApi({ 'PUT /users/3': failure(500, 'boom') }));
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), `${NEW_PASSWORD}{Enter}`);
      expect(await screen.findByRole('alert')).toHaveTextContent('Server error while setting the password');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });

    it('is offered on the read-only page only', async () => {
      const { user } = await openUser('/user/3');
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
    });

    it('is offered to a Reader on their own record only, and works there', async () => {
      const api = userApi({ ...session(readerUser), 'PUT /users/4': { body: userRow(readerUser, true) } });
      const other = await openUser('/user/3', api);
      expect(screen.queryByRole('button', { name: 'Set Password' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
      other.unmount();

      const { user } = await openUser('/user/4', api);
      expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
      const dialog = await openSetPassword(user);
      await user.type(within(dialog).getByLabelText('New password'), NEW_PASSWORD);
      await user.type(within(dialog).getByLabelText('Repeat password'), NEW_PASSWORD);
      await user.click(within(dialog).getByRole('button', { name: 'Set Password' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Password set');
      expect(api.last('PUT /users/4')!.body).toEqual({ id: 4, usr_login_password: NEW_PASSWORD });
    });
  });
});
