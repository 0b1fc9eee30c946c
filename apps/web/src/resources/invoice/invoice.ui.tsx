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
  // As the views' fixed filters on the server (lib/invoicing/invoice-sql.ts): a credit note, else numbered or not.
  viewOf: (row) => (row.is_creditnote ? 'creditnote' : row.number ? 'numbered' : 'planned'),
  overview: {
    listActionsInMenu: true,
    rowActions: (row) => <NewPaymentButton row={row} />,
  },
  detail: { extras: (detail) => <CreditNoteButton detail={detail} /> },
});
