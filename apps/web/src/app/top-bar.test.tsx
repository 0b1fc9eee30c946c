import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub';
import { developerUser, page, plainUser, readerUser, session } from '../test/fixtures';
import { renderApp } from '../test/render-app';

const universities = page([{ id: 1, name: 'Technical University of Munich', shortname: 'TUM', edit_timestamp: null }]);

describe('top bar', () => {
  it('shows name, role, version, brand link and the menus of an administrator', async () => {
    const { user, location } = renderApp('/', stubApi({ ...session(), 'GET /universities': universities }));
    expect(await screen.findByText('Ada Lovelace (Administrator)')).toBeInTheDocument();
    expect(screen.getByText('v2.0.51')).toBeInTheDocument();
    for (const menu of ['Manage', 'Students', 'Invoicing', 'Payments']) {
      expect(screen.getByRole('button', { name: menu })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
    expect(items).toEqual([
      'Countries',
      'Programs',
      'Universities',
      'Student Fees',
      'Milestones',
      'Configuration',
      'Users',
      'Outbox',
      'Log Events',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Universities' }));
    expect(await screen.findByRole('heading', { name: 'Universities' })).toBeInTheDocument();
    expect(await screen.findByText('Technical University of Munich')).toBeInTheDocument();
    expect(location()).toBe('/universities');

    await user.click(screen.getByRole('link', { name: 'Scholarship Office' }));
    expect(location()).toBe('/');
  });

  it('links the Invoicing and Payments screens', async () => {
    const { user, location } = renderApp('/', stubApi(session()));
    await user.click(await screen.findByRole('button', { name: 'Invoicing' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      'Planned Invoices',
      'Numbered Invoices',
      'Credit Notes',
      'Invoice Payments',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Credit Notes' }));
    expect(location()).toBe('/invoices/creditnote');
    await user.click(screen.getByRole('button', { name: 'Payments' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Numbered Scholarship Payments' }));
    expect(location()).toBe('/scholarshippayments/numbered');
  });

  it('hides the Manage menu below Administrator but keeps Log Events for everyone', async () => {
    const { user, location } = renderApp('/', stubApi({ ...session(readerUser), 'GET /logging': page([]) }));
    expect(await screen.findByText('Rita Reader (Reader)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Students' })).toBeInTheDocument();
    await user.click(screen.getAllByRole('link', { name: 'Log Events' })[0]!);
    expect(location()).toBe('/events');
    expect(await screen.findByRole('heading', { name: 'Log Events' })).toBeInTheDocument();
  });

  it('on a narrow screen, the burger opens a drawer with the user, the version, Logout and the menus of the role', async () => {
    // jsdom applies no CSS: the burger is there at any width, and a closed drawer renders nothing.
    const { user, location } = renderApp('/', stubApi({ ...session(readerUser), 'POST /auth/logout': { status: 204 } }));
    expect(screen.queryByRole('dialog', { name: 'Navigation' })).not.toBeInTheDocument();
    const burger = await screen.findByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await user.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    const drawer = await screen.findByRole('dialog', { name: 'Navigation' });
    expect(within(drawer).getByText('Rita Reader (Reader)')).toBeInTheDocument();
    expect(within(drawer).getByText('v2.0.51')).toBeInTheDocument();
    const nav = within(drawer).getByRole('navigation', { name: 'Main' });
    // No Manage menu below Administrator; Log Events on its own.
    expect(within(nav).getAllByRole('group')).toHaveLength(4);
    for (const menu of ['Students', 'Invoicing', 'Payments', 'Log']) expect(within(nav).getByRole('group', { name: menu })).toBeInTheDocument();
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Students Overview',
      'Contracts Overview',
      'Planned Invoices',
      'Numbered Invoices',
      'Credit Notes',
      'Invoice Payments',
      'Planned Scholarship Payments',
      'Numbered Scholarship Payments',
      'Scholarship Overview',
      'Log Events',
    ]);

    await user.click(within(nav).getByRole('link', { name: 'Contracts Overview' }));
    expect(location()).toBe('/contracts');
    expect(screen.queryByRole('dialog', { name: 'Navigation' })).not.toBeInTheDocument();

    await user.click(burger);
    await user.click(within(await screen.findByRole('dialog', { name: 'Navigation' })).getByRole('button', { name: 'Logout' }));
    await vi.waitFor(() => expect(location()).toBe('/login'));
  });

  it('lets only Developers and Administrators open /config', async () => {
    const asUser = renderApp('/config', stubApi(session(plainUser)));
    expect(await screen.findByText('Bob User (User)')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('not allowed');
    expect(screen.queryByRole('heading', { name: 'Configuration' })).not.toBeInTheDocument();
    asUser.unmount();

    renderApp('/config', stubApi(session(developerUser)));
    expect(await screen.findByRole('heading', { name: 'Configuration' })).toBeInTheDocument();
  });
});
