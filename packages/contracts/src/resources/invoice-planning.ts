import { z } from 'zod';
import { defineAction } from '../common/actions.js';

/**
 * Plan invoices (issue 13 point 3): an action on a contract, single and batch with a preview (dry run). Declared
 * here, beside the invoices, and listed in the contract descriptor's `actions`; its service function is
 * `planContractInvoices` of apps/api/src/lib/invoicing/.
 */
export const planInvoices = defineAction({
  name: 'plan_invoices',
  label: 'Plan invoices',
  scope: 'record',
  input: z.object({}),
  result: 'message',
  level: 'user',
  batch: { label: 'Plan invoices', preview: true },
  failureText: 'planning invoices',
});

export const invoicePlanningActions = { planInvoices };
