import type { SortKey } from './list.js';

/**
 * One overview and detail route of a resource, with its own title, columns, default sort, fixed filter and
 * actions (spec §2: planned / numbered / credit-note invoices share one resource). A resource that declares
 * no views has one, made from the resource itself (`defaultView`).
 */
export interface ViewDescriptor {
  /** Unique within the resource; with the resource key it names the overview's remembered state. */
  key: string;
  /** Overview title (`Planned Invoices`). */
  title: string;
  /** Detail title and delete confirmation (`Planned Invoice`). */
  titleSingular: string;
  /** Hash routes: the overview and the detail prefix (`/invoice/planned` → `/invoice/planned/:id`). */
  routes: { overview: string; detail: string };
  /** List filters always sent and never shown (`{ planned: 'true' }`). */
  fixedFilter?: Readonly<Record<string, string>>;
  /** The fields of the resource's columns shown, in this order; all overview columns when absent. */
  columns?: readonly string[];
  defaultSort?: readonly SortKey[];
  /** Column titles of this view where they differ from the resource's (`amount` is "Amount credited" on credit notes). */
  columnTitles?: Readonly<Record<string, string>>;
  /** The fields Bulk Edit offers on this view, where its rows keep some of the resource's read-only. */
  bulkEditFields?: readonly string[];
}
