import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, readerUser } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

describe('programs', () => {
  it('lists name and short name, sorted by name', async () => {
    const server = new FakeServer();
    renderApp('/programs', server);
    await screen.findByText('1-2 of 2');
    expect(server.lastRequestTo('GET', '/programs')!.query.get('sort')).toBe('name|asc');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(1, 3).map((c) => c.textContent))).toEqual([
      ['Applied Physics', 'AP'],
      ['Data Science', 'DS'],
    ]);
  });

  it('lets a Reader open a program read-only, with no New, Edit or Delete', async () => {
    const { user, location } = renderApp('/programs', new FakeServer({ session: readerUser }));
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
    renderApp('/program/new', new FakeServer({ session: readerUser }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to create a Program.');
  });
});
