import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@app/contracts';
import { stubApi, type ApiStub } from '../../test/api-stub';
import { choiceList, developerUser, page, session, type Row } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const lastList = (api: ApiStub) => api.last('GET /logging')!.query;
const filterForm = () => screen.getByRole('form', { name: 'Advanced filter' });
const dataRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

function logEvent(id: number, time: string, typeId: number, message: string, userName: string): Row {
  return {
    id,
    le_time: time,
    eventtype_id: typeId,
    eventtype: EVENT_TYPES.find((t) => t.id === typeId)!.name,
    le_message: message,
    student_id: null,
    student_name: null,
    contract_id: null,
    le_contract: null,
    usr_id: 1,
    usr_name: userName,
    changes: null,
  };
}

const events = [
  logEvent(3, '2024-05-02T09:30:00.000Z', 1, 'Login of "rita"', 'Rita Reader'),
  logEvent(2, '2024-05-01T08:05:00.000Z', 4, 'Created Country "DE"', 'Ada Lovelace'),
  logEvent(1, '2024-05-01T08:00:00.000Z', 1, 'Login of "ada"', 'Ada Lovelace'),
];

function logApi(user = session()) {
  return stubApi({
    ...user,
    'GET /logging': page(events),
    ...choiceList('students', [
      { id: 1, name: 'Müller, José' },
      { id: 2, name: 'Schmidt, Mia' },
    ]),
    ...choiceList('users', [
      { id: 1, name: 'Ada Lovelace' },
      { id: 4, name: 'Rita Reader' },
    ]),
    ...choiceList('contracts', [{ id: 7, name: 'A000007 Schmidt, Mia' }]),
    ...choiceList('logging_types', EVENT_TYPES.map((t) => ({ id: t.id, name: t.name }))),
  });
}

describe('log events overview', () => {
  it('lists time, type, message, student, contract and user, asked newest first', async () => {
    const api = logApi();
    renderApp('/events', api);
    expect(await screen.findByRole('heading', { name: 'Log Events' })).toBeInTheDocument();
    await screen.findByText('1-3 of 3');
    expect(lastList(api).get('sort')).toBe('le_time|desc');
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 7)).toEqual(['Time▼', 'Event Type', 'Message', 'Student', 'Contract', 'User']);
    expect(dataRows().map((r) => within(r).getAllByRole('cell').slice(1, 4).map((c) => c.textContent))).toEqual([
      ['02-05-2024 11:30', 'Login', 'Login of "rita"'],
      ['01-05-2024 10:05', 'Create', 'Created Country "DE"'],
      ['01-05-2024 10:00', 'Login', 'Login of "ada"'],
    ]);
  });

  it('has no New and no row Edit, and its rows open nothing, even for a developer', async () => {
    const { user, location } = renderApp('/events', logApi(session(developerUser)));
    await screen.findByText('1-3 of 3');
    expect(screen.queryByRole('button', { name: 'New' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('table')).queryAllByRole('link')).toHaveLength(0);
    await user.click(screen.getByText('Login of "rita"'));
    expect(location()).toBe('/events');
  });

  it('sends the event time range as YYYY-MM-DD `_from` / `_to` parameters, and user and event type as ids', async () => {
    const api = logApi();
    const { user } = renderApp('/events', api);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    const form = filterForm();
    await user.type(within(form).getByLabelText('Event Time from'), '01-05-2024');
    await user.type(within(form).getByLabelText('Event Time to'), '01-05-2024{Enter}');
    await waitFor(() => expect(lastList(api).get('le_time_from')).toBe('2024-05-01'));
    expect(lastList(api).get('le_time_to')).toBe('2024-05-01');

    await user.click(within(form).getByRole('combobox', { name: /^User/ }));
    await user.click(await screen.findByRole('option', { name: 'Ada Lovelace' }));
    await user.click(within(form).getByRole('combobox', { name: /^Event Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Create' }));
    await user.click(within(form).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(lastList(api).get('eventtype_id')).toBe('4'));
    expect(lastList(api).get('usr_id')).toBe('1');
  });

  it('filters by student, chosen from the students list (student_id)', async () => {
    const api = logApi();
    const { user } = renderApp('/events', api);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(filterForm()).getByRole('combobox', { name: /^Student/ }));
    await user.click(await screen.findByRole('option', { name: 'Schmidt, Mia' }));
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(lastList(api).get('student_id')).toBe('2'));
  });

  it('filters by contract, chosen from the contracts list (contract_id): the events of its invoices and payments too', async () => {
    const api = logApi();
    const { user } = renderApp('/events', api);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.click(within(filterForm()).getByRole('combobox', { name: /^Contract/ }));
    await user.click(await screen.findByRole('option', { name: 'A000007 Schmidt, Mia' }));
    await user.click(within(filterForm()).getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(lastList(api).get('contract_id')).toBe('7'));
  });

  it('refuses a range whose start is after its end, and sends nothing', async () => {
    const api = logApi();
    const { user } = renderApp('/events', api);
    await screen.findByText('1-3 of 3');
    await user.click(screen.getByRole('checkbox', { name: 'Advanced' }));
    await user.type(within(filterForm()).getByLabelText('Event Time from'), '02-05-2024');
    await user.type(within(filterForm()).getByLabelText('Event Time to'), '01-05-2024{Enter}');
    expect(await screen.findByText('The start date is after the end date')).toBeInTheDocument();
    expect(lastList(api).has('le_time_from')).toBe(false);
  });

  it('has no detail screen', async () => {
    renderApp('/event/1', logApi());
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
