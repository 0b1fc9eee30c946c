import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { ExportRequestSchema } from '../common/resource-actions.js';
import { isoDate } from '../common/fields.js';

/**
 * Contract finance (issue 14 point 5, issue 18 point 3; decision 021): payment status as of a simulation date,
 * for one contract and for a filtered set, the participation fee's status, the balance to date, the payments
 * due and the payment status over a period. Declared here, listed in the contract descriptor's `actions`; the
 * work is in apps/api/src/resources/contract/contract-finance.ts over lib/invoicing/status.ts.
 */

const simulationDate = isoDate('Simulation date').optional();
const dateField = { name: 'date', label: 'Simulation date', kind: 'date', description: 'Empty: today' } as const;

/** One contract's payment status as of a date: per invoice invoiced, credited, paid, open; expired ones marked. */
export const downloadPaymentStatus = defineAction({
  name: 'download_payment_status',
  label: 'Download payment status',
  scope: 'record',
  input: z.object({ date: simulationDate, format: z.enum(['xlsx', 'pdf'], { error: 'Format must be xlsx or pdf' }).default('pdf') }),
  fields: [
    dateField,
    {
      name: 'format',
      label: 'Format',
      kind: 'select',
      options: [
        { value: 'pdf', label: 'PDF' },
        { value: 'xlsx', label: 'Excel (xlsx)' },
      ],
    },
  ],
  result: 'file',
  level: 'reader',
  failureText: 'downloading payment status',
});

/** The participation fee's payment status (spec §7 `POST /contracts/{id}/download_pf_paymentstatus`): its invoices only. */
export const downloadPfPaymentStatus = defineAction({
  name: 'download_pf_paymentstatus',
  label: 'Download PF payment status',
  scope: 'record',
  input: z.object({ date: simulationDate }),
  fields: [dateField],
  result: 'file',
  level: 'reader',
  failureText: 'downloading PF payment status',
});

const listInput = ExportRequestSchema.extend({ date: simulationDate });

/** Spec §7 `POST /contracts/download_paymentstatus`: every invoice of the filtered contracts as of a date. */
export const downloadPaymentStatusList = defineAction({
  name: 'download_paymentstatus',
  label: 'Export payment status',
  scope: 'list',
  input: listInput,
  fields: [dateField],
  result: 'file',
  level: 'reader',
  filename: 'Payment_Status.xlsx',
  failureText: 'exporting Payment_Status.xlsx',
});

/** Spec §2 "Export of balance to date": per contract invoiced, credited, paid and open as of a date. */
export const downloadBalance = defineAction({
  name: 'download_balance',
  label: 'Export balance to date',
  scope: 'list',
  input: listInput,
  fields: [dateField],
  result: 'file',
  level: 'reader',
  filename: 'Balance.xlsx',
  failureText: 'exporting Balance.xlsx',
});

/** Spec §7 `/contracts/download_payments_due`: the open invoices of the filtered contracts by due date, expired first. */
export const downloadPaymentsDue = defineAction({
  name: 'download_payments_due',
  label: 'Export payments due',
  scope: 'list',
  input: ExportRequestSchema,
  result: 'file',
  level: 'reader',
  filename: 'Payments_Due.xlsx',
  failureText: 'exporting Payments_Due.xlsx',
});

/**
 * Issue 18 point 3, spec §7 "export payment status (from and until dates)": sheet one a row per contract with
 * what was invoiced, credited, paid and left open in the period and the balance at its end; sheet two the
 * documents and payments behind them. Dates default to the academic year containing today.
 */
export const downloadPaymentStatusPeriod = defineAction({
  name: 'download_paymentstatus_period',
  label: 'Export payment status (period)',
  scope: 'list',
  input: ExportRequestSchema.extend({ from: isoDate('From').optional(), until: isoDate('Until').optional() }),
  fields: [
    { name: 'from', label: 'From', kind: 'date', description: 'Empty: start of the academic year' },
    { name: 'until', label: 'Until', kind: 'date', description: 'Empty: end of the academic year' },
  ],
  result: 'file',
  level: 'reader',
  filename: 'Payment_Status_Period.xlsx',
  failureText: 'exporting Payment_Status_Period.xlsx',
});

export const contractFinanceActions = {
  downloadPaymentStatus,
  downloadPfPaymentStatus,
  downloadPaymentStatusList,
  downloadBalance,
  downloadPaymentsDue,
  downloadPaymentStatusPeriod,
};
