import { invoiceResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { invoiceCells } from './invoice.cells';
import { invoiceFields } from './invoice.fields';
import { invoiceFilters } from './invoice.filters';

/** Planned invoices, numbered invoices and credit notes: one resource, its three views (spec §2). */
export const invoiceUi = defineResourceUi({ descriptor: invoiceResource, cells: invoiceCells, fields: invoiceFields, filters: invoiceFilters });
