import type { z } from 'zod';
import type { Level } from '../auth/roles.js';
import type { AnyAction } from './actions.js';
import { columnSortKey, overviewColumns, type ColumnDescriptor } from './columns.js';
import type { SortKey } from './list.js';
import type { ViewDescriptor } from './views.js';

/** A row as the API answers it; per-record rules and actions read it. */
export type RecordRow = Record<string, unknown>;

/**
 * Rules that depend on the record (CONVENTIONS "Views"): declared once, enforced by the API (409 with the
 * reason) and shown by the web (read-only fields, a disabled Delete whose tooltip says why).
 */
export interface RecordRules {
  /** Fields that cannot change on this record, each with the reason. */
  readOnlyFields?: (row: RecordRow) => Readonly<Record<string, string>>;
  /** Why this record cannot be deleted, or null when it can. */
  cannotDelete?: (row: RecordRow) => string | null;
  /**
   * Why a user of this role may not change or delete this record although the resource lets the role write
   * (a Developer's account, for an Administrator), or null. The API answers 403 with it.
   */
  lockedFor?: (row: RecordRow, role: string | undefined) => string | null;
}

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
  /** The columns of its overviews and exports (CONVENTIONS: declared once). */
  columns: readonly ColumnDescriptor<Extract<keyof z.infer<Row>, string>>[];
  /** Several overviews and detail routes over the resource; one made from the resource when absent. */
  views?: readonly ViewDescriptor[];
  /** Its actions (besides create, update and delete). */
  actions?: readonly AnyAction[];
  /** Bulk Edit of a selection: the fields it may change, and who may (DESIGN §4: Administrator). */
  bulkEdit?: { fields: readonly Extract<keyof z.input<Update>, string>[]; level: Level; /** The views that offer it; all when absent. */ views?: readonly string[] };
  /**
   * The xlsx export of the selection or the filtered list (`POST /{apiPath}/download_report`). Menus list it first
   * among the overview's list actions, or before the one named by `before`, as the spec orders them.
   */
  export?: { filename: string; sheet: string; label: string; before?: string };
  rules?: RecordRules;
  /** Who may read and who may create, edit and delete (spec §6). */
  access: { read: Level; write: Level };
  /** False where records can never be deleted (users). */
  deletable: boolean;
  /** True where nobody creates or edits records through the API (the event log). */
  readOnly?: boolean;
  /** Fields whose values never appear in the event log (shown as ***). */
  secretFields?: readonly string[];
  /** Bank numbers: the event log keeps their change with only the first and last four characters shown. */
  maskedFields?: readonly string[];
  /**
   * Field(s) naming a record for people: event messages, the detail heading, row labels. Several are joined
   * with a space (a student is "Łukasz Wiśniewski", not "Wiśniewski").
   */
  referenceField: string | readonly string[];
  /**
   * The name made from the record's fields where joining `referenceField` is not enough (a milestone's year as
   * `Y1`, its date as people read it). `referenceOf` answers it when it is not empty.
   */
  reference?: (row: RecordRow) => string;
  /**
   * The event-log field that links an event to this record when its History lists the events of its dependants
   * too (a contract's invoices, payments, documents and mails; a student's contracts and theirs). Only the
   * record's own events when absent.
   */
  historyLink?: 'contract_id' | 'student_id';
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

/** The resource's views, or its one default view. */
export function viewsOf(resource: AnyResource): readonly ViewDescriptor[] {
  return resource.views && resource.views.length > 0 ? resource.views : [defaultView(resource)];
}

export function defaultView(resource: AnyResource): ViewDescriptor {
  return { key: resource.key, title: resource.titlePlural, titleSingular: resource.title, routes: resource.routes };
}

/** The sort keys the column headers of a view's overview send: each column it shows that sorts (columnSortKey), once. */
export function viewSortKeys(resource: AnyResource, view: ViewDescriptor): string[] {
  const shown = view.columns ? resource.columns.filter((c) => view.columns!.includes(c.field)) : overviewColumns(resource.columns);
  return [...new Set(shown.map((c) => columnSortKey(c, resource.sortable)).filter((key): key is string => key !== null))];
}

/** Why a record cannot be deleted (the resource's rule, or that it is never deletable), or null. */
export function whyNotDeletable(resource: AnyResource, row: RecordRow): string | null {
  if (!resource.deletable) return `A ${resource.title} can never be deleted`;
  return resource.rules?.cannotDelete?.(row) ?? null;
}

/** Why this role may not change or delete this record (the resource's rule), or null. */
export function whyLockedFor(resource: AnyResource, row: RecordRow, role: string | undefined): string | null {
  return resource.rules?.lockedFor?.(row, role) ?? null;
}

/** The fields of this record that cannot change, each with the reason. */
export function readOnlyFieldsOf(resource: AnyResource, row: RecordRow): Readonly<Record<string, string>> {
  return resource.rules?.readOnlyFields?.(row) ?? {};
}

/** `DE89370400440532013000` → `DE89…3000`: enough to tell two accounts apart, not enough to use one. */
export function maskBankNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.length === 0) return value;
  return value.length <= 8 ? '…' : `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/** A record's name for people (see `referenceField`), or its id when those fields are empty. */
export function referenceOf(resource: Pick<AnyResource, 'referenceField' | 'reference'>, row: Record<string, unknown>): string {
  const made = resource.reference?.(row);
  if (made) return made;
  const fields = typeof resource.referenceField === 'string' ? [resource.referenceField] : resource.referenceField;
  const parts = fields.map((f) => row[f]).filter((v) => v !== null && v !== undefined && v !== '');
  return parts.length > 0 ? parts.map(String).join(' ') : String(row.id);
}
