import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineAction, defineResource } from '@app/contracts';
import { stubApi, type Answers } from '../../test/api-stub';
import { failure, page, SEEN, session } from '../../test/fixtures';
import { renderRoutes } from '../../test/render-app';
import { defineFields } from '../fields/types';
import { defineResourceUi } from '../resource-ui';

const LATER = '2024-06-01T09:00:00.000Z';

/** A resource made for this test: planned and numbered views, and actions of each kind the detail screen draws. */
const numberIt = defineAction({
  name: 'number_it',
  label: 'Number it',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'user',
  views: ['planned'],
  offeredWhen: (row) => (row.number ? 'Already numbered' : null),
});

const STATES = ['new', 'open', 'closed'] as const;
const setState = defineAction({
  name: 'set_state',
  label: 'Change state',
  scope: 'record',
  input: z.object({ state: z.enum(STATES) }),
  variants: [
    { label: 'Open', input: { state: 'open' } },
    { label: 'Close', input: { state: 'closed' } },
  ],
  result: 'record',
  changesRecord: true,
  level: 'user',
  offeredWhen: (row, input) => {
    if (input === undefined) return row.state === 'closed' ? 'A closed gadget stays closed' : null;
    return row.state !== input.state && row.state !== 'closed' ? null : `Not from ${String(row.state)}`;
  },
});

/** Variants with a declared confirm: each asks before it runs. */
const ring = defineAction({
  name: 'ring',
  label: 'Ring',
  scope: 'record',
  input: z.object({ loud: z.boolean().default(false) }),
  variants: [
    { label: 'Ring softly', input: { loud: false } },
    { label: 'Ring loudly', input: { loud: true } },
  ],
  confirm: 'Ring the owner now?',
  result: 'message',
  level: 'user',
});

const rename = defineAction({
  name: 'rename',
  label: 'Rename',
  scope: 'record',
  input: z.object({ name: z.string({ error: 'Name is required' }).min(1, 'Name is required'), from: z.string().optional() }),
  fields: [
    { name: 'name', label: 'New name', kind: 'text' },
    { name: 'from', label: 'From', kind: 'date' },
  ],
  result: 'record',
  changesRecord: true,
  level: 'user',
});

/** A required date and an optional one. */
const schedule = defineAction({
  name: 'schedule',
  label: 'Schedule',
  scope: 'record',
  input: z.object({ on: z.string({ error: 'On is required' }).min(1, 'On is required'), until: z.string().optional() }),
  fields: [
    { name: 'on', label: 'On', kind: 'date' },
    { name: 'until', label: 'Until', kind: 'date' },
  ],
  result: 'message',
  level: 'user',
});

