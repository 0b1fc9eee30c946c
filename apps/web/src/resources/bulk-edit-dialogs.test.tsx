import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { findAction } from '@app/contracts';
import { BulkEditDialog, bulkEditFields } from '../machinery/batch/batch-menu';
import type { FieldDef } from '../machinery/fields/types';
import { stubApi } from '../test/api-stub';
import { choiceList } from '../test/fixtures';
import { renderInApp } from '../test/render-app';
import { resourceUis } from './registry';

/** Every overview that offers Bulk Edit (contracts, invoices, scholarship payments), with the fields it offers. */
const dialogs = resourceUis.flatMap(({ descriptor, fields }) => {
  if (!descriptor.bulkEdit || !fields) return [];
  return [{ descriptor, fields, bulkFields: bulkEditFields(descriptor, fields) }];
});

/** Sets one field of the dialog the way a user does, by its kind. */
async function setField(user: ReturnType<typeof renderInApp>['user'], dialog: HTMLElement, def: FieldDef) {
  const label = new RegExp(`^${def.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  switch (def.kind) {
    case 'boolean':
    case 'select': {
      await user.click(within(dialog).getByRole('combobox', { name: label }));
      const listbox = await screen.findByRole('listbox');
      await user.click(within(listbox).getAllByRole('option').find((o) => o.textContent !== '')!);
      return;
    }
    case 'date':
      await user.type(within(dialog).getByLabelText(label), '15-05-2024');
      return;
    case 'money':
    case 'number':
      await user.type(within(dialog).getByLabelText(label), '12');
      return;
    default:
      await user.type(within(dialog).getByLabelText(label), 'Changed in bulk');
  }
}

/**
 * Issue 18 point 7 (spec §5: "Bulk edit sends nothing if no field changed"): every Bulk Edit dialog keeps Apply
 * disabled until a field is set, and then sends that field alone. The API's 400 for an empty change set is
 * tested in apps/api for each resource.
 */
describe('every Bulk Edit dialog', () => {
  it('is found on the three overviews the spec gives one', () => {
    expect(dialogs.map((d) => d.descriptor.key).sort()).toEqual(['contract', 'invoice', 'scholarship_payment']);
    for (const d of dialogs) expect(d.bulkFields.length, d.descriptor.key).toBe(d.descriptor.bulkEdit!.fields.length);
  });

  for (const { descriptor, fields, bulkFields } of dialogs) {
    for (const def of bulkFields) {
      it(`${descriptor.key}: Apply is disabled until ${def.name} is set, then sends only it`, async () => {
        const lists = [...new Set(bulkFields.flatMap((f) => (f.choices ? [f.choices] : [])))];
        stubApi(
          Object.assign(
            {},
            ...lists.map((name) => ({
              ...choiceList(name, [{ id: 1, name: 'The first choice' }]),
              [`GET /${name}/choice/search`]: { body: [{ id: 1, name: 'The first choice' }] },
            })),
          ),
        );
        const onSubmit = vi.fn();
        const { user } = renderInApp(
          <BulkEditDialog descriptor={descriptor} action={findAction(descriptor, 'bulk_edit')!} fields={fields} count={2} pending={false} onSubmit={onSubmit} onClose={() => undefined} />,
        );
        const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
        const apply = within(dialog).getByRole('button', { name: 'Apply' });
        expect(apply).toBeDisabled();
        await user.click(apply);
        expect(onSubmit).not.toHaveBeenCalled();
        await setField(user, dialog, def);
        expect(apply).toBeEnabled();
        await user.click(apply);
        expect(onSubmit).toHaveBeenCalledTimes(1);
        expect(Object.keys((onSubmit.mock.calls[0]![0] as { changes: object }).changes)).toEqual([def.name]);
      });
    }
  }
});

describe('Bulk Edit on a view whose rows keep some fields', () => {
  const invoice = dialogs.find((d) => d.descriptor.key === 'invoice')!;
  const view = (key: string) => invoice.descriptor.views!.find((v) => v.key === key)!;

  it('offers on numbered invoices only what a numbered invoice lets change (not the planned date), all of it on planned ones', async () => {
    const offered = async (key: string) => {
      const { unmount } = renderInApp(
        <BulkEditDialog descriptor={invoice.descriptor} view={view(key)} action={findAction(invoice.descriptor, 'bulk_edit')!} fields={invoice.fields} count={2} pending={false} onSubmit={() => undefined} onClose={() => undefined} />,
      );
      const dialog = await screen.findByRole('dialog', { name: 'Bulk Edit' });
      const labels = ['Planned Date', 'Extended Deadline', 'Comments'].filter((label) => within(dialog).queryByLabelText(new RegExp(`^${label}`)) !== null);
      unmount();
      return labels;
    };
    expect(await offered('numbered')).toEqual(['Extended Deadline', 'Comments']);
    expect(await offered('planned')).toEqual(['Planned Date', 'Extended Deadline', 'Comments']);
  });

  it('offers on every view only fields the resource itself lets Bulk Edit change', () => {
    for (const { descriptor } of dialogs) {
      for (const v of descriptor.views ?? []) expect(descriptor.bulkEdit!.fields, `${descriptor.key} ${v.key}`).toEqual(expect.arrayContaining([...(v.bulkEditFields ?? [])]));
    }
  });
});
