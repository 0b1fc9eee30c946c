import type { z } from 'zod';
import type { Level } from '../auth/roles.js';
import type { SortKey } from './list.js';

/**
 * Everything the API and the web need to know about one resource. One file per resource in
 * `resources/` declares it; the generic machinery on both sides is configured by it.
 */
export interface ResourceDescriptor<
  Row extends z.ZodObject = z.ZodObject,
  Create extends z.ZodObject = z.ZodObject,
  Update extends z.ZodObject = z.ZodObject,
  Filter extends z.ZodObject = z.ZodObject,
> {
  /** Singular key, used for ids of overviews and query keys. */
  key: string;
  /** Singular title shown on the detail screen and in the delete confirmation. */
  title: string;
  /** Title of the overview. */
  titlePlural: string;
  /** Path under /api/v1.0, declared (never derived by pluralising). */
  apiPath: string;
  /** Web hash routes: overview and the detail prefix (`/country` → `/country/:id`). */
  routes: { overview: string; detail: string };
  schema: Row;
  createSchema: Create;
  updateSchema: Update;
  /** Advanced filter fields; `search` (quick filter) is always there. */
  filterSchema: Filter;
  sortable: readonly string[];
  defaultSort: readonly SortKey[];
  /** Name of the choice list this resource serves (`GET /{choice}/choice/`), if any. */
  choice?: string;
  /** Who may read and who may create, edit and delete (spec §6). */
  access: { read: Level; write: Level };
  /** False where records can never be deleted (users). */
  deletable: boolean;
  /** True where nobody creates or edits records through the API (the event log). */
  readOnly?: boolean;
  /** Fields whose values never appear in the event log (shown as ***). */
  secretFields?: readonly string[];
  /**
   * Field(s) naming a record for people: event messages, the detail heading, row labels. Several are joined
   * with a space (a student is "Łukasz Wiśniewski", not "Wiśniewski").
   */
  referenceField: string | readonly string[];
}

export function defineResource<
  Row extends z.ZodObject,
  Create extends z.ZodObject,
  Update extends z.ZodObject,
  Filter extends z.ZodObject,
>(d: ResourceDescriptor<Row, Create, Update, Filter>): ResourceDescriptor<Row, Create, Update, Filter> {
  return d;
}

export type AnyResource = ResourceDescriptor;

/** A record's name for people (see `referenceField`), or its id when those fields are empty. */
export function referenceOf(resource: Pick<AnyResource, 'referenceField'>, row: Record<string, unknown>): string {
  const fields = typeof resource.referenceField === 'string' ? [resource.referenceField] : resource.referenceField;
  const parts = fields.map((f) => row[f]).filter((v) => v !== null && v !== undefined && v !== '');
  return parts.length > 0 ? parts.map(String).join(' ') : String(row.id);
}
