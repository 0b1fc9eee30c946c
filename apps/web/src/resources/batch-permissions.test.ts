import { describe, expect, it } from 'vitest';
import { actionPath, actionsOf, apiPermissions, roleHasLevel, ROLES, runsAsBatch, viewsOf } from '@app/contracts';
import { batchActionsOf } from '../machinery/actions/actions';
import { resourceUis } from './registry';

/**
 * Issue 18 point 8: the Batch menus show an action to exactly the roles the API lets run it. Every batch action
 * but Bulk Edit is for a User and above, Bulk Edit for an Administrator; the API's refusals of the same table
 * are tested in apps/api (batch-permissions.test.ts).
 */
describe('the Batch menus and the permission table', () => {
  it('offer each batch action to exactly the roles the API lets through', () => {
    let checked = 0;
    for (const { descriptor } of resourceUis) {
      for (const view of viewsOf(descriptor)) {
        for (const { name: role } of ROLES) {
          const shown = batchActionsOf(descriptor, view, role).map((a) => a.name);
          for (const action of actionsOf(descriptor).filter(runsAsBatch)) {
            if (action.views && !action.views.includes(view.key)) continue;
            const access = apiPermissions[`POST ${actionPath(descriptor.apiPath, action, 'batch')}`];
            expect(access, `${descriptor.key}.${action.name}`).toBe(action.name === 'bulk_edit' ? 'administrator' : 'user');
            expect(shown.includes(action.name), `${descriptor.key}.${action.name} for ${role}`).toBe(roleHasLevel(role, access as 'user' | 'administrator'));
            checked++;
          }
        }
      }
    }
    // The contract's Email bank info request, Send PF Status and Plan invoices are among them.
    const contract = resourceUis.find((u) => u.descriptor.key === 'contract')!.descriptor;
    expect(batchActionsOf(contract, viewsOf(contract)[0]!, 'User').map((a) => a.batch?.label ?? a.label)).toEqual([
      'Change status',
      'Mark contract sent',
      'Email bank info request',
      'Send PF Status',
      'Plan invoices',
      'Plan scholarship payments',
    ]);
    // Schedule Payments on the planned scholarship payments, for a User; Bulk Edit for an Administrator.
    const payments = resourceUis.find((u) => u.descriptor.key === 'scholarship_payment')!.descriptor;
    const planned = viewsOf(payments).find((v) => v.key === 'planned')!;
    expect(batchActionsOf(payments, planned, 'User').map((a) => a.batch?.label ?? a.label)).toEqual(['Schedule Payments']);
    expect(batchActionsOf(payments, planned, 'Administrator').map((a) => a.batch?.label ?? a.label)).toEqual(['Schedule Payments', 'Bulk Edit']);
    expect(batchActionsOf(payments, planned, 'Reader')).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
