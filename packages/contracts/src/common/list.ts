import { z } from 'zod';
import { INT4_MAX } from './input.js';
import { text } from './fields.js';

/** Page size of every overview (spec §9) and the most a client may ask for (DESIGN §4). */
export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

export type SortDirection = 'asc' | 'desc';
export interface SortKey {
  field: string;
  direction: SortDirection;
}

/** `last_name|asc,start_date|desc` → sort keys. Throws a readable message on bad input. */
export function parseSort(text: string, sortable: readonly string[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of text.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const [field = '', direction = 'asc', ...rest] = trimmed.split('|');
    if (rest.length > 0) throw new Error(`"${trimmed}" is not of the form field|asc or field|desc`);
    if (!sortable.includes(field)) throw new Error(`cannot sort by "${field}"`);
    if (direction !== 'asc' && direction !== 'desc') {
      throw new Error(`sort direction of "${field}" must be asc or desc`);
    }
    if (keys.some((k) => k.field === field)) throw new Error(`"${field}" is sorted by twice`);
    keys.push({ field, direction });
  }
  return keys;
}

export function formatSort(keys: readonly SortKey[]): string {
  return keys.map((k) => `${k.field}|${k.direction}`).join(',');
}

export interface Pagination {
  /** Rows in all; the planner's estimate when `estimated` (an unfiltered big table). */
  total: number;
  /** `total` is PostgreSQL's estimate, not a count: the range text says "about"; `count=exact` counts. */
  estimated?: boolean;
  per_page: number;
  current_page: number;
  last_page: number;
  from: number;
  to: number;
}

export interface Paged<Row> {
  data: Row[];
  /**
   * `next` and `prev`: cursors for the pages beside this one (keyset paging: the next page starts after this
   * page's last row, however deep, instead of skipping rows). Sent back as `cursor` with that page's number;
   * absent where the sort cannot be paged that way (a searched list, a sort on a column that may be empty).
   */
  links: { pagination: Pagination; next?: string; prev?: string };
}

/** A keyset cursor: the page after or before the record with this id, in the list's order. */
export interface Cursor {
  direction: 'after' | 'before';
  id: number;
}

const CURSOR = /^(after|before):([1-9][0-9]{0,9})$/;

export const formatCursor = (c: Cursor): string => `${c.direction}:${c.id}`;

/** `after:123` → the cursor; anything else is not one. */
export function parseCursor(text: string): Cursor | undefined {
  const m = CURSOR.exec(text);
  const id = Number(m?.[2]);
  return m && id <= INT4_MAX ? { direction: m[1] as Cursor['direction'], id } : undefined;
}

export function paginate(total: number, page: number, perPage: number, estimated = false): Pagination {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const skipped = (page - 1) * perPage;
  const empty = skipped >= total;
  return {
    total,
    per_page: perPage,
    current_page: page,
    last_page: lastPage,
    from: empty ? 0 : skipped + 1,
    to: empty ? 0 : Math.min(total, skipped + perPage),
    ...(estimated ? { estimated: true } : {}),
  };
}

/** `from-to of total`, the range text of every overview. */
export function rangeText(p: Pagination): string {
  return `${p.from}-${p.to} of ${p.estimated ? 'about ' : ''}${p.total}`;
}

const positiveInt = (name: string, max?: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max ?? INT4_MAX, `${name} must be at most ${max ?? INT4_MAX}`);

/** The paging and quick-filter part of every list query. */
export const ListParamsSchema = z.object({
  page: positiveInt('page').default(1),
  per_page: positiveInt('per_page', MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
  search: text('search').trim().max(200, 'search must be at most 200 characters').optional(),
  sort: text('sort').max(500, 'sort must be at most 500 characters').optional(),
  /** `exact`: count the rows even where an estimate would do (an unfiltered big table). */
  count: z.enum(['exact'], { error: 'count must be exact' }).optional(),
  /** From `links.next` / `links.prev`, with the number of the page it leads to. */
  cursor: text('cursor')
    .refine((c) => parseCursor(c) !== undefined, 'cursor must be a next or prev link of a list')
    .optional(),
});

export type ListParams = z.infer<typeof ListParamsSchema>;

export interface ListQuery<Filter> {
  page: number;
  perPage: number;
  search: string | undefined;
  sort: SortKey[];
  filters: Filter;
  /** Count the rows even where the planner's estimate would do. */
  exactCount?: boolean;
  /** Keyset paging: the page is the one after or before this record (`page` still numbers it). */
  cursor?: Cursor;
}
