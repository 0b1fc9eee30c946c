import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, readerUser } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const GERMANY_SEEN = '2024-05-01T10:00:00.000Z';

async function openGermany(path = '/country/1', server = new FakeServer()) {
  const app = renderApp(path, server);
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
    const { user, location, server } = await openGermany('/country/1?mode=edit');
    await user.type(screen.getByLabelText(/^Name/), ' (DE)');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(0);
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany (DE)');

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Log out without saving' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
  });

  it('leaves without asking when nothing was changed', async () => {
    const { user, location } = await openGermany('/country/1?mode=edit');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    await waitFor(() => expect(location()).toBe('/countries'));
  });

  it('goes to the saved record without asking after saving a new one', async () => {
    const { user, location } = renderApp('/country/new');
    await user.type(await screen.findByLabelText(/^Code/), 'XQ');
    await user.type(screen.getByLabelText(/^Name/), 'Examplestan');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toMatch(/^\/country\/\d+$/));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).not.toBeInTheDocument();
  });

  it('marks the fields the create schema requires', async () => {
    await openGermany('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-required', 'true');
  });

  it('shows the schema message of an emptied required field and disables Save', async () => {
    const { user, server } = await openGermany('/country/1?mode=edit');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeEnabled();
    await user.clear(screen.getByLabelText(/^Name/));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText(/^Code/), '1');
    expect(await screen.findByText('Code must be 2 or 3 letters')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Name/), 'Germany{Enter}');
    expect(save).toBeDisabled();
    expect(server.requestsTo('PUT', /^\/countries\//)).toHaveLength(0);
  });

  it('saves only the changed fields plus id with If-Match, then shows the record read-only', async () => {
    const { user, server, location } = await openGermany('/country/1?mode=edit');
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Federal Republic of Germany');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Saved')).toBeInTheDocument();
    const put = server.lastRequestTo('PUT', '/countries/1')!;
    expect(put.body).toEqual({ id: 1, cntry_name: 'Federal Republic of Germany' });
    expect(put.headers['if-match']).toBe(GERMANY_SEEN);
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly'));
    expect(location()).toBe('/country/1');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Federal Republic of Germany');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('sends what the schema makes of a value (codes in capitals)', async () => {
    const { user, server } = await openGermany('/country/1?mode=edit');
    const code = screen.getByLabelText(/^Code/);
    await user.clear(code);
    await user.type(code, 'deu');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(server.lastRequestTo('PUT', '/countries/1')!.body).toEqual({ id: 1, cntry_code: 'DEU' });
  });

  it("shows the server's message in a red alert on a 409 (stale edit) and stays in edit mode", async () => {
    const server = new FakeServer();
    const { user, location } = await openGermany('/country/1?mode=edit', server);
    server.countries[0]!.edit_timestamp = '2024-06-01T09:00:00.000Z';
    await user.clear(screen.getByLabelText(/^Name/));
    await user.type(screen.getByLabelText(/^Name/), 'Germany!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This Country was changed by Bob Other at 01-05-2024 12:00 after you opened it.');
    expect(location()).toBe('/country/1?mode=edit');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Germany!');
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows "Server error while saving update" on any other failure', async () => {
    const server = new FakeServer().on('PUT', '/countries/1', { status: 500, body: { message: 'boom' } });
    const { user } = await openGermany('/country/1?mode=edit', server);
    await user.type(screen.getByLabelText(/^Name/), ' East');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while saving update');
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
  });

  it('shows field errors of a 400 on their fields', async () => {
    const server = new FakeServer().on('PUT', '/countries/1', {
      status: 400,
      body: { message: 'Invalid country', errors: { cntry_name: ['Name is not allowed'] } },
    });
    const { user } = await openGermany('/country/1?mode=edit', server);
    await user.type(screen.getByLabelText(/^Name/), ' East');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is not allowed')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Server error while saving update');
  });

  it('asks before deleting; No keeps the record, Yes deletes it and returns to the overview', async () => {
    const { user, server, location } = await openGermany();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Country?');
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.requestsTo('DELETE', '/countries/1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    expect(location()).toBe('/countries');
    expect(server.requestsTo('DELETE', '/countries/1')).toHaveLength(1);
    expect(await screen.findByText('Deleted')).toBeInTheDocument();
    expect(await screen.findByText('1-2 of 2')).toBeInTheDocument();
    expect(screen.queryByText('Germany')).not.toBeInTheDocument();
  });

  it('shows "Server error while deleting" when the delete fails', async () => {
    const server = new FakeServer().on('DELETE', '/countries/1', { status: 500, body: { message: 'x' } });
    const { user, location } = await openGermany('/country/1', server);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while deleting');
    expect(location()).toBe('/country/1');
  });

  it('creates a new record with POST and then shows it read-only', async () => {
    const server = new FakeServer();
    const { user, location } = renderApp('/countries', server);
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
    expect(server.lastRequestTo('POST', '/countries')!.body).toEqual({ cntry_code: 'BE', cntry_name: 'Belgium' });
    await waitFor(() => expect(screen.getByLabelText(/^Code/)).toHaveValue('BE'));
    expect(screen.getByLabelText(/^Code/)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Belgium');
    expect(server.lastRequestTo('GET', '/countries/4')).toBeDefined();
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });

  it('shows "Server error while saving new" when creating fails, and the 409 message for a duplicate', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/country/new', server);
    await user.type(await screen.findByLabelText(/^Code/), 'DE');
    await user.type(screen.getByLabelText(/^Name/), 'Germany again');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Code DE is already used');

    server.on('POST', '/countries', { status: 503, body: { message: 'down' } });
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while saving new');
  });

  it('offers neither Edit nor Delete to a Reader, and ignores ?mode=edit', async () => {
    await openGermany('/country/1?mode=edit', new FakeServer({ session: readerUser }));
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly');
  });

  it('reports an unknown record with the title', async () => {
    renderApp('/country/999');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading Country');
  });
});
