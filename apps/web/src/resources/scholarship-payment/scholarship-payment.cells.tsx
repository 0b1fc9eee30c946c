import { scholarshipPaymentResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineCells } from '../../machinery/overview/types';

/** The contract and the student of a payment open their own screens. */
export const scholarshipPaymentCells = defineCells(scholarshipPaymentResource, {
  contract: (row) => <CellLink to={navigationTargets.contract(row.contract_id)}>{row.contract}</CellLink>,
  student_name: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
});
