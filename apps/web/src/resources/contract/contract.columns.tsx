import { contractResource } from '@app/contracts';
import { navigationTargets } from '../../lib/navigation';
import { CellLink } from '../../machinery/overview/cell-link';
import { defineColumns } from '../../machinery/overview/types';

/** Spec §2 "Overview columns": the application number opens the contract, the student name the student. */
export const contractColumns = defineColumns(contractResource, [
  { field: 'application_number', title: 'Application Number', nowrap: true },
  {
    field: 'student_name',
    title: 'Student Name',
    // The overview's default sort is the last name: the column shows it.
    sortKey: 'last_name',
    render: (row) => <CellLink to={navigationTargets.student(row.student_id)}>{row.student_name}</CellLink>,
  },
  { field: 'contract_status_name', title: 'Status' },
  { field: 'scholarship_code', title: 'Code', nowrap: true },
  { field: 'program_shortname', title: 'Program' },
  { field: 'start_date', title: 'Start Date', format: 'date' },
  { field: 'end_date', title: 'End Date', format: 'date' },
  { field: 'contract_sent_date', title: 'Contract Sent', format: 'date' },
  { field: 'bankinfo_emailrequest_timestamp', title: 'Bank Request', format: 'datetime' },
  { field: 'bankinfo_updated_timestamp', title: 'Bank Updated', format: 'datetime' },
  { field: 'pf_status_email_timestamp', title: 'PF Status Sent', format: 'datetime' },
  { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
]);
