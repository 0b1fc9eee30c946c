import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, makeCountries, readerUser } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const listCalls = (server: FakeServer) => server.requestsTo('GET', '/countries');
const lastList = (server: FakeServer) => server.lastRequestTo('GET', '/countries')!.query;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function header(name: string) {
  return screen.getByRole('button', { name }).closest('th')!;
}

describe('overview', () => {
  it('lists the rows of the first page with the range text, sorted by the default sort', async () => {
    const server = new FakeServer({ countries: makeCountries(120) });
    renderApp('/countries', server);
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    expect(await screen.findByText('1-50 of 120')).toBeInTheDocument();
    expect(screen.getByText('Country 001')).toBeInTheDocument();
    expect(screen.queryByText('Country 051')).not.toBeInTheDocument();
    const query = lastList(server);
    expect(query.get('sort')).toBe('cntry_name|asc');
    expect(query.get('page')).toBe('1');
    expect(query.get('per_page')).toBe('50');
    expect(query.has('search')).toBe(false);
    // 50 data rows plus the header row.
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(51);
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('pages with Next page and Previous page', async () => {
    const server = new FakeServer({ countries: makeCountries(120) });
    const { user } = renderApp('/countries', server);
    await screen.findByText('1-50 of 120');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(lastList(server).get('page')).toBe('2');
    expect(screen.getByText('Country 051')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('101-120 of 120')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(lastList(server).get('page')).toBe('2');
  });

  it('applies the quick filter 500 ms after typing stops', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/countries', server);
    await screen.findByText('1-3 of 3');
    await user.type(screen.getByLabelText('Quick filter'), 'ger');
    const typedAt = Date.now();
    await sleep(250);
    expect(listCalls(server).some((r) => r.query.has('search'))).toBe(false);
    await waitFor(() => expect(lastList(server).get('search')).toBe('ger'), { timeout: 2000 });
    const sent = server.lastRequestTo('GET', '/countries')!;
    // The timer starts at the last keystroke, a moment before `typedAt`.
    expect(sent.at - typedAt).toBeGreaterThanOrEqual(400);
    // One request for the whole word, not one per keystroke.
    expect(listCalls(server).filter((r) => r.query.has('search'))).toHaveLength(1);
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    expect(screen.getByText('Germany')).toBeInTheDocument();
    expect(screen.queryByText('France')).not.toBeInTheDocument();
  });

  it('applies the quick filter at once on Enter, and the clear button removes it', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/countries', server);
    await screen.findByText('1-3 of 3');
    const input = screen.getByLabelText('Quick filter');
    await user.type(input, 'fra');
    const enteredAt = Date.now();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastList(server).get('search')).toBe('fra'), { timeout: 480 });
    // Well before the 500 ms the debounce would have waited.
    expect(server.lastRequestTo('GET', '/countries')!.at - enteredAt).toBeLessThan(480);
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(input).toHaveValue('');
    expect(await screen.findByText('1-3 of 3')).toBeInTheDocument();
    expect(lastList(server).has('search')).toBe(false);
  });

  it('sorts by a clicked column alone and adds shift-clicked columns as further keys', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/countries', server);
    await screen.findByText('1-3 of 3');

    await user.click(screen.getByRole('button', { name: 'Code' }));
    await waitFor(() => expect(lastList(server).get('sort')).toBe('cntry_code|asc'));
    expect(header('Code')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');
    expect(header('Code')).toHaveTextContent('Code▲');

    await user.click(screen.getByRole('button', { name: 'Code' }));
    await waitFor(() => expect(lastList(server).get('sort')).toBe('cntry_code|desc'));
    expect(header('Code')).toHaveAttribute('aria-sort', 'descending');

    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.keyboard('{/Shift}');
    await waitFor(() => expect(lastList(server).get('sort')).toBe('cntry_code|desc,cntry_name|asc'));

    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.keyboard('{/Shift}');
    await waitFor(() => expect(lastList(server).get('sort')).toBe('cntry_code|desc,cntry_name|desc'));
    expect(header('Code')).toHaveTextContent('Code▼1');
    expect(header('Name')).toHaveTextContent('Name▼2');
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['NL', 'FR', 'DE']);

    // A plain click starts over with that column alone.
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(lastList(server).get('sort')).toBe('cntry_name|asc'));
    expect(header('Name')).toHaveTextContent('Name▲');
    expect(header('Name')).not.toHaveTextContent('▲1');
  });

  it('shows No Data Available for an empty list', async () => {
    renderApp('/countries', new FakeServer({ countries: [] }));
    expect(await screen.findByText('No Data Available')).toBeInTheDocument();
    expect(screen.getByText('0-0 of 0')).toBeInTheDocument();
  });

  it('reports a load error in a red alert with the overview title', async () => {
    const server = new FakeServer().on('GET', '/countries', { status: 500, body: { message: 'Internal error' } });
    renderApp('/countries', server);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading Countries');
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('500'));
  });

  it('remembers filter, sort and page for the session when the overview is left and opened again', async () => {
    const server = new FakeServer({ countries: makeCountries(120) });
    const first = renderApp('/countries', server);
    await screen.findByText('1-50 of 120');
    await first.user.type(screen.getByLabelText('Quick filter'), 'Country{Enter}');
    await first.user.click(screen.getByRole('button', { name: 'Code' }));
    await first.user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('51-100 of 120');
    first.unmount();

    const before = server.requests.length;
    renderApp('/countries', server);
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(screen.getByLabelText('Quick filter')).toHaveValue('Country');
    const again = server.requests.slice(before).find((r) => r.path === '/countries')!.query;
    expect(again.get('search')).toBe('Country');
    expect(again.get('sort')).toBe('cntry_code|asc');
    expect(again.get('page')).toBe('2');
    expect(header('Code')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('selects rows with the checkbox column, all of the page at once', async () => {
    const { user } = renderApp('/countries');
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Select DE' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select FR' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
  });

  it('opens the read-only detail from a row and the edit mode from its Edit button', async () => {
    const { user, location } = renderApp('/countries');
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByText('France'));
    await screen.findByRole('heading', { name: /Country/ });
    expect(location()).toBe('/country/2');
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    await screen.findByText('1-3 of 3');
    const row = screen.getByText('Netherlands').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(location()).toBe('/country/3?mode=edit');
  });

  it('shows New and the row Edit buttons to writers only', async () => {
    const admin = renderApp('/countries');
    await screen.findByText('1-3 of 3');
    expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(3);
    admin.unmount();

    renderApp('/countries', new FakeServer({ session: readerUser }));
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
