import { invoiceResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineCells } from '../../machinery/overview/types';

/** The contract and the student of an invoice open their own screens. */
export const invoiceCells = defineCells(invoiceResource, {
  contract: (row) => <CellLink to={navigationTargets.contract(row.contract_id)}>{row.contract}</CellLink>,
  student_name: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
});
