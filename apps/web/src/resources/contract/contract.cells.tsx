import { contractResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineCells } from '../../machinery/overview/types';

/** Spec §2 "Overview columns": the student name opens the student (the application number opens the contract). */
export const contractCells = defineCells(contractResource, {
  student_name: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
});
