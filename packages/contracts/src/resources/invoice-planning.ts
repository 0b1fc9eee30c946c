import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { TransactionFeeSchema } from './invoice.js';

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
  changesRecord: true,
  level: 'user',
  batch: { label: 'Plan invoices', preview: true },
  failureText: 'planning invoices',
});



/**
 * Switch to semester payment (spec §2 "Contract screen", §7 `POST /contracts/{id}/switch_to_semester_payment`,
 * after a confirm dialog; answers a message): the contract's remaining yearly planned fees become semesters.
 */
export const switchToSemesterPayment = defineAction({
  name: 'switch_to_semester_payment',
  label: 'Switch to semester payment',
  scope: 'record',
  input: z.object({}),
  result: 'message',
  changesRecord: true,
  level: 'user',
  confirm: 'Split the planned yearly invoices of this contract into semesters?',
  failureText: 'switching to semester payment',
});
/**
 * Create transaction fee (spec §7 `POST /contracts/{id}/create_transaction_fee`, §5: invoice date and amount
 * required): a type-9 invoice of the contract, numbered at once with its PDF (decision 019).
 */
export const createTransactionFee = defineAction({
  name: 'create_transaction_fee',
  label: 'Create transaction fee',
  scope: 'record',
  input: TransactionFeeSchema,
  fields: [
    { name: 'invoice_date', label: 'Invoice date', kind: 'date' },
    { name: 'amount', label: 'Amount', kind: 'money' },
  ],
  result: 'message',
  changesRecord: true,
  level: 'user',
  failureText: 'creating transaction fee',
});

/** Download numbered invoice details (spec §2 contract screen): the contract's numbered invoices and credit notes. */
export const downloadInvoiceDetails = defineAction({
  name: 'download_invoice_details',
  label: 'Download numbered invoice details',
  scope: 'record',
  input: z.object({}),
  result: 'file',
  level: 'reader',
  filename: 'Invoice_Details.xlsx',
  failureText: 'downloading numbered invoice details',
});

export const invoicePlanningActions = { planInvoices, switchToSemesterPayment, createTransactionFee, downloadInvoiceDetails };
