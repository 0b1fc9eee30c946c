import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub';
import { page, readerUser, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const programs = [
  { id: 2, name: 'Applied Physics', shortname: 'AP', edit_timestamp: SEEN },
  { id: 1, name: 'Data Science', shortname: 'DS', edit_timestamp: SEEN },
];

describe('programs', () => {
  it('lists name and short name, asked by name', async () => {
    const api = stubApi({ ...session(), 'GET /programs': page(programs) });
    renderApp('/programs', api);
    await screen.findByText('1-2 of 2');
    expect(api.last('GET /programs')!.query.get('sort')).toBe('name|asc');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(1, 3).map((c) => c.textContent))).toEqual([
      ['Applied Physics', 'AP'],
      ['Data Science', 'DS'],
    ]);
  });

  it('lets a Reader open a program read-only, with no New, Edit or Delete', async () => {
    const api = stubApi({ ...session(readerUser), 'GET /programs': page(programs), 'GET /programs/1': { body: programs[1] } });
    const { user, location } = renderApp('/programs', api);
    await screen.findByText('1-2 of 2');
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Data Science' }));
    expect(location()).toBe('/program/1');
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue('Data Science'));
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('refuses a Reader the new-record screen', async () => {
    renderApp('/program/new', stubApi(session(readerUser)));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to create a Program.');
  });
});
