import { invoiceResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineCells } from '../../machinery/overview/types';
import { SEMESTER_OPTIONS } from './invoice.fields';

/** The contract and the student of an invoice open their own screens; the semester reads as on the invoice ("Whole year"). */
export const invoiceCells = defineCells(invoiceResource, {
  semester: (row) => SEMESTER_OPTIONS.find((o) => o.value === row.semester)?.label ?? String(row.semester),
  contract: (row) => <CellLink to={navigationTargets.contract(row.contract_id)}>{row.contract}</CellLink>,
  student_name: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
});
