import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource } from '@app/contracts';
import { stubApi } from '../test/api-stub';
import { page, SEEN, session } from '../test/fixtures';
import { renderRoutes } from '../test/render-app';
import { defineFields } from './fields/types';
import { defineResourceUi } from './resource-ui';

/** A resource made for this test: two views over one list, and rules that depend on the record. */
const widgetResource = defineResource({
  key: 'widget',
  title: 'Widget',
  titlePlural: 'Widgets',
  apiPath: 'widgets',
  routes: { overview: '/widgets', detail: '/widget' },
  schema: z.object({ id: z.number(), number: z.string().nullable(), name: z.string(), amount: z.number(), locked: z.boolean(), edit_timestamp: z.string() }),
  createSchema: z.object({ name: z.string().min(1), amount: z.number() }),
  updateSchema: z.object({ id: z.number(), name: z.string().min(1).optional(), amount: z.number().optional() }),
  filterSchema: z.object({ planned: z.enum(['true', 'false']).optional(), numbered: z.enum(['true', 'false']).optional() }),
  sortable: ['number', 'name', 'amount'],
  defaultSort: [{ field: 'name', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: 'name',
  columns: [
    { field: 'number', title: 'Number' },
    { field: 'name', title: 'Name' },
    { field: 'amount', title: 'Amount', format: 'money' },
  ],
  views: [
    {
      key: 'planned',
      title: 'Planned Widgets',
      titleSingular: 'Planned Widget',
      routes: { overview: '/widgets/planned', detail: '/widget/planned' },
      fixedFilter: { planned: 'true' },
      columns: ['name', 'amount'],
    },
    {
      key: 'numbered',
      title: 'Numbered Widgets',
      titleSingular: 'Numbered Widget',
      routes: { overview: '/widgets/numbered', detail: '/widget/numbered' },
      fixedFilter: { numbered: 'true' },
      defaultSort: [{ field: 'number', direction: 'desc' }],
    },
  ],
  rules: {
    readOnlyFields: (row): Record<string, string> => (row.locked ? { amount: 'A numbered widget keeps its amount' } : {}),
    cannotDelete: (row) => (row.locked ? 'A numbered widget cannot be deleted' : null),
  },
});

const widgetUi = defineResourceUi({
  descriptor: widgetResource,
  fields: defineFields(widgetResource, [
    { name: 'name', label: 'Name', kind: 'text' },
    { name: 'amount', label: 'Amount', kind: 'money' },
  ]),
});

const planned = { id: 1, number: null, name: 'Gear', amount: 12.5, locked: false, edit_timestamp: SEEN };
const numbered = { id: 2, number: '2026-00001', name: 'Cog', amount: 40, locked: true, edit_timestamp: SEEN };

function renderWidgets(path: string) {
  const api = stubApi({ ...session(), 'GET /widgets': page([planned, numbered]), 'GET /widgets/1': { body: planned }, 'GET /widgets/2': { body: numbered } });
  return renderRoutes(widgetUi.routes, path, api);
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼\d]/g, '')).filter((t) => t !== 'Actions');

