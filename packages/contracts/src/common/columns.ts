import type { ViewDescriptor } from './views.js';

/** How a value is shown in an overview cell, a read-only field and an xlsx cell: the one list of formats. */
export type ValueFormat = 'text' | 'number' | 'money' | 'date' | 'datetime' | 'bool';

/**
 * One column of a resource, declared once beside the resource: the overview table, the xlsx export and the
 * OpenAPI document all read it. The web adds only how a cell is drawn when it is more than its formatted value
 * (a link to another record).
 */
export interface ColumnDescriptor<Field extends string = string> {
  /** The row field shown in the column (spec §3 name). */
  field: Field;
  title: string;
  format?: ValueFormat;
  /**
   * Values shown as words, in the overview and in the export alike (an invoice's semester 0 is "Whole year");
   * any other value is shown by its format.
   */
  labels?: Readonly<Record<string, string>>;
  /**
   * The sort key sent to the API. Defaults to `field` when the resource lists it as sortable; `false` makes the
   * column unsortable.
   */
  sortKey?: string | false;
  /** Width in the overview (px) and, divided by 7, in the spreadsheet (characters). */
  width?: number;
  /** Kept on one line in the overview (codes such as `EU-FULL`); dates, times and amounts always are. */
  nowrap?: boolean;
  /** Only in the export (false: only in the overview). Default: both. */
  overview?: boolean;
  export?: boolean;
}

/**
 * The columns an export of a view writes: the view's own, in its order and with its titles (a credit note's
 * "Amount credited"), then the resource's export-only columns (document type, pro forma). Without a view that
 * chooses columns, every exported column of the resource.
 */
export function viewExportColumns<C extends ColumnDescriptor>(columns: readonly C[], view: Pick<ViewDescriptor, 'columns' | 'columnTitles'> | undefined): C[] {
  const shown = view?.columns;
  if (!shown) return exportColumns(columns);
  const byField = new Map(columns.map((c) => [c.field, c]));
  const own = shown.flatMap((field) => {
    const column = byField.get(field);
    return column && column.export !== false ? [{ ...column, title: view.columnTitles?.[field] ?? column.title }] : [];
  });
  const extra = columns.filter((c) => c.overview === false && c.export !== false && !shown.includes(c.field));
  return [...own, ...extra];
}

export function overviewColumns<C extends ColumnDescriptor>(columns: readonly C[]): C[] {
  return columns.filter((c) => c.overview !== false);
}

export function exportColumns<C extends ColumnDescriptor>(columns: readonly C[]): C[] {
  return columns.filter((c) => c.export !== false);
}

/** The sort key a column's header sends, or null when the column cannot be sorted by. */
export function columnSortKey(column: Pick<ColumnDescriptor, 'field' | 'sortKey'>, sortable: readonly string[]): string | null {
  if (column.sortKey === false) return null;
  const key = column.sortKey ?? column.field;
  return sortable.includes(key) ? key : null;
}
