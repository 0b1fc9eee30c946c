import { invoicePaymentResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineCells } from '../../machinery/overview/types';

/** The invoice, the contract and the student of a payment open their own screens. */
export const invoicePaymentCells = defineCells(invoicePaymentResource, {
  invoice: (row) => <CellLink to={`/invoice/numbered/${row.invoice_id}`}>{row.invoice}</CellLink>,
  contract: (row) => <CellLink to={navigationTargets.contract(row.contract_id)}>{row.contract}</CellLink>,
  student_name: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
});
