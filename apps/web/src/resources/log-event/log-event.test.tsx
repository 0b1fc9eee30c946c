import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@app/contracts';
import { adminUser, FakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const developer: SessionUser = { ...adminUser, id: 5, usr_name: 'Dev Eloper', usr_role_id: 1, userrole_name: 'Developer' };
const lastList = (server: FakeServer) => server.lastRequestTo('GET', '/logging')!.query;
const filterForm = () => screen.getByRole('form', { name: 'Advanced filter' });
const dataRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('log events overview', () => {
  it('lists time, type, message, student, contract and user, newest first', async () => {
    const server = new FakeServer();
    renderApp('/events', server);
    expect(await screen.findByRole('heading', { name: 'Log Events' })).toBeInTheDocument();
    await screen.findByText('1-3 of 3');
    expect(lastList(server).get('sort')).toBe('le_time|desc');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 7)).toEqual(['Time▼', 'Event Type', 'Message', 'Student', 'Contract', 'User']);
    expect(dataRows().map((r) => within(r).getAllByRole('cell').slice(1, 4).map((c) => c.textContent))).toEqual([
      ['02-05-2024 11:30', 'Login', 'Login of "rita"'],
      ['01-05-2024 10:05', 'Create', 'Created Country "DE"'],
      ['01-05-2024 10:00', 'Login', 'Login of "ada"'],
    ]);
  });

  it('has no New and no row Edit, and its rows open nothing, even for a developer', async () => {
    const { user, location } = renderApp('/events', new FakeServer({ session: developer }));
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('table')).queryAllByRole('link')).toHaveLength(0);
    await user.click(screen.getByText('Login of "rita"'));
    expect(location()).toBe('/events');
  });

  it('filters by user, event type and an event time date range (YYYY-MM-DD parameters)', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/events', server);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = filterForm();
    await user.type(within(form).getByLabelText('Event Time from'), '01-05-2024');
    await user.type(within(form).getByLabelText('Event Time to'), '01-05-2024{Enter}');
    await waitFor(() => expect(lastList(server).get('le_time_from')).toBe('2024-05-01'));
    expect(lastList(server).get('le_time_to')).toBe('2024-05-01');
    expect(await screen.findByText('1-2 of 2')).toBeInTheDocument();

    await user.click(within(form).getByRole('combobox', { name: /^User/ }));
    await user.click(await screen.findByRole('option', { name: 'Ada Lovelace' }));
    await user.click(within(form).getByRole('combobox', { name: /^Event Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Create' }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(lastList(server).get('eventtype_id')).toBe('4'));
    expect(lastList(server).get('usr_id')).toBe('1');
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
  });

  it('filters by student, chosen from the students list (student_id)', async () => {
    const server = new FakeServer();
    server.tables.logging![1] = { ...server.tables.logging![1]!, student_id: 2, student_name: 'Mia Schmidt' };
    const { user } = renderApp('/events', server);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(filterForm()).getByRole('combobox', { name: /^Student/ }));
    await user.click(await screen.findByRole('option', { name: 'Schmidt, Mia' }));
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(lastList(server).get('student_id')).toBe('2'));
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    expect(screen.getByText('Created Country "DE"')).toBeInTheDocument();
  });

  it('refuses a range whose start is after its end', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/events', server);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.type(within(filterForm()).getByLabelText('Event Time from'), '02-05-2024');
    await user.type(within(filterForm()).getByLabelText('Event Time to'), '01-05-2024{Enter}');
    expect(await screen.findByText('The start date is after the end date')).toBeInTheDocument();
    expect(lastList(server).has('le_time_from')).toBe(false);
  });

  it('has no detail screen', async () => {
    renderApp('/event/1');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