const gadgetResource = defineResource({
  key: 'gadget',
  title: 'Gadget',
  titlePlural: 'Gadgets',
  apiPath: 'gadgets',
  routes: { overview: '/gadgets', detail: '/gadget' },
  schema: z.object({ id: z.number(), number: z.string().nullable(), name: z.string(), state: z.enum(STATES), comments: z.string().nullable(), edit_timestamp: z.string() }),
  createSchema: z.object({ name: z.string().min(1), comments: z.string().nullable().optional() }),
  updateSchema: z.object({ id: z.number(), name: z.string().min(1).optional(), comments: z.string().nullable().optional() }),
  filterSchema: z.object({ planned: z.enum(['true', 'false']).optional(), numbered: z.enum(['true', 'false']).optional() }),
  sortable: ['number', 'name'],
  defaultSort: [{ field: 'name', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: ['number', 'name'],
  columns: [
    { field: 'number', title: 'Number' },
    { field: 'name', title: 'Name' },
  ],
  views: [
    { key: 'planned', title: 'Planned Gadgets', titleSingular: 'Planned Gadget', routes: { overview: '/gadgets/planned', detail: '/gadget/planned' }, fixedFilter: { planned: 'true' } },
    { key: 'numbered', title: 'Numbered Gadgets', titleSingular: 'Numbered Gadget', routes: { overview: '/gadgets/numbered', detail: '/gadget/numbered' }, fixedFilter: { numbered: 'true' } },
  ],
  actions: [numberIt, setState, ring, rename, schedule],
});

const gadgetUi = defineResourceUi({
  descriptor: gadgetResource,
  fields: defineFields(gadgetResource, [
    { name: 'number', label: 'Number', kind: 'text', readOnly: true, group: 'Gadget' },
    { name: 'name', label: 'Name', kind: 'text', group: 'Gadget' },
    { name: 'state', label: 'State', kind: 'text', readOnly: true, group: 'Gadget' },
    { name: 'comments', label: 'Comments', kind: 'textarea' },
  ]),
  viewOf: (row) => (row.number ? 'numbered' : 'planned'),
});

const planned = { id: 1, number: null, name: 'Gear', state: 'new', comments: null, edit_timestamp: SEEN };
const numbered = { ...planned, number: 'G-0001', edit_timestamp: LATER };

function renderGadget(path: string, answers: Answers = {}) {
  const api = stubApi({ ...session(), 'GET /gadgets': page([]), 'GET /gadgets/1': { body: planned }, ...answers });
  return renderRoutes(gadgetUi.routes, path, api);
}

const actions = () => within(screen.getByRole('group', { name: 'Actions' }));

describe('record actions on the detail screen', () => {
  it('an action that moves the record to another view shows it there: route, title, actions and Overview follow', async () => {
    const { user, location, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/number_it': { body: numbered } });
    expect(await screen.findByRole('heading', { name: /Planned Gadget/ })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Number it' }));
    await waitFor(() => expect(location()).toBe('/gadget/numbered/1'));
    await waitFor(() => expect(screen.getByRole('heading', { name: /Numbered Gadget/ })).toHaveTextContent('G-0001 Gear'));
    expect(screen.queryByRole('button', { name: 'Number it' })).not.toBeInTheDocument();
    expect(api.last('POST /gadgets/1/number_it')!.headers['if-match']).toBe(SEEN);
    await user.click(screen.getByRole('button', { name: 'Overview' }));
    expect(location()).toBe('/gadgets/numbered');
  });

  it('says in a green alert what a one-click action did, naming the record as it is now', async () => {
    const { user } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/number_it': { body: numbered } });
    await user.click(await screen.findByRole('button', { name: 'Number it' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Number it: done for Gadget G-0001 Gear');
  });

  it('shows a record opened under another view’s route under its own, keeping the mode', async () => {
    const { location } = renderGadget('/gadget/numbered/1?mode=edit');
    await waitFor(() => expect(location()).toBe('/gadget/planned/1?mode=edit'));
    expect(await screen.findByRole('heading', { name: /Planned Gadget/ })).toBeInTheDocument();
  });

  it('holds every other action of the record while one runs: a double click cannot start a second', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/number_it': { body: numbered } });
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/number_it')) await gate;
      return answer(input, init);
    });
    await user.click(await screen.findByRole('button', { name: 'Number it' }));
    await waitFor(() => expect(actions().getByRole('button', { name: 'Rename' })).toBeDisabled());
    expect(actions().getByRole('button', { name: 'Change state' })).toBeDisabled();
    await user.click(actions().getByRole('button', { name: 'Rename' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    release();
    await screen.findByRole('heading', { name: /Numbered Gadget/ });
    expect(api.sent('POST /gadgets/1/number_it')).toHaveLength(1);
  });

  it('puts the variants of an action in one menu that stays in place, offering those of the current state', async () => {
    const opened = { ...planned, state: 'open', edit_timestamp: LATER };
    const { user, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/set_state': { body: opened } });
    await screen.findByRole('group', { name: 'Actions' });
    // Only the menu is a button: no variant sits beside it to be hit by a second click.
    expect(actions().queryByRole('button', { name: 'Open' })).not.toBeInTheDocument();
    await user.click(actions().getByRole('button', { name: 'Change state' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Open', 'Close']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Open' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Open: done for Gadget Gear');
    expect(api.last('POST /gadgets/1/set_state')!.body).toEqual({ state: 'open' });
    await user.click(actions().getByRole('button', { name: 'Change state' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Close']);
  });

  it('disables the menu with the reason when no variant is offered', async () => {
    renderGadget('/gadget/planned/1', { 'GET /gadgets/1': { body: { ...planned, state: 'closed' } } });
    await screen.findByRole('group', { name: 'Actions' });
    const menu = actions().getByRole('button', { name: 'Change state' });
    expect(menu).toBeDisabled();
    expect(menu).toHaveAttribute('data-disabled-reason', 'A closed gadget stays closed');
  });

  it('asks the declared confirm before a variant runs; No runs nothing', async () => {
    const { user, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/ring': { body: { message: 'Rang the owner' } } });
    await screen.findByRole('group', { name: 'Actions' });
    await user.click(actions().getByRole('button', { name: 'Ring' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Ring loudly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ring loudly' });
    expect(dialog).toHaveTextContent('Ring the owner now?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('POST /gadgets/1/ring')).toHaveLength(0);
    await user.click(actions().getByRole('button', { name: 'Ring' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Ring loudly' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Ring loudly' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Rang the owner');
    expect(api.last('POST /gadgets/1/ring')!.body).toEqual({ loud: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe("an action's input dialog", () => {
  it('marks the fields the input schema requires, and gives a required date no clear button', async () => {
    const { user } = renderGadget('/gadget/planned/1');
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule' });
    expect(within(dialog).getByLabelText(/^On/)).toBeRequired();
    expect(within(dialog).getByLabelText(/^Until/)).not.toBeRequired();
    await user.type(within(dialog).getByLabelText(/^On/), '15-05-2024');
    await user.type(within(dialog).getByLabelText(/^Until/), '16-05-2024');
    await user.click(within(dialog).getByText('Schedule', { selector: 'h2' }));
    await waitFor(() => expect(within(dialog).getByTitle('Clear Until')).toBeInTheDocument());
    expect(within(dialog).queryByTitle('Clear On')).not.toBeInTheDocument();
  });

  it('opens a dialog with its first field focused, ready to type, unless its calendar would open over the buttons', async () => {
    const { user } = renderGadget('/gadget/planned/1');
    (await screen.findByRole('button', { name: 'Rename' })).focus();
    await user.keyboard('{Enter}');
    const rename = await screen.findByRole('dialog', { name: 'Rename' });
    await waitFor(() => expect(document.activeElement).toBe(within(rename).getByLabelText(/^New name/)));
    await user.keyboard('Cog');
    expect(within(rename).getByLabelText(/^New name/)).toHaveValue('Cog');
    await user.click(within(rename).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // A date first: it is not focused, so its calendar does not open over the dialog's buttons.
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const schedule = await screen.findByRole('dialog', { name: 'Schedule' });
    await waitFor(() => expect(schedule).toContainElement(document.activeElement as HTMLElement));
    expect(document.activeElement).not.toBe(within(schedule).getByLabelText(/^On/));
  });

  it('says a mistyped date is no date when the field is left, naming what was typed, and sends nothing', async () => {
    const { user, api } = renderGadget('/gadget/planned/1');
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule' });
    await user.type(within(dialog).getByLabelText(/^On/), '31-02-2001');
    await user.click(within(dialog).getByText('Schedule', { selector: 'h2' }));
    expect(await within(dialog).findByText('"31-02-2001" is not a date: enter it as DD-MM-YYYY')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Schedule' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^On/), '28-02-2001');
    await user.click(within(dialog).getByText('Schedule', { selector: 'h2' }));
    await waitFor(() => expect(within(dialog).queryByText(/is not a date/)).not.toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: 'Schedule' })).toBeEnabled();
    expect(api.sent('POST /gadgets/1/schedule')).toHaveLength(0);
  });

  it('gives focus back to the button that opened a dialog when it closes (it fell to the page: decision 055)', async () => {
    const { user } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/rename': { body: { ...planned, name: 'Cog', edit_timestamp: LATER } } });
    const rename = await screen.findByRole('button', { name: 'Rename' });
    rename.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Rename' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(actions().getByRole('button', { name: 'Rename' })));
    // Done with the dialog's button: back on the button too.
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    await user.type(within(dialog).getByLabelText(/^New name/), 'Cog');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(actions().getByRole('button', { name: 'Rename' })));
  });

  it("a disabled action's reason is reached by Tab and described, not only shown on mouse hover", async () => {
    const { user } = renderGadget('/gadget/planned/1', { 'GET /gadgets/1': { body: { ...planned, state: 'closed' } } });
    await screen.findByRole('group', { name: 'Actions' });
    const menu = actions().getByRole('button', { name: 'Change state' });
    expect(menu).toBeDisabled();
    const wrapper = menu.parentElement!;
    expect(wrapper).toHaveAttribute('tabindex', '0');
    expect(wrapper).toHaveAttribute('aria-description', 'A closed gadget stays closed');
    wrapper.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('A closed gadget stays closed');
    await user.tab();
    expect(document.activeElement).not.toBe(wrapper);
  });

  it('keeps the dialog and what was typed when the server refuses (409), to correct and send again', async () => {
    const renamed = { ...planned, name: 'Cog', edit_timestamp: LATER };
    const { user, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/rename': failure(409, 'The name Sprocket is taken') });
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    await user.type(within(dialog).getByLabelText(/^New name/), 'Sprocket');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The name Sprocket is taken');
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^New name/)).toHaveValue('Sprocket');

    api.on('POST /gadgets/1/rename', { body: renamed });
    await user.clear(within(dialog).getByLabelText(/^New name/));
    await user.type(within(dialog).getByLabelText(/^New name/), 'Cog');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.last('POST /gadgets/1/rename')!.body).toEqual({ name: 'Cog' });
  });

  it('sends one Idempotency-Key on every try until the action is done, and a new one for the next (decision 050)', async () => {
    const renamed = { ...planned, name: 'Cog', edit_timestamp: LATER };
    const { user, api } = renderGadget('/gadget/planned/1', { 'POST /gadgets/1/rename': failure(502, 'Bad gateway') });
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    await user.type(within(dialog).getByLabelText(/^New name/), 'Cog');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    // The answer was lost: the second try is the same request, which the server does once.
    api.on('POST /gadgets/1/rename', { body: renamed });
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const keys = api.sent('POST /gadgets/1/rename').map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);

    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const again = await screen.findByRole('dialog', { name: 'Rename' });
    await user.type(within(again).getByLabelText(/^New name/), 'Wheel');
    await user.click(within(again).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(api.sent('POST /gadgets/1/rename')).toHaveLength(3));
    expect(api.last('POST /gadgets/1/rename')!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('is not closed by Escape once something was typed; Cancel closes it', async () => {
    const { user } = renderGadget('/gadget/planned/1');
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    const name = within(dialog).getByLabelText(/^New name/);
    await user.type(name, 'Sprocket');
    fireEvent.keyDown(name, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('is closed by Escape while nothing was typed', async () => {
    const { user } = renderGadget('/gadget/planned/1');
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    fireEvent.keyDown(within(dialog).getByLabelText(/^New name/), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('the detail form', () => {
  it('draws the sections in the order declared: Comments, in no section, stays last', async () => {
    renderGadget('/gadget/planned/1');
    await screen.findByRole('group', { name: 'Actions' });
    const labels = within(screen.getByRole('form', { name: 'Planned Gadget' }))
      .getAllByRole('textbox')
      .map((i) => i.getAttribute('id') && document.querySelector(`label[for="${i.id}"]`)?.textContent?.replace('*', '').trim());
    expect(labels).toEqual(['Number', 'Name', 'State', 'Comments']);
  });

  it('leaves read-only fields out of the Tab order in edit mode', async () => {
    renderGadget('/gadget/planned/1?mode=edit');
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('readonly'));
    expect(screen.getByLabelText(/^Number/)).toHaveAttribute('tabindex', '-1');
    expect(screen.getByLabelText(/^State/)).toHaveAttribute('tabindex', '-1');
    expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('tabindex', '-1');
    expect(screen.getByLabelText(/^Comments/)).not.toHaveAttribute('tabindex', '-1');
  });
});
