import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const lastList = (server: FakeServer, path = '/milestones') => server.lastRequestTo('GET', path)!.query;
const filterForm = () => screen.getByRole('form', { name: 'Advanced filter' });
const FILTER_KEYS = ['intake', 'scholarship_type', 'scholarship_id', 'year'];
const sentFilters = (query: URLSearchParams) =>
  Object.fromEntries(FILTER_KEYS.filter((k) => query.has(k)).map((k) => [k, query.get(k)]));

async function choose(user: ReturnType<typeof renderApp>['user'], label: RegExp, option: string) {
  await user.click(within(filterForm()).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('advanced filter card', () => {
  it('is offered only where the overview declares filters', async () => {
    const countries = renderApp('/countries');
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('checkbox', { name: 'Advanced' })).not.toBeInTheDocument();
    countries.unmount();

    renderApp('/milestones');
    await screen.findByText('1-2 of 2');
    expect(screen.getByRole('checkbox', { name: 'Advanced' })).not.toBeChecked();
    expect(screen.queryByRole('form', { name: 'Advanced filter' })).not.toBeInTheDocument();
  });

  it('opens with the Advanced checkbox; Enter in a field applies the filter as query parameters', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/milestones', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = filterForm();
    expect(within(form).getAllByRole('combobox')).toHaveLength(3);
    expect(within(form).getByLabelText('Intake')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Intake'), '2024{Enter}');
    await waitFor(() => expect(sentFilters(lastList(server))).toEqual({ intake: '2024' }));
    expect(lastList(server).get('page')).toBe('1');
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
  });

  it('sends choice values as they are (type text, scholarship id, year) with the Filter button', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/milestones', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await choose(user, /^Scholarship type/, 'Erasmus Mundus');
    await choose(user, /^Scholarship$/, 'EMJM-B');
    await choose(user, /^Year/, '2');
    // Choosing does not filter yet.
    expect(sentFilters(lastList(server))).toEqual({});
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(sentFilters(lastList(server))).toEqual({ scholarship_type: 'Erasmus Mundus', scholarship_id: '2', year: '2' }),
    );
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
  });

  it('remembers the open card and its filters for the session, and Reset clears them', async () => {
    const server = new FakeServer();
    const first = renderApp('/milestones', server);
    await screen.findByText('1-2 of 2');
    await first.user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await first.user.type(within(filterForm()).getByLabelText('Intake'), '2025');
    await choose(first.user, /^Year/, '2');
    await first.user.keyboard('{Enter}');
    await waitFor(() => expect(sentFilters(lastList(server))).toEqual({ intake: '2025', year: '2' }));
    first.unmount();

    const before = server.requests.length;
    const { user } = renderApp('/milestones', server);
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    const again = server.requests.slice(before).find((r) => r.path === '/milestones')!.query;
    expect(sentFilters(again)).toEqual({ intake: '2025', year: '2' });
    expect(screen.getByRole('checkbox', { name: 'Advanced' })).toBeChecked();
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('2025');
    expect(within(filterForm()).getByRole('combobox', { name: /^Year/ })).toHaveValue('2');

    await user.click(within(filterForm()).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(sentFilters(lastList(server))).toEqual({}));
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('');
    expect(await screen.findByText('1-2 of 2')).toBeInTheDocument();
  });

  it('stops applying the filters while the card is closed, and applies them again when it reopens', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/milestones', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.type(within(filterForm()).getByLabelText('Intake'), '2024{Enter}');
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    expect(screen.queryByRole('form', { name: 'Advanced filter' })).not.toBeInTheDocument();
    expect(await screen.findByText('1-2 of 2')).toBeInTheDocument();
    expect(sentFilters(lastList(server))).toEqual({});

    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('2024');
  });

  it('keeps the quick filter working beside the advanced filters', async () => {
    const server = new FakeServer();
    const { user } = renderApp('/milestones', server);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await choose(user, /^Year/, '1');
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await user.type(screen.getByLabelText('Quick filter'), 'EMJM{Enter}');
    await waitFor(() => expect(lastList(server).get('search')).toBe('EMJM'));
    expect(sentFilters(lastList(server))).toEqual({ year: '1' });
  });
});
