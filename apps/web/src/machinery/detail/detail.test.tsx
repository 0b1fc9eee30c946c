import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type Answers } from '../../test/api-stub';
import { adminUser, countryRows, failure, page, readerUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const germany = countryRows[0]!;
const LATER = '2024-06-01T09:00:00.000Z';

/** The country screens' answers: Germany, the list of three, and whatever the test adds or replaces. */
function countryApi(answers: Answers = {}) {
  return stubApi({ ...session(), 'GET /countries/1': { body: germany }, 'GET /countries': page(countryRows), ...answers });
}

async function openGermany(path = '/country/1', api = countryApi()) {
  const app = renderApp(path, api);
  await waitFor(() => expect(screen.getByLabelText(/^Code/)).toHaveValue('DE'));
  return app;
}

describe('detail', () => {
  it('shows the record read-only by default', async () => {
    await openGermany();
    expect(screen.getByRole('heading', { name: /Country/ })).toHaveTextContent('CountryDE');
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany');
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Overview' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo Edit' })).not.toBeInTheDocument();
  });

  it('enters edit mode with Edit (?mode=edit) and leaves it with Undo Edit, dropping the changes', async () => {
    const { user, location } = await openGermany();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    const name = screen.getByLabelText(/^Name/);
    expect(name).not.toHaveAttribute('readonly');
    await user.clear(name);
    await user.type(name, 'Deutschland');
    await user.click(screen.getByRole('button', { name: 'Undo Edit' }));
    expect(location()).toBe('/country/1');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows the record again when it loads anew, as long as nothing was changed', async () => {
    const api = countryApi();
    const { user, queryClient } = await openGermany('/country/1?mode=edit', api);
    api.on('GET /countries/1', { body: { ...germany, cntry_name: 'Germany (reloaded)', edit_timestamp: LATER } });
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany (reloaded)'));

    // Once changed, the user's values stay, and the save refers to the record as it was when they started.
    await user.type(screen.getByLabelText(/^Name/), '!');
    api.on('GET /countries/1', { body: { ...germany, cntry_name: 'Germany (again)', edit_timestamp: '2024-07-01T09:00:00.000Z' } });
    await queryClient.invalidateQueries();
    await waitFor(() => expect(api.sent('GET /countries/1')).toHaveLength(3));
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany (reloaded)!');
    api.on('PUT /countries/1', { body: { ...germany, cntry_name: 'Germany (reloaded)!' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('PUT /countries/1')).toHaveLength(1));
    expect(api.last('PUT /countries/1')!.headers['if-match']).toBe(LATER);
  });

  it('asks before leaving unsaved changes for another screen: Stay keeps them, Leave goes', async () => {
    const { user, location } = await openGermany('/country/1?mode=edit');
    await user.clear(screen.getByLabelText(/^Name/));
    await user.type(screen.getByLabelText(/^Name/), 'Deutschland');
    // Closing or reloading the tab asks the browser's question.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(dialog).toHaveTextContent('This Country has changes that are not saved. Leave without saving them?');
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).not.toBeInTheDocument());
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Deutschland');

    await user.click(screen.getByRole('link', { name: 'Scholarship Office' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(location()).toBe('/'));
  });

  it('asks before logging out from unsaved changes', async () => {
    const api = countryApi({ 'POST /auth/logout': { status: 204 } });
    const { user, location } = await openGermany('/country/1?mode=edit', api);
    await user.type(screen.getByLabelText(/^Name/), ' (DE)');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(api.sent('POST /auth/logout')).toHaveLength(0);
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany (DE)');

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Log out without saving' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(api.sent('POST /auth/logout')).toHaveLength(1);
  });

  it('keeps unsaved changes when the session ends: a login over the screen (same user), then Save works (decision 061)', async () => {
    const api = countryApi({ 'PUT /countries/1': failure(401, 'You are not logged in') });
    const { user, location } = await openGermany('/country/1?mode=edit', api);
    await user.clear(screen.getByLabelText(/^Name/));
    await user.type(screen.getByLabelText(/^Name/), 'Deutschland');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
    expect(dialog).toHaveTextContent('Log in again as ada to go on, then save them.');
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Deutschland');
    const logIn = within(dialog).getByRole('button', { name: 'Log in' });
    expect(logIn).toBeDisabled();

    // A wrong password says so (unlike the login screen) and clears the field; the screen stays.
    api.on('POST /auth/login', failure(401, 'Wrong username or password'));
    await user.type(within(dialog).getByLabelText('Password'), 'wrong{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Wrong username or passwordIf the password is right, your account may have been disabled: ask an administrator.');
    expect(within(dialog).getByLabelText('Password')).toHaveValue('');
    expect(api.last('POST /auth/login')!.body).toEqual({ username: 'ada', password: 'wrong' });

    api.on('POST /auth/login', { body: { user: adminUser, token: 'jwt' } });
    await user.type(within(dialog).getByLabelText('Password'), 'right password');
    await user.click(logIn);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your session has ended' })).not.toBeInTheDocument());
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Deutschland');

    api.on('PUT /countries/1', { body: { ...germany, cntry_name: 'Deutschland' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/country/1'));
    expect(api.last('PUT /countries/1')!.body).toMatchObject({ cntry_name: 'Deutschland' });
  });

  it('gives the changes up at the ended session only when asked: Log out without saving shows the login screen', async () => {
    const api = countryApi({ 'PUT /countries/1': failure(401, 'You are not logged in') });
    const { user, location } = await openGermany('/country/1?mode=edit', api);
    await user.type(screen.getByLabelText(/^Name/), ' (DE)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
    await user.click(within(dialog).getByRole('button', { name: 'Log out without saving' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(location()).toBe('/login');
  });

  it('shows the login screen at an ended session when nothing was changed', async () => {
    const api = countryApi();
    const { user, location } = await openGermany('/country/1?mode=edit', api);
    api.on('DELETE /countries/1', failure(401, 'You are not logged in'));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(location()).toBe('/login');
    expect(screen.queryByRole('dialog', { name: 'Your session has ended' })).not.toBeInTheDocument();
  });

  it('leaves without asking when nothing was changed', async () => {
    const { user, location } = await openGermany('/country/1?mode=edit');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    await waitFor(() => expect(location()).toBe('/countries'));
  });

  it('leaves without asking when a change was typed back to the value of the record', async () => {
    const { user, location } = await openGermany('/country/1?mode=edit');
    await user.type(screen.getByLabelText(/^Name/), 'y');
    await user.type(screen.getByLabelText(/^Name/), '{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    await waitFor(() => expect(location()).toBe('/countries'));
  });

  it('goes to the saved record without asking after saving a new one', async () => {
    const api = countryApi({ 'POST /countries': { status: 201, body: { id: 4 } }, 'GET /countries/4': { body: { id: 4, cntry_code: 'XQ', cntry_name: 'Examplestan', edit_timestamp: SEEN } } });
    const { user, location } = renderApp('/country/new', api);
    await user.type(await screen.findByLabelText(/^Code/), 'XQ');
    await user.type(screen.getByLabelText(/^Name/), 'Examplestan');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/country/4'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).not.toBeInTheDocument();
  });

  it('marks the fields the create schema requires', async () => {
    await openGermany('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-required', 'true');
  });

  it('shows the schema message of an emptied required field and disables Save', async () => {
    const { user, api } = await openGermany('/country/1?mode=edit');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    await user.clear(screen.getByLabelText(/^Name/));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/^Code/), '1');
    expect(await screen.findByText('Code must be 2 or 3 letters')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Name/), 'Germany{Enter}');
    expect(save).toBeDisabled();
    expect(api.sent('PUT /countries/1')).toHaveLength(0);
  });

  it('shows no message on a field the user has not changed', async () => {
    const { user } = renderApp('/country/new', countryApi());
    await user.type(await screen.findByLabelText(/^Name/), 'Examplestan');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.queryByText('Code is required')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Code/)).not.toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByLabelText(/^Code/), 'b');
    await user.clear(screen.getByLabelText(/^Code/));
    expect(await screen.findByText('Code is required')).toBeInTheDocument();
  });

  it('saves only the changed fields plus id with If-Match, then shows the answered record read-only', async () => {
    const api = countryApi({ 'PUT /countries/1': { body: { ...germany, cntry_name: 'Federal Republic of Germany', edit_timestamp: LATER } } });
    const { user, location } = await openGermany('/country/1?mode=edit', api);
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Federal Republic of Germany');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Saved');
    const put = api.last('PUT /countries/1')!;
    expect(put.body).toEqual({ id: 1, cntry_name: 'Federal Republic of Germany' });
    expect(put.headers['if-match']).toBe(SEEN);
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly'));
    expect(location()).toBe('/country/1');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Federal Republic of Germany');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('sends what the schema makes of a value (codes in capitals)', async () => {
    const api = countryApi({ 'PUT /countries/1': { body: { ...germany, cntry_code: 'DEU', edit_timestamp: LATER } } });
    const { user } = await openGermany('/country/1?mode=edit', api);
    const code = screen.getByLabelText(/^Code/);
    await user.clear(code);
    await user.type(code, 'deu');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    expect(api.last('PUT /countries/1')!.body).toEqual({ id: 1, cntry_code: 'DEU' });
  });

  it("shows the server's message of a 409 in a red alert until dismissed, and stays in edit mode", async () => {
    const message = 'This Country was changed by Bob Other at 01-05-2024 12:00 after you opened it.';
    const { user, location } = await openGermany('/country/1?mode=edit', countryApi({ 'PUT /countries/1': failure(409, message) }));
    await user.clear(screen.getByLabelText(/^Name/));
    await user.type(screen.getByLabelText(/^Name/), 'Germany!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany!');
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('after a stale edit (409), offers to reload the record under the user’s changes, naming what the other user changed', async () => {
    const message = 'This Country was changed by Bob Other at 01-06-2024 11:00 after you opened it.';
    const api = countryApi({ 'PUT /countries/1': failure(409, message) });
    const { user } = await openGermany('/country/1?mode=edit', api);
    await user.clear(screen.getByLabelText(/^Name/));
    await user.type(screen.getByLabelText(/^Name/), 'Deutschland');
    api.on('GET /countries/1', { body: { ...germany, cntry_code: 'DD', edit_timestamp: LATER } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    const notice = await screen.findByText(/Since you opened it: Code\./);
    expect(screen.getByLabelText(/^Code/)).toHaveValue('DE');
    await user.click(screen.getByRole('button', { name: 'Reload and keep my changes' }));
    expect(notice).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Code/)).toHaveValue('DD');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Deutschland');

    api.on('PUT /countries/1', { body: { ...germany, cntry_code: 'DD', cntry_name: 'Deutschland', edit_timestamp: '2024-06-02T09:00:00.000Z' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly'));
    const put = api.last('PUT /countries/1')!;
    expect(put.body).toEqual({ id: 1, cntry_name: 'Deutschland' });
    expect(put.headers['if-match']).toBe(LATER);
  });

  it('offers no reload after a 409 that is not a stale edit (the record is as the user read it)', async () => {
    const { user } = await openGermany('/country/1?mode=edit', countryApi({ 'PUT /countries/1': failure(409, 'The code DE is taken') }));
    await user.type(screen.getByLabelText(/^Name/), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code DE is taken');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('button', { name: 'Reload and keep my changes' })).not.toBeInTheDocument();
  });

  it('says a refusal once: the re-read after a 409, refused the same way, adds no "Error loading" beside it (decision 061)', async () => {
    const refused = failure(409, 'You are logged in as Bob Other now (in another tab or window of this browser), not as the user this page shows.');
    const api = countryApi({ 'PUT /countries/1': refused });
    const { user } = await openGermany('/country/1?mode=edit', api);
    api.on('GET /countries/1', refused);
    await user.type(screen.getByLabelText(/^Name/), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are logged in as Bob Other now');
    await waitFor(() => expect(api.sent('GET /countries/1')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByText('Error loading Country')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany!');
  });

  it('shows "Server error while saving update" on any other failure, never the server’s text', async () => {
    const { user } = await openGermany('/country/1?mode=edit', countryApi({ 'PUT /countries/1': failure(500, 'boom') }));
    await user.type(screen.getByLabelText(/^Name/), ' East');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while saving update');
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it('shows field errors of a 400 on their fields until the field changes, focuses the refused field and says what is wrong', async () => {
    const api = countryApi({ 'PUT /countries/1': failure(400, 'Invalid country', { cntry_name: ['Name is not allowed'] }) });
    const { user } = await openGermany('/country/1?mode=edit', api);
    await user.type(screen.getByLabelText(/^Name/), ' East');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is not allowed')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Server error while saving update: Name is not allowed');
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveFocus());
    await user.type(screen.getByLabelText(/^Name/), 'ern');
    expect(screen.queryByText('Name is not allowed')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('asks before deleting; No keeps the record, Yes deletes it and returns to the overview', async () => {
    const { user, api, location } = await openGermany('/country/1', countryApi({ 'DELETE /countries/1': { status: 204 } }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Country?');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent('DELETE /countries/1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    expect(location()).toBe('/countries');
    expect(api.sent('DELETE /countries/1')).toHaveLength(1);
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted');
    expect(await screen.findByText('1-3 of 3')).toBeInTheDocument();
  });

  it('deletes only the version shown: a 409 (changed since) says so, stays and shows the record as it is now', async () => {
    const message = 'This Country was changed by Bob Other at 01-06-2024 11:00 after you opened it. Reload it to see the changes.';
    const api = countryApi({ 'DELETE /countries/1': failure(409, message) });
    const { user, location } = await openGermany('/country/1', api);
    api.on('GET /countries/1', { body: { ...germany, cntry_name: 'Deutschland', edit_timestamp: LATER } });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(api.last('DELETE /countries/1')!.headers['if-match']).toBe(germany.edit_timestamp);
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue('Deutschland'));
    expect(location()).toBe('/country/1');
  });

  it('a save of a record deleted meanwhile says so (404), keeping what the user typed', async () => {
    const message = 'Country 1 not found: it may have been deleted';
    const { user } = await openGermany('/country/1?mode=edit', countryApi({ 'PUT /countries/1': failure(404, message) }));
    await user.type(screen.getByLabelText(/^Name/), ' East');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany East');
  });

  it('shows "Server error while deleting" when the delete fails, and stays', async () => {
    const { user, location } = await openGermany('/country/1', countryApi({ 'DELETE /countries/1': failure(500, 'x') }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while deleting');
    expect(location()).toBe('/country/1');
  });

  it('creates a new record with POST of every field as the schema makes it, then shows it read-only', async () => {
    const api = countryApi({
      'POST /countries': { status: 201, body: { id: 4 } },
      'GET /countries/4': { body: { id: 4, cntry_code: 'BE', cntry_name: 'Belgium', edit_timestamp: SEEN } },
    });
    const { user, location } = renderApp('/countries', api);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('button', { name: 'New' }));
    expect(await screen.findByRole('heading', { name: 'New Country' })).toBeInTheDocument();
    expect(location()).toBe('/country/new');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Code/), 'be');
    await user.type(screen.getByLabelText(/^Name/), 'Belgium');
    expect(save).toBeEnabled();
    await user.click(save);

    await waitFor(() => expect(location()).toBe('/country/4'));
    expect(api.last('POST /countries')!.body).toEqual({ cntry_code: 'BE', cntry_name: 'Belgium' });
    await waitFor(() => expect(screen.getByLabelText(/^Code/)).toHaveValue('BE'));
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Belgium');
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });

  it('says why Save waits, naming each field by its label, beside the button and on it (decision 052)', async () => {
    const { user } = renderApp('/country/new', countryApi());
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/^Not saved yet\. Code: .+; Name: .+/);
    expect(screen.getByText('Not saved yet: check Code, Name.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Code/), 'be');
    await waitFor(() => expect(save).toHaveAccessibleDescription(/^Not saved yet\. Name: /));
    await user.type(screen.getByLabelText(/^Name/), 'Belgium');
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.queryByText(/^Not saved yet/)).not.toBeInTheDocument();
  });

  it('shows the 409 message when creating is refused, and "Server error while saving new" on other failures; every try sends one key', async () => {
    const api = countryApi({ 'POST /countries': failure(409, 'A Country with this Code already exists') });
    const { user } = renderApp('/country/new', api);
    await user.type(await screen.findByLabelText(/^Code/), 'DE');
    await user.type(screen.getByLabelText(/^Name/), 'Germany again');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A Country with this Code already exists');

    api.on('POST /countries', failure(503, 'down'));
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while saving new');
    // Each try of the one new record carries the same Idempotency-Key: the server creates it once (decision 050).
    const keys = api.sent('POST /countries').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('offers neither Edit nor Delete to a Reader, and ignores ?mode=edit', async () => {
    await openGermany('/country/1?mode=edit', countryApi(session(readerUser)));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly');
  });

  it('reports a record that cannot be loaded with the title', async () => {
    renderApp('/country/999', countryApi({ 'GET /countries/999': failure(404, 'Country 999 not found') }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading Country');
  });
});
