import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/api-stub';
import { adminUser, countryRows, failure, noSession, page, readerUser, session } from '../test/fixtures';
import { renderApp } from '../test/render-app';

const PASSWORD = 'correct horse battery';

/** Nobody logged in yet; a login answers with `user` (a fixed answer: the password is not checked here). */
const loggedOut = (user = adminUser) => stubApi({ ...noSession(), 'POST /auth/login': { body: { user, token: 'jwt' } } });

describe('login screen', () => {
  it('sends an unauthenticated visit to the login screen', async () => {
    const { location } = renderApp('/countries', loggedOut());
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(location()).toBe('/login');
  });

  it('keeps Login disabled until both fields are filled', async () => {
    const { user } = renderApp('/login', loggedOut());
    const login = await screen.findByRole('button', { name: 'Login' });
    expect(login).toBeDisabled();
    await user.type(screen.getByLabelText('Username'), 'ada');
    expect(login).toBeDisabled();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(login).toBeEnabled();
    await user.clear(screen.getByLabelText('Username'));
    expect(login).toBeDisabled();
  });

  it('sends nothing on Enter while a field is empty', async () => {
    const { user, api } = renderApp('/login', loggedOut());
    await user.type(await screen.findByLabelText('Password'), `${PASSWORD}{Enter}`);
    expect(api.sent('POST /auth/login')).toHaveLength(0);
  });

  it('logs in with Enter in the password field and goes to / showing the user', async () => {
    const { user, api, location } = renderApp('/login', loggedOut());
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), `${PASSWORD}{Enter}`);
    expect(await screen.findByText('Ada Lovelace (Administrator)')).toBeInTheDocument();
    expect(screen.getByText('v2.0.51')).toBeInTheDocument();
    expect(location()).toBe('/');
    const call = api.last('POST /auth/login');
    expect(call?.body).toEqual({ username: 'ada', password: PASSWORD });
    expect(call?.credentials).toBe('same-origin');
  });

  it('clears both fields, focuses the username and shows no message when the login fails', async () => {
    const api = loggedOut().on('POST /auth/login', failure(401, 'Wrong username or password'));
    const { user, location } = renderApp('/login', api);
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong password{Enter}');
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveValue(''));
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Username')).toHaveFocus();
    expect(api.sent('POST /auth/login')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/wrong/i)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    expect(location()).toBe('/login');
  });

  it('clears the fields on too many attempts (429) as well', async () => {
    const api = loggedOut().on('POST /auth/login', failure(429, 'Too many failed login attempts'));
    const { user } = renderApp('/login', api);
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('Password'), `${PASSWORD}{Enter}`);
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveValue(''));
    expect(screen.getByLabelText('Username')).toHaveValue('');
    expect(screen.queryByText(/too many/i)).not.toBeInTheDocument();
  });

  it('sends a logged-in visit of /login to /', async () => {
    const { location } = renderApp('/login', stubApi(session()));
    expect(await screen.findByText('Ada Lovelace (Administrator)')).toBeInTheDocument();
    expect(location()).toBe('/');
  });

  it('logs out with the Logout button and returns to /login', async () => {
    const { user, api, location } = renderApp('/', stubApi({ ...session(), 'POST /auth/logout': { status: 204 } }));
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(location()).toBe('/login');
    expect(api.sent('POST /auth/logout')).toHaveLength(1);
  });

  it('leaves the alerts of a session behind at logout', async () => {
    const api = stubApi({
      ...session(),
      'GET /countries/1': { body: countryRows[0] },
      'DELETE /countries/1': failure(500, 'x'),
      'POST /auth/logout': { status: 204 },
      'POST /auth/login': { body: { user: readerUser, token: 'jwt' } },
    });
    const { user } = renderApp('/country/1', api);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while deleting');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.type(await screen.findByLabelText('Username'), 'rita');
    await user.type(screen.getByLabelText('Password'), `${PASSWORD}{Enter}`);
    expect(await screen.findByText('Rita Reader (Reader)')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('every call says which user the page shows (X-User-Id), from the login on: after logout and login, the new one', async () => {
    const api = stubApi({
      ...session(),
      'GET /countries/1': { body: countryRows[0] },
      'POST /auth/logout': { status: 204 },
      'POST /auth/login': { body: { user: readerUser, token: 'jwt' } },
    });
    const { user } = renderApp('/country/1', api);
    await screen.findByText('Ada Lovelace (Administrator)');
    await waitFor(() => expect(api.sent('GET /countries/1')).toHaveLength(1));
    expect(api.last('GET /countries/1')!.headers['x-user-id']).toBe(String(adminUser.id));
    expect(api.last('GET /auth/me')!.headers['x-user-id']).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.type(await screen.findByLabelText('Username'), 'rita');
    await user.type(screen.getByLabelText('Password'), `${PASSWORD}{Enter}`);
    await screen.findByText('Rita Reader (Reader)');
    const login = api.last('POST /auth/login')!;
    expect(login.headers['x-user-id']).toBeUndefined();
    // The home screen's calls, made as the new user.
    await waitFor(() => expect(api.requests.indexOf(login)).toBeLessThan(api.requests.length - 1));
    const after = api.requests.slice(api.requests.indexOf(login) + 1);
    expect(after.map((r) => r.headers['x-user-id'])).toEqual(after.map(() => String(readerUser.id)));
  });

  it('goes to /login when any call answers 401 (the session expired)', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countryRows) });
    const { user, location } = renderApp('/', api);
    await screen.findByText('Ada Lovelace (Administrator)');
    api.on('GET /countries', failure(401, 'Not logged in'));
    await user.click(screen.getByRole('link', { name: 'Countries' }));
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(location()).toBe('/login');
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('401'));
  });
});