describe('views: several overviews and details over one resource', () => {
  it('gives each view its route, title, columns, default sort and fixed filter', async () => {
    const { api } = renderWidgets('/widgets/planned');
    expect(await screen.findByRole('heading', { name: 'Planned Widgets' })).toBeInTheDocument();
    await screen.findByText('1-2 of 2');
    expect(headers().filter(Boolean)).toEqual(['Name', 'Amount']);
    const query = api.last('GET /widgets')!.query;
    expect(query.get('planned')).toBe('true');
    expect(query.get('numbered')).toBeNull();
    expect(query.get('sort')).toBe('name|asc');
  });

  it('the second view asks with its own filter and sort and shows every column', async () => {
    const { api } = renderWidgets('/widgets/numbered');
    expect(await screen.findByRole('heading', { name: 'Numbered Widgets' })).toBeInTheDocument();
    await screen.findByText('1-2 of 2');
    expect(headers().filter(Boolean)).toEqual(['Number', 'Name', 'Amount']);
    expect(api.last('GET /widgets')!.query.get('numbered')).toBe('true');
    expect(api.last('GET /widgets')!.query.get('sort')).toBe('number|desc');
  });

  it('remembers the quick filter per view', async () => {
    const { router, user, api } = renderWidgets('/widgets/planned');
    await screen.findByText('1-2 of 2');
    await user.type(screen.getByRole('textbox', { name: 'Quick filter' }), 'gear{Enter}');
    await waitFor(() => expect(api.last('GET /widgets')!.query.get('search')).toBe('gear'));
    await router.navigate('/widgets/numbered');
    expect(await screen.findByRole('heading', { name: 'Numbered Widgets' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Quick filter' })).toHaveValue('');
    await router.navigate('/widgets/planned');
    expect(await screen.findByRole('heading', { name: 'Planned Widgets' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Quick filter' })).toHaveValue('gear');
  });

  it('opens a row in the detail of its view, titled by it, and goes back to that view', async () => {
    const { router, user } = renderWidgets('/widgets/numbered');
    await screen.findByText('1-2 of 2');
    await user.click(screen.getByRole('link', { name: '2026-00001' }));
    expect(await screen.findByRole('heading', { name: /^Numbered Widget/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/widget/numbered/2');
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    expect(router.state.location.pathname).toBe('/widgets/numbered');
  });
});

describe('rules of the record on the detail screen', () => {
  it('show a field the record keeps read-only as such, with the reason, and send nothing for it', async () => {
    const { user } = renderWidgets('/widget/numbered/2?mode=edit');
    const amount = await screen.findByLabelText(/^Amount/);
    expect(amount).toHaveAttribute('readonly');
    expect(screen.getByText('A numbered widget keeps its amount')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('readonly');
    await user.clear(screen.getByLabelText(/^Name/));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('disable Delete with the reason where the record cannot be deleted', async () => {
    renderWidgets('/widget/numbered/2');
    const remove = await screen.findByRole('button', { name: 'Delete' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('A numbered widget cannot be deleted');
  });

  it('leave an unlocked record editable and deletable', async () => {
    renderWidgets('/widget/planned/1?mode=edit');
    expect(await screen.findByLabelText(/^Amount/)).not.toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(within(screen.getByRole('form', { name: 'Planned Widget' })).queryByText('A numbered widget keeps its amount')).not.toBeInTheDocument();
  });
});

describe('the History of a record', () => {
  it('lists the record’s events newest first, with who and the values before and after, once opened', async () => {
    const { api, user } = renderWidgets('/widget/planned/1');
    api.on('GET /logging', page([
      { id: 9, le_time: '2024-06-02T08:00:00.000Z', eventtype_id: 5, eventtype: 'Update', le_message: 'Updated Widget "Gear": amount 10 → 12.5', student_id: null, student_name: null, contract_id: null, le_contract: null, usr_id: 1, usr_name: 'Ada Admin', changes: { amount: { old: 10, new: 12.5 } } },
      { id: 3, le_time: '2024-06-01T08:00:00.000Z', eventtype_id: 4, eventtype: 'Create', le_message: 'Created Widget "Gear"', student_id: null, student_name: null, contract_id: null, le_contract: null, usr_id: 2, usr_name: 'Bob User', changes: null },
    ]));
    await screen.findByLabelText(/^Amount/);
    expect(api.sent('GET /logging')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'History' }));
    const history = await screen.findByRole('table', { name: 'History' });
    // The events are the outer table's rows; the changes of an event are a table of their own inside it.
    const rows = [...history.querySelectorAll<HTMLElement>(':scope > tbody > tr')];
    expect(rows.map((r) => r.children[1]!.textContent)).toEqual(['Ada Admin', 'Bob User']);
    expect(within(rows[0]!).getByText('Updated Widget "Gear": amount 10 → 12.5')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('12.5')).toBeInTheDocument();
    const query = api.last('GET /logging')!.query;
    expect([query.get('resource'), query.get('record_id'), query.get('sort')]).toEqual(['widget', '1', 'le_time|desc']);
  });
});
