import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type ApiStub } from '../../test/api-stub';
import { choiceList, countryRows, page, scholarships, SEEN, session } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const lastList = (api: ApiStub) => api.last('GET /milestones')!.query;
const filterForm = () => screen.getByRole('form', { name: 'Advanced filter' });
const FILTER_KEYS = ['intake', 'scholarship_type', 'scholarship_id', 'year'];
const sentFilters = (query: URLSearchParams) =>
  Object.fromEntries(FILTER_KEYS.filter((k) => query.has(k)).map((k) => [k, query.get(k)]));

const milestones = [
  { id: 1, intake: 2024, scholarship_id: 1, scholarship_code: 'EMJM-A', year: 1, milestone_date: '2024-10-01', milestone_amount: 500, edit_timestamp: SEEN },
  { id: 2, intake: 2025, scholarship_id: 2, scholarship_code: 'EMJM-B', year: 2, milestone_date: null, milestone_amount: 0, edit_timestamp: SEEN },
];

function milestoneApi() {
  return stubApi({
    ...session(),
    'GET /milestones': page(milestones),
    ...choiceList('scholarships', scholarships),
    ...choiceList('scholarships_type', [
      { id: 'Erasmus Mundus', name: 'Erasmus Mundus' },
      { id: 'National', name: 'National' },
    ]),
  });
}

async function choose(user: ReturnType<typeof renderApp>['user'], label: RegExp, option: string) {
  await user.click(within(filterForm()).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('advanced filter card', () => {
  it('is offered only where the overview declares filters', async () => {
    const countries = renderApp('/countries', stubApi({ ...session(), 'GET /countries': page(countryRows) }));
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('checkbox', { name: 'Advanced' })).not.toBeInTheDocument();
    countries.unmount();

    renderApp('/milestones', milestoneApi());
    await screen.findByText('1-2 of 2');
    expect(screen.getByRole('checkbox', { name: 'Advanced' })).not.toBeChecked();
    expect(screen.queryByRole('form', { name: 'Advanced filter' })).not.toBeInTheDocument();
  });

  it('opens with the Advanced checkbox; Enter in a field applies the filter as query parameters, from page 1', async () => {
    const api = milestoneApi();
    const { user } = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = filterForm();
    expect(within(form).getAllByRole('combobox')).toHaveLength(3);
    expect(within(form).getByLabelText('Intake')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Intake'), '2024{Enter}');
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({ intake: '2024' }));
    expect(lastList(api).get('page')).toBe('1');
  });

  it('sends choice values as they are (type text, scholarship id, year) with the Filter button, not before', async () => {
    const api = milestoneApi();
    const { user } = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await choose(user, /^Scholarship type/, 'Erasmus Mundus');
    await choose(user, /^Scholarship$/, 'EMJM-B');
    await choose(user, /^Year/, '2');
    expect(sentFilters(lastList(api))).toEqual({});
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(sentFilters(lastList(api))).toEqual({ scholarship_type: 'Erasmus Mundus', scholarship_id: '2', year: '2' }),
    );
  });

  it('remembers the open card and its filters for the session, and Reset clears them', async () => {
    const api = milestoneApi();
    const first = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    await first.user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await first.user.type(within(filterForm()).getByLabelText('Intake'), '2025');
    await choose(first.user, /^Year/, '2');
    await first.user.keyboard('{Enter}');
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({ intake: '2025', year: '2' }));
    first.unmount();

    const before = api.requests.length;
    const { user } = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    const again = api.requests.slice(before).find((r) => r.path === '/milestones')!.query;
    expect(sentFilters(again)).toEqual({ intake: '2025', year: '2' });
    expect(screen.getByRole('checkbox', { name: 'Advanced' })).toBeChecked();
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('2025');
    expect(within(filterForm()).getByRole('combobox', { name: /^Year/ })).toHaveValue('2');

    await user.click(within(filterForm()).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({}));
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('');
    expect(within(filterForm()).getByRole('combobox', { name: /^Year/ })).toHaveValue('');
  });

  it('stops sending the filters while the card is closed, and sends them again when it reopens', async () => {
    const api = milestoneApi();
    const { user } = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.type(within(filterForm()).getByLabelText('Intake'), '2024{Enter}');
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({ intake: '2024' }));

    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    expect(screen.queryByRole('form', { name: 'Advanced filter' })).not.toBeInTheDocument();
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({}));

    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await waitFor(() => expect(sentFilters(lastList(api))).toEqual({ intake: '2024' }));
    expect(within(filterForm()).getByLabelText('Intake')).toHaveValue('2024');
  });

  it('keeps the quick filter working beside the advanced filters', async () => {
    const api = milestoneApi();
    const { user } = renderApp('/milestones', api);
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await choose(user, /^Year/, '1');
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await user.type(screen.getByLabelText('Quick filter'), 'EMJM{Enter}');
    await waitFor(() => expect(lastList(api).get('search')).toBe('EMJM'));
    expect(sentFilters(lastList(api))).toEqual({ year: '1' });
  });
});
