import { describe, expect, it } from 'vitest';
import { actionPath, actionsOf, apiPermissions, roleHasLevel, ROLES, runsAsBatch, viewsOf } from '@app/contracts';
import { batchActionsOf } from '../machinery/actions/actions';
import { batchEntriesOf } from '../machinery/batch/batch-menu';
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
    // Issue 13: the invoice views (Bulk Edit only on planned and numbered; Send Email's two variants not on planned).
    const invoice = resourceUis.find((u) => u.descriptor.key === 'invoice')!.descriptor;
    const labels = (viewKey: string, role: 'User' | 'Administrator' | 'Reader') =>
      batchEntriesOf(batchActionsOf(invoice, viewsOf(invoice).find((v) => v.key === viewKey)!, role)).map((e) => e.label);
    expect(labels('planned', 'User')).toEqual(['Create Invoice']);
    expect(labels('planned', 'Administrator')).toEqual(['Create Invoice', 'Bulk Edit']);
    expect(labels('numbered', 'User')).toEqual(['Send Email', 'Send Email Reminder']);
    expect(labels('numbered', 'Administrator')).toEqual(['Send Email', 'Send Email Reminder', 'Bulk Edit']);
    expect(labels('creditnote', 'Administrator')).toEqual(['Send Email', 'Send Email Reminder']);
    expect(labels('numbered', 'Reader')).toEqual([]);
    // Issue 14: the invoice payments' Send Payment Confirmation, for a User and above.
    const payment = resourceUis.find((u) => u.descriptor.key === 'invoice_payment')!.descriptor;
    expect(batchActionsOf(payment, viewsOf(payment)[0]!, 'User').map((a) => a.batch?.label ?? a.label)).toEqual(['Send Payment Confirmation']);
    expect(batchActionsOf(payment, viewsOf(payment)[0]!, 'Reader')).toEqual([]);
    // Schedule Payments on the planned scholarship payments, for a User; Bulk Edit for an Administrator.
    const payments = resourceUis.find((u) => u.descriptor.key === 'scholarship_payment')!.descriptor;
    const planned = viewsOf(payments).find((v) => v.key === 'planned')!;
    expect(batchActionsOf(payments, planned, 'User').map((a) => a.batch?.label ?? a.label)).toEqual(['Schedule Payments']);
    expect(batchActionsOf(payments, planned, 'Administrator').map((a) => a.batch?.label ?? a.label)).toEqual(['Schedule Payments', 'Bulk Edit']);
    expect(batchActionsOf(payments, planned, 'Reader')).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
