import type { ReactNode } from 'react';
import type { z } from 'zod';
import { overviewColumns, type AnyResource, type ColumnDescriptor, type ViewDescriptor } from '@app/contracts';

export { columnSortKey as sortKeyOf } from '@app/contracts';

/** A row as the API answers it for this resource. */
export type RowOf<D extends AnyResource> = z.infer<D['schema']>;

/** Every row has an id; the machinery needs nothing else of it. */
export type AnyRow = Record<string, unknown> & { id: number | string };

/** One column of an overview table: the resource's declared column (packages/contracts), and how a cell is drawn. */
export interface Column<Row = AnyRow> extends ColumnDescriptor {
  /** Custom cell content (a link to another record); formatted by `format` otherwise. */
  render?: (row: Row) => ReactNode;
}

/** How a resource draws the cells that are more than their formatted value (`<resource>.cells.tsx`), by field. */
export type Cells<Row> = Partial<Record<Extract<keyof Row, string>, (row: Row) => ReactNode>>;

/** Typed cell renderers of a resource: each key must be a field of its row. */
export function defineCells<D extends AnyResource>(_descriptor: D, cells: Cells<RowOf<D>>): Cells<RowOf<D>> {
  return cells;
}

/** The columns an overview shows: the view's (in its order) or every overview column of the resource. */
export function columnsOf<D extends AnyResource>(descriptor: D, view: ViewDescriptor, cells?: Cells<RowOf<D>>): Column<RowOf<D>>[] {
  const declared = view.columns
    ? view.columns.map((field) => {
        const column = descriptor.columns.find((c) => c.field === field);
        if (!column) throw new Error(`${descriptor.key}: view ${view.key} shows an undeclared column ${field}`);
        return column;
      })
    : overviewColumns(descriptor.columns);
  return declared.map((c) => ({ ...c, title: view.columnTitles?.[c.field] ?? c.title, render: cells?.[c.field as keyof typeof cells] }));
}
