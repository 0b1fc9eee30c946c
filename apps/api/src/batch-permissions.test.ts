import { beforeAll, describe, expect, it } from 'vitest';
import { actionPath, actionsOf, apiPermissions, contractActions, contractResource, roleHasLevel, ROLES, runsAsBatch, type RoleName } from '@app/contracts';
import { batchRuns } from '@app/db';
import { resourceModules } from './resources/index.js';
import { setupTestApp } from './test/app.js';
import { userWithToken } from './test/factories.js';

/**
 * Who may run the batch actions (issue 18 point 8, DESIGN §4): Bulk Edit needs an Administrator, every other
 * batch action a User. The web's Batch menu shows an action to the roles `roleHasLevel(role, action.level)`
 * allows (apps/web machinery/actions); the API refuses exactly the others.
 */
const t = await setupTestApp();
const tokens = {} as Record<RoleName, string>;
beforeAll(async () => {
  for (const { name } of ROLES) tokens[name] = (await userWithToken(t.app, t.db, name)).token;
});
const api = (path: string, token: string) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

describe('the batch actions', () => {
  it('every batch action is refused to exactly the roles below its declared level: a User for all but Bulk Edit, an Administrator for Bulk Edit', async () => {
    const modules = resourceModules(t.ctx);
    const batchActions = modules.flatMap((m) => actionsOf(m.resource).filter(runsAsBatch).map((a) => ({ resource: m.resource, action: a })));
    const contractBatch = batchActions.filter((b) => b.resource.key === 'contract').map((b) => b.action.batch?.label ?? b.action.label);
    expect(contractBatch).toEqual(expect.arrayContaining(['Email bank info request', 'Send PF Status', 'Change status', 'Mark contract sent', 'Bulk Edit']));
    // Issue 13: the invoice views' Batch menu (Send Email and Send Email Reminder are one action's two variants).
    const invoiceBatch = batchActions
      .filter((b) => b.resource.key === 'invoice')
      .flatMap((b) => b.action.batch?.variants?.map((v) => v.label) ?? [b.action.batch?.label ?? b.action.label]);
    expect(invoiceBatch).toEqual(expect.arrayContaining(['Create Invoice', 'Send Email', 'Send Email Reminder', 'Bulk Edit']));
    const paymentBatch = batchActions.filter((b) => b.resource.key === 'invoice_payment').map((b) => b.action.batch?.label ?? b.action.label);
    expect(paymentBatch).toEqual(['Send Payment Confirmation']);
    for (const { resource, action } of batchActions) {
      const route = `POST ${actionPath(resource.apiPath, action, 'batch')}`;
      expect(action.level, route).toBe(action.name === 'bulk_edit' ? 'administrator' : 'user');
      expect(apiPermissions[route], route).toBe(action.level);
      for (const { name } of ROLES) {
        // An empty selection: allowed callers get 400 (no run starts), the others 403.
        for (const input of action.batch?.variants?.map((v) => v.input as object) ?? [{}]) {
          const res = await api(`/${resource.apiPath}/batch/${action.name}`, tokens[name]).send({ ids: [], ...input });
          expect(res.status, `${route} ${JSON.stringify(input)} as ${name}: ${res.text}`).toBe(roleHasLevel(name, action.level) ? 400 : 403);
        }
      }
    }
    const scholarshipBatch = batchActions.filter((b) => b.resource.key === 'scholarship_payment').map((b) => b.action.batch?.label ?? b.action.label);
    expect(scholarshipBatch).toEqual(expect.arrayContaining(['Schedule Payments', 'Bulk Edit']));
    // The spec's own path of Schedule Payments, POST /scholarship_payments/create_payments, is guarded the same way.
    const schedule = batchActions.find((b) => b.action.name === 'create_payment')!.action;
    expect(apiPermissions[schedule.batchPath!]).toBe('user');
    for (const { name } of ROLES) {
      const res = await api('/scholarship_payments/create_payments', tokens[name]).send({ ids: [] });
      expect(res.status, `create_payments as ${name}: ${res.text}`).toBe(roleHasLevel(name, 'user') ? 400 : 403);
    }
    expect(await t.db.select().from(batchRuns)).toEqual([]);
    expect(contractActions.sendBankinfoRequest.failureText).toBe('sending email');
    expect(contractResource.actions?.filter((a) => a.name.startsWith('send_') || a.name === 'request_refund_info').map((a) => a.failureText)).toEqual(Array(4).fill('sending email'));
  });
});
