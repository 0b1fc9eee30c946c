import { invoiceResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { invoiceCells } from './invoice.cells';
import { CreditNoteButton, NewPaymentButton } from './invoice.extras';
import { invoiceFields } from './invoice.fields';
import { invoiceFilters } from './invoice.filters';

/**
 * Planned invoices, numbered invoices and credit notes: one resource, its three views (spec §2). The exports sit
 * in a cog menu; a numbered row starts a new payment; a numbered invoice's detail makes its credit note.
 */
export const invoiceUi = defineResourceUi({
  descriptor: invoiceResource,
  cells: invoiceCells,
  fields: invoiceFields,
  filters: invoiceFilters,
  overview: {
    listActionsInMenu: true,
    rowActions: (row) => <NewPaymentButton row={row} />,
  },
  detail: { extras: (detail) => <CreditNoteButton detail={detail} /> },
});
