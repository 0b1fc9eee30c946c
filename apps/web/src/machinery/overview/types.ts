import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { AnyResource } from '@app/contracts';
import type { ValueFormat } from '../../lib/format';

/** A row as the API answers it for this resource. */
export type RowOf<D extends AnyResource> = z.infer<D['schema']>;

/** Every row has an id; the machinery needs nothing else of it. */
export type AnyRow = Record<string, unknown> & { id: number | string };

/** One column of an overview table, declared per resource (`<resource>.columns.tsx`). */
export interface Column<Row = AnyRow> {
  /** The row field shown in the column. */
  field: Extract<keyof Row, string>;
  title: string;
  /** Money, date, datetime and bool are formatted in one place (lib/format.ts). */
  format?: ValueFormat;
  /**
   * The sort key sent to the API. Defaults to `field` when the descriptor lists it as sortable;
   * `false` makes the column unsortable.
   */
  sortKey?: string | false;
  /** Custom cell content (links to other records, badges); formatting by `format` otherwise. */
  render?: (row: Row) => ReactNode;
  width?: number | string;
  /** Keeps the cell on one line (codes such as `EU-FULL`); dates, times and amounts always are. */
  nowrap?: boolean;
}

/** Typed column declarations of a resource: `field` must be a field of the resource's row. */
export function defineColumns<D extends AnyResource>(_descriptor: D, columns: Column<RowOf<D>>[]): Column<RowOf<D>>[] {
  return columns;
}

export function sortKeyOf(column: Pick<Column<never>, 'field' | 'sortKey'>, sortable: readonly string[]): string | null {
  if (column.sortKey === false) return null;
  const key = column.sortKey ?? column.field;
  return sortable.includes(key) ? key : null;
}
