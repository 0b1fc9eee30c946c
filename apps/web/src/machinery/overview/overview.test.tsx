import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type ApiStub } from '../../test/api-stub';
import { countryRows, failure, page, readerUser, session, type Row } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const listCalls = (api: ApiStub) => api.sent('GET /countries');
const lastList = (api: ApiStub) => api.last('GET /countries')!.query;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Countries `Country 001` …, ids from `first`. A page of the fixtures holds a few rows whatever range its
 * pagination claims: the web shows the rows and the range it is answered.
 */
function countries(first: number, count: number): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const id = first + i;
    return { id, cntry_code: `C${String.fromCharCode(64 + (id % 26) + 1)}`, cntry_name: `Country ${String(id).padStart(3, '0')}`, edit_timestamp: null };
  });
}

const threeCountries = () => stubApi({ ...session(), 'GET /countries': page(countryRows) });

function header(name: string) {
  return screen.getByRole('button', { name }).closest('th')!;
}

describe('overview', () => {
  it('asks for the first page of 50 by the default sort, and shows the range text and the rows answered', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 50), { total: 120 }) });
    renderApp('/countries', api);
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    expect(await screen.findByText('1-50 of 120')).toBeInTheDocument();
    expect(screen.getByText('Country 001')).toBeInTheDocument();
    const query = lastList(api);
    expect(query.get('sort')).toBe('cntry_name|asc');
    expect(query.get('page')).toBe('1');
    expect(query.get('per_page')).toBe('50');
    expect(query.has('search')).toBe(false);
    // 50 data rows plus the header row.
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(51);
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('keeps a short text on one line, and holds a long one to a readable width of three lines at most, broken inside words without spaces, whole on hover', async () => {
    const long = `Vereinigtes Königreich Großbritannien und Nordirland ${'https://example.org/'.repeat(12)}`;
    const api = stubApi({ ...session(), 'GET /countries': page([{ id: 1, cntry_code: 'GB', cntry_name: long, edit_timestamp: null }]) });
    renderApp('/countries', api);
    const cell = await screen.findByTitle(long);
    expect(cell).toHaveTextContent(long);
    expect(cell).toHaveAttribute('data-line-clamp', 'true');
    expect(cell).toHaveStyle({ overflowWrap: 'anywhere', maxWidth: '50ch' });
    // A short text is written as it is, on one line.
    expect(screen.getByText('GB')).not.toHaveAttribute('title');
    expect(screen.getByText('GB').closest('td')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(cell.closest('td')).not.toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('shows an estimated total as "about", and counts exactly when Count is pressed', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 100_000, estimated: true }) });
    const { user } = renderApp('/countries', api);
    expect(await screen.findByText('1-50 of about 100000')).toBeInTheDocument();
    expect(lastList(api).has('count')).toBe(false);
    api.on('GET /countries', page(countries(1, 3), { total: 100_024 }));
    await user.click(screen.getByRole('button', { name: 'Count' }));
    expect(await screen.findByText('1-50 of 100024')).toBeInTheDocument();
    expect(lastList(api).get('count')).toBe('exact');
    expect(screen.queryByRole('button', { name: 'Count' })).not.toBeInTheDocument();
  });

  it('turns to the next and previous page through the cursors the server links; a new sort starts without one', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 200, next: 'after:3' }) });
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-50 of 200');
    expect(lastList(api).has('cursor')).toBe(false);

    api.on('GET /countries', page(countries(51, 3), { total: 200, current: 2, next: 'after:53', prev: 'before:51' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51-100 of 200')).toBeInTheDocument();
    expect(lastList(api).get('cursor')).toBe('after:3');
    expect(lastList(api).get('page')).toBe('2');

    api.on('GET /countries', page(countries(1, 3), { total: 200, next: 'after:3' }));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('1-50 of 200')).toBeInTheDocument();
    expect(lastList(api).get('cursor')).toBe('before:51');
    expect(lastList(api).get('page')).toBe('1');

    // A sort makes a new list: page 1 again, no cursor of the old one.
    api.on('GET /countries', page(countries(1, 3), { total: 200, next: 'after:9' }));
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_name|desc'));
    expect(lastList(api).has('cursor')).toBe(false);
  });

  it('pages with Next page and Previous page, each disabled at its end', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 120 }) });
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-50 of 120');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    api.on('GET /countries', page(countries(51, 3), { total: 120, current: 2 }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(lastList(api).get('page')).toBe('2');
    expect(screen.getByText('Country 051')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeEnabled();

    api.on('GET /countries', page(countries(101, 3), { total: 120, current: 3 }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('101-120 of 120')).toBeInTheDocument();
    expect(lastList(api).get('page')).toBe('3');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    api.on('GET /countries', page(countries(51, 3), { total: 120, current: 2 }));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(lastList(api).get('page')).toBe('2');
  });

  it('offers First page once past page 2, which goes back to page 1 in one click', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 200 }) });
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-50 of 200');
    expect(screen.queryByRole('button', { name: 'First page' })).not.toBeInTheDocument();
    for (const [first, current] of [[51, 2], [101, 3]] as const) {
      api.on('GET /countries', page(countries(first, 3), { total: 200, current }));
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText(`${first}-${first + 49} of 200`)).toBeInTheDocument();
    }
    api.on('GET /countries', page(countries(1, 3), { total: 200 }));
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(await screen.findByText('1-50 of 200')).toBeInTheDocument();
    expect(lastList(api).get('page')).toBe('1');
    expect(lastList(api).has('cursor')).toBe(false);
    expect(screen.queryByRole('button', { name: 'First page' })).not.toBeInTheDocument();
  });

  it('a page that turns out past the end (rows left the list meanwhile) shows the last page there is', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 80 }) });
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-50 of 80');
    // Meanwhile a batch run took 63 rows out of this list: page 2 is empty, 17 are left on page 1.
    api.on('GET /countries', page([], { total: 17, current: 2 }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    api.on('GET /countries', page(countries(1, 3), { total: 17 }));
    expect(await screen.findByText('1-17 of 17')).toBeInTheDocument();
    expect(lastList(api).get('page')).toBe('1');
    expect(screen.getByText('Country 001')).toBeInTheDocument();
  });

  it('applies the quick filter 500 ms after typing stops, with one request for the whole word', async () => {
    const api = threeCountries();
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-3 of 3');
    await user.type(screen.getByLabelText('Quick filter'), 'ger');
    const typedAt = Date.now();
    await sleep(250);
    expect(listCalls(api).some((r) => r.query.has('search'))).toBe(false);
    await waitFor(() => expect(lastList(api).get('search')).toBe('ger'), { timeout: 2000 });
    // The timer starts at the last keystroke, a moment before `typedAt`.
    expect(api.last('GET /countries')!.at - typedAt).toBeGreaterThanOrEqual(400);
    expect(listCalls(api).filter((r) => r.query.has('search'))).toHaveLength(1);
    // A filter starts again at page 1.
    expect(lastList(api).get('page')).toBe('1');
  });

  it('applies the quick filter at once on Enter, and the clear button removes it', async () => {
    const api = threeCountries();
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-3 of 3');
    const input = screen.getByLabelText('Quick filter');
    await user.type(input, 'fra');
    const enteredAt = Date.now();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastList(api).get('search')).toBe('fra'), { timeout: 480 });
    // Well before the 500 ms the debounce would have waited.
    expect(api.last('GET /countries')!.at - enteredAt).toBeLessThan(480);

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(input).toHaveValue('');
    await waitFor(() => expect(lastList(api).has('search')).toBe(false));
  });

  it('sorts by a clicked column alone and adds shift-clicked columns as further keys', async () => {
    const api = threeCountries();
    const { user } = renderApp('/countries', api);
    await screen.findByText('1-3 of 3');

    // The button fills its header cell: a click beside a short title in a wide column sorts too.
    expect(screen.getByRole('button', { name: 'Code' })).toHaveStyle({ width: '100%' });
    await user.click(screen.getByRole('button', { name: 'Code' }));
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_code|asc'));
    expect(header('Code')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');
    expect(header('Code')).toHaveTextContent('Code▲');

    await user.click(screen.getByRole('button', { name: 'Code' }));
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_code|desc'));
    expect(header('Code')).toHaveAttribute('aria-sort', 'descending');

    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.keyboard('{/Shift}');
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_code|desc,cntry_name|asc'));

    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.keyboard('{/Shift}');
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_code|desc,cntry_name|desc'));
    expect(header('Code')).toHaveTextContent('Code▼1');
    expect(header('Name')).toHaveTextContent('Name▼2');
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    // A plain click starts over with that column alone.
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(lastList(api).get('sort')).toBe('cntry_name|asc'));
    expect(header('Name')).toHaveTextContent('Name▲');
    expect(header('Name')).not.toHaveTextContent('▲1');
  });

  it('shows No Data Available for an empty list', async () => {
    renderApp('/countries', stubApi({ ...session(), 'GET /countries': page([]) }));
    expect(await screen.findByText('No Data Available')).toBeInTheDocument();
    expect(screen.getByText('0-0 of 0')).toBeInTheDocument();
  });

  it('reports a load error in a red alert with the overview title, and logs the failure', async () => {
    renderApp('/countries', stubApi({ ...session(), 'GET /countries': failure(500, 'Internal error') }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading Countries');
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('500'));
  });

  it('says nothing of "No Data Available" while the list failed to load, and Retry asks again', async () => {
    const api = stubApi({ ...session(), 'GET /countries': failure(500, 'Internal error') });
    const { user } = renderApp('/countries', api);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error loading Countries');
    expect(screen.queryByText('No Data Available')).not.toBeInTheDocument();
    api.on('GET /countries', page(countryRows));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Germany')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('scrolls a wide table sideways in its own box, the selection and row buttons staying in sight at either end', async () => {
    renderApp('/countries', threeCountries());
    await screen.findByText('Germany');
    const table = screen.getByRole('table', { name: 'Countries' });
    const box = screen.getByTestId('overview-scroll');
    expect(box).toContainElement(table);
    expect(box).toHaveStyle({ overflow: 'auto' });
    const [head, firstRow] = within(table).getAllByRole('row');
    const selectCells = [head!.firstElementChild!, firstRow!.firstElementChild!];
    for (const cell of selectCells) expect(cell).toHaveStyle({ position: 'sticky', left: '0px' });
    for (const cell of [head!.lastElementChild!, firstRow!.lastElementChild!]) expect(cell).toHaveStyle({ position: 'sticky', right: '0px' });
    expect(within(firstRow!).getByRole('button', { name: 'Edit' }).closest('td')).toBe(firstRow!.lastElementChild);
  });

  it('on a phone only the selection stays in sight: the row buttons scroll with their row, leaving the width to the data', async () => {
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...wide(query), matches: query.includes('max-width: 48em') })) as typeof window.matchMedia;
    try {
      renderApp('/countries', threeCountries());
      await screen.findByText('Germany');
      const [head, firstRow] = within(screen.getByRole('table', { name: 'Countries' })).getAllByRole('row');
      for (const cell of [head!.firstElementChild!, firstRow!.firstElementChild!]) expect(cell).toHaveStyle({ position: 'sticky', left: '0px' });
      await waitFor(() => expect(firstRow!.lastElementChild).not.toHaveStyle({ position: 'sticky' }));
      expect(head!.lastElementChild).not.toHaveStyle({ position: 'sticky' });
      expect(within(firstRow!).getByRole('button', { name: 'Edit' }).closest('td')).toBe(firstRow!.lastElementChild);
    } finally {
      window.matchMedia = wide;
    }
  });

  it('remembers filter, sort and page for the session when the overview is left and opened again', async () => {
    const api = stubApi({ ...session(), 'GET /countries': page(countries(1, 3), { total: 120 }) });
    const first = renderApp('/countries', api);
    await screen.findByText('1-50 of 120');
    await first.user.type(screen.getByLabelText('Quick filter'), 'Country{Enter}');
    await first.user.click(screen.getByRole('button', { name: 'Code' }));
    api.on('GET /countries', page(countries(51, 3), { total: 120, current: 2 }));
    await first.user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('51-100 of 120');
    first.unmount();

    const before = api.requests.length;
    renderApp('/countries', api);
    expect(await screen.findByText('51-100 of 120')).toBeInTheDocument();
    expect(screen.getByLabelText('Quick filter')).toHaveValue('Country');
    const again = api.requests.slice(before).find((r) => r.path === '/countries')!.query;
    expect(again.get('search')).toBe('Country');
    expect(again.get('sort')).toBe('cntry_code|asc');
    expect(again.get('page')).toBe('2');
    expect(header('Code')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('selects rows with the checkbox column, all of the page at once', async () => {
    const { user } = renderApp('/countries', threeCountries());
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
    const api = threeCountries()
      .on('GET /countries/2', { body: countryRows[1] })
      .on('GET /countries/3', { body: countryRows[2] });
    const { user, location } = renderApp('/countries', api);
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
    const admin = renderApp('/countries', threeCountries());
    await screen.findByText('1-3 of 3');
    expect(screen.getByRole('button', { name: 'New' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(3);
    admin.unmount();

    renderApp('/countries', stubApi({ ...session(readerUser), 'GET /countries': page(countryRows) }));
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
