import { and, asc, Column, count, desc, eq, getTableColumns, getTableName, gte, inArray, is, lte, SQL, sql, type Placeholder, type Query } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import {
  AppError,
  formatCursor,
  formatDateTime,
  paginate,
  readOnlyFieldsOf,
  referenceOf,
  whyLockedFor,
  whyNotDeletable,
  type AnyResource,
  type Cursor,
  type EventTypeKey,
  type FieldChanges,
  type ListQuery,
  type Paged,
  type SessionUser,
  type SortDirection,
  type SortKey,
  viewsOf,
} from '@app/contracts';
import { users, type Database, type DbOrTx, type Tx } from '@app/db';
import { cursorBatches } from '../cursor.js';
import { appErrorOfDatabase, registerConstraint, registerTable } from '../db-errors.js';
import { parseInput } from '../errors.js';
import { describeChanges, diffFields, recordEvent, type EventInput } from '../events/record.js';
import { withdrawMailsOf } from '../mail/withdraw.js';
import { filledParams, prepareNamed, prepareUnnamed, rowLimit, withPlaceholders, writeSql, type PreparedStatement } from '../prepared.js';
import { oncePerKey, type RequestKey } from './request-key.js';

export type Row = Record<string, unknown>;

/** The statement of a page's ids, in the page's order, or in the opposite order (`reversed`). */
interface PageIds {
  ids: SQL;
  reversed: boolean;
}
/** A quick filter in parts (CrudConfig `searchParts`). */
export interface SearchParts {
  own?: SQL;
  walked: SQL[];
  /** The rows `searchRank` ranks 0 (none without a rank). */
  first?: SQL;
}
/** Adds joins to a select. */
export type Join = (q: PgSelect) => PgSelect;
type Selection = Record<string, AnyPgColumn | SQL.Aliased | SQL>;

/** A table the generic machinery can serve: an integer id, and the edit audit pair unless read-only. */
export type CrudTable = PgTable & { id: AnyPgColumn; edit_timestamp?: AnyPgColumn; edit_user?: AnyPgColumn };

/** Who makes a change: the user and the session it comes from. */
export interface Actor {
  user: SessionUser;
  sessionId?: string;
}

/** A change just made, as the `afterChange` hook sees it. */
export type Change =
  | { op: 'create'; id: number; row: Row }
  | { op: 'update'; id: number; changed: FieldChanges }
  | { op: 'delete'; id: number; row: Row };

/**
 * Where a resource's rules go (CONVENTIONS "Generic machinery"). Every hook runs inside the transaction of the
 * change and is given it, so what a hook writes commits or rolls back with the change.
 */
export interface CrudHooks {
  /** Checks and turns validated input into the values stored (hashes a password, fills a default). */
  beforeCreate?: (tx: Tx, values: Row, actor: Actor) => Promise<Row> | Row;
  /** Given the changes and the record as it is (locked); returns what to store. */
  beforeUpdate?: (tx: Tx, changes: Row, current: Row, actor: Actor) => Promise<Row> | Row;
  beforeDelete?: (tx: Tx, row: Row, actor: Actor) => Promise<void> | void;
  afterChange?: (tx: Tx, change: Change, actor: Actor) => Promise<void> | void;
  /** The event of an update, when not the default (`update`, listing the changed fields). */
  updateEvent?: (changed: FieldChanges, reference: string) => { type: EventTypeKey; message: string } | undefined;
}

export interface CrudConfig<T extends CrudTable = CrudTable> {
  resource: AnyResource;
  table: T;
  /** The row as the API answers it: field name → column or SQL (joined names included). */
  columns: Selection;
  /**
   * Fields only a record's detail answers (`GET /{path}/{id}`: one row), not its lists: look-ups a list has no use
   * for. A page sorted without an index evaluates its columns for every row it sorts, before its LIMIT.
   */
  detailColumns?: Selection;
  /** Joins the `columns` need. */
  joins?: (q: PgSelect) => PgSelect;
  /**
   * The same joins for an export, which reads every row of a list at once: where a join per row (a LATERAL sum)
   * is right for a page, one pass over the joined table is quicker for all of them (the contracts' money).
   */
  exportJoins?: (q: PgSelect) => PgSelect;
  /**
   * The joins the count of a list needs: those its search and filters refer to (all of `joins` when not
   * given). The others only add columns: to-one joins on a required key (inner) or any key (left) never
   * change how many rows there are, so counting without them gives the same number, faster.
   */
  countJoins?: (q: PgSelect) => PgSelect;
  /** The quick filter: a condition for a (trimmed, non-empty) search text. */
  search: (term: string) => SQL | undefined;
  /**
   * How well a row matches the search text, lower first (e.g. 0 where a name starts with it): a searched list
   * shows those first, then the rest, each in the list's sort. Ordering by it also lets PostgreSQL find the
   * matches through the search index instead of walking the sort's index and testing every row.
   */
  searchRank?: (term: string) => SQL;
  /**
   * The quick filter in parts (for a text, or none: then `search` alone), for a table where it can find tens of
   * thousands of rows (invoices: a common name's contracts hold 37k of them; "a" finds most of any table), with
   * `searchRank`'s rank-0 rows as a condition (`first`). A searched page is then the union of each part's first
   * rows, so each part is planned for its own rows: `own` (the table's own text: few rows, collected and ranked),
   * and each of `walked` twice — its rows that rank 0, then all its rows in the sort's order. One EXPLAIN first
   * estimates each: one that finds few rows is collected and sorted, one that finds many is left to PostgreSQL,
   * which walks the sort's index (decision 028). `search` stays their OR for exports. The count of such a list
   * is the planner's estimate of the parts' rows when that is big (marked, as for an unfiltered list), exact on
   * request and whenever the estimate is small: counted part by part.
   */
  searchParts?: (term: string) => SearchParts | undefined;
  /**
   * The join that reads each sortable field of another table (the same function for fields of one table), and
   * the one the search rank reads (`rankJoin`; none when it reads the table's own columns): a page is then found
   * joining only those, besides `countJoins`, which none of them may repeat. A sort by a field without one
   * joins everything.
   */
  sortJoins?: Readonly<Record<string, Join>>;
  rankJoin?: Join;
  /**
   * Sortable fields that are the name of a lookup row (a program's short name, a status): the table's key to the
   * lookup (NOT NULL, indexed with the id: `(program_id, id)`) and the lookup's id. Sorted by such a name alone,
   * a page is found per lookup row — each one's first rows by id, through that index — and those few sorted.
   * PostgreSQL cannot carry the id order of a nested loop's inner side: it sorted each name's rows whole (an
   * Incremental Sort), a program's 100k contracts for 50, testing each one against the filter (1.2 s).
   */
  lookupSorts?: Readonly<Record<string, { key: AnyPgColumn; id: AnyPgColumn }>>;
  /**
   * Sortable fields read through an inner join on a required key, so never NULL (a student's last name on a
   * contract): like the table's own NOT NULL columns, a list sorted by them is paged by keyset (`links.next`).
   */
  neverNull?: readonly string[];
  /**
   * Sortable fields that are never NULL in a list with a given filter (an invoice's number in the credit-note
   * view): field → whether the query's filters make it so. The database must hold the rule (a CHECK, or the
   * filter's own condition), or a keyset page would skip the rows whose key is empty.
   */
  neverNullWhen?: Readonly<Record<string, (filters: Readonly<Record<string, unknown>>) => boolean>>;
  /**
   * Sortable fields that are NULL in every row a list with a given filter finds (an invoice's number in the
   * planned view, by the filter's own condition): a sort by them orders nothing there and is left out.
   */
  alwaysNullWhen?: Readonly<Record<string, (filters: Readonly<Record<string, unknown>>) => boolean>>;
  /**
   * Filter values no row can meet together, by a CHECK or by the filters' own conditions (a planned scholarship
   * payment that is exported): the list's condition is then `false`, which PostgreSQL answers without reading a
   * row. Otherwise a page walked a sort's index through every row looking for one (0.05–0.9 s to show nothing).
   */
  emptyWhen?: (filters: Readonly<Record<string, unknown>>) => boolean;
  /**
   * One condition builder per advanced filter field of the descriptor. It also gets every filter value given, for
   * fields that hold together (one EXISTS for several fields of another table); the others then answer nothing.
   */
  filters?: Record<string, (value: unknown, all: Readonly<Record<string, unknown>>) => SQL | undefined>;
  /**
   * Filter fields whose exact count is costly however it is indexed (a contract "with an open invoice": a
   * probe of every contract's invoices, and of each invoice's credit notes). A list filtered by one of them
   * counts like an unfiltered big list: the planner's estimate of its rows, marked as such, when that is big
   * enough to be worth it; exact on request (`count=exact`) and whenever the estimate is small.
   */
  estimatedFilters?: readonly string[];
  /** Unique constraint name → the field it guards and its label, named by the 409. */
  unique?: Record<string, { field: string; label: string }>;
  /** The student and contract an event about this row concerns (shown in the event log). */
  eventLinks?: (row: Row) => Pick<EventInput, 'studentId' | 'contractId'>;
  hooks?: CrudHooks;
}

/** Options of a write made inside a larger piece of work (an action, a batch row). */
export interface WriteOptions {
  /** The transaction to write in; a new one otherwise. */
  tx?: Tx;
  /** The event type of an update (`bulkEdit` for Bulk Edit rows). */
  eventType?: EventTypeKey;
  /** A create sent with an Idempotency-Key (decision 050): done once, a repeat answers the first's id. */
  requestKey?: RequestKey;
}

/** The column each value made by `sortedBy` orders as. */
const sortColumns = new WeakMap<SQL, AnyPgColumn>();

/**
 * A value of a list's columns that orders as `column` does (a cast of it, a coalesce of a column never NULL
 * there): a list sorted by it is ordered by the column itself, which an index can serve and which needs no join
 * of its own table. Sorted by the expression, the invoice payments by amount read and sorted all 583k (1.2 s).
 */
export function sortedBy<T>(value: SQL<T>, column: AnyPgColumn): SQL<T> {
  sortColumns.set(value, column);
  return value;
}

/** A NUMERIC money column answered as a JSON number (its arithmetic stays in SQL); sorted by the column (cents apart are doubles apart). */
export function moneyValue(column: AnyPgColumn): SQL<number> {
  return sortedBy(sql<number>`(${column})::float8`, column);
}

/**
 * The next edit_timestamp of a row: strictly increasing, so two quick edits never share one (it is the
 * version a client sends back in If-Match).
 */
export function nextEditStamp(column: AnyPgColumn): SQL<Date> {
  return sql<Date>`greatest(clock_timestamp(), ${column} + interval '1 millisecond')`;
}

/**
 * A body field the schema does not know (a read-only or misspelt field) is refused with a 400 naming it,
 * never dropped in silence.
 */
function refuseUnknownFields(schema: AnyResource['createSchema'], input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
  const known = new Set(Object.keys(schema.shape));
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new AppError('BAD_REQUEST', `Invalid input: ${unknown.join(', ')}`, Object.fromEntries(unknown.map((k) => [k, [`${k} cannot be set here`]])));
  }
}

/** User text as part of a LIKE pattern: `%`, `_` and `\` match themselves. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** An ILIKE pattern finding the user's text anywhere. */
export function likePattern(term: string): string {
  return `%${likeEscape(term)}%`;
}

/** A change that overwrites fields must say which version of the record it was made on (issue 10). */
export function requireVersion(version: string | undefined, what = 'If-Match'): asserts version is string {
  if (version === undefined || version.trim() === '') {
    throw new AppError('PRECONDITION_REQUIRED', `${what} is required: send the edit_timestamp of the record you read`, {
      [what]: [`${what} is required`],
    });
  }
}

/** The version a client sends back (If-Match, a batch row's version): the edit_timestamp it saw. */
export function parseVersion(text: string): Date {
  const seen = new Date(text.replace(/^W\//, '').replace(/"/g, ''));
  if (Number.isNaN(seen.getTime())) {
    throw new AppError('BAD_REQUEST', 'Invalid If-Match', { 'If-Match': ['If-Match must be the edit_timestamp you saw'] });
  }
  return seen;
}

/**
 * From how many rows an unfiltered list answers PostgreSQL's estimate instead of counting: counting 100k rows
 * costs more than finding the page, on every page turn.
 */
export const ESTIMATE_FROM_ROWS = 10_000;

/**
 * Below how many rows the planner expects an arm of a search in parts to find, its first rows are found by reading
 * them all and sorting them, never by walking the sort's index for them (decision 028). A searched choice list
 * ordered by indexed columns (the students) decides the same way.
 */
export const COLLECT_BELOW_ROWS = 10_000;

/**
 * How many rows of its view's order a filtered page by number walks at most (decision 032). A filter that finds
 * many rows, but none of them near the start of the order, made PostgreSQL walk the sort's index past every row
 * before them: the numbered invoices of round 1 by invoice date, newest first, walked 483k invoices (0.6 s). A page
 * the walk does not fill within this many rows is found by collecting the filter's rows and sorting them.
 */
export const WALK_AT_MOST_ROWS = 2_000;

/** A value made by `make` the first time it is asked for, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** How many list shapes (sort, filters, page size) a resource keeps the prepared statements of. */
const LIST_SHAPES_KEPT = 200;

/** How long a table's row estimate is reused. */
const ESTIMATE_TTL_MS = 10_000;

export type CrudService = ReturnType<typeof createCrudService>;

/** Columns every table has for its audit trail, not for what the record says. */
const AUDIT_COLUMNS = new Set(['id', 'edit_timestamp', 'edit_user', 'creation_timestamp', 'creation_user', 'created_timestamp', 'created_user']);

/**
 * The service of a resource: list, get, create, update (with stale-edit check and per-record rules), delete,
 * lock and iterate, built from the table and the descriptor. Resources add rules through hooks.
 */
/**
 * The generic service of a resource. `ctx`: the database, and the office's time zone (APP_TIMEZONE) its messages
 * name times in ("changed by … at 29-11-2026 10:15").
 */
export function createCrudService<T extends CrudTable>(ctx: { db: Database; env: { APP_TIMEZONE: string } }, config: CrudConfig<T>) {
  const { db } = ctx;
  const pool = db.$client;
  const { resource, columns } = config;
  const table = config.table as T & { edit_timestamp: AnyPgColumn; edit_user: AnyPgColumn };
  if (!resource.readOnly && (!config.table.edit_timestamp || !config.table.edit_user)) {
    throw new Error(`${resource.key}: an editable table needs edit_timestamp and edit_user`);
  }
  const withJoins: Join = (q) => (config.joins ? config.joins(q) : q);
  const withCountJoins = config.countJoins ?? withJoins;
  if ((config.sortJoins || config.rankJoin) && !config.countJoins) {
    throw new Error(`${resource.key}: sortJoins and rankJoin go beside countJoins (the filter's joins), which they must not repeat`);
  }
  const hooks = config.hooks ?? {};
  for (const field of Object.keys(resource.filterSchema.shape)) {
    if (!config.filters?.[field]) throw new Error(`${resource.key}: filter "${field}" has no condition`);
  }
  for (const field of resource.sortable) {
    if (!(field in columns)) throw new Error(`${resource.key}: sortable "${field}" is not a column`);
  }
  const tableName = getTableName(config.table);
  registerTable(tableName, resource);
  for (const [constraint, named] of Object.entries(config.unique ?? {})) registerConstraint(constraint, named.field, named.label);

  const inTransaction = <R>(tx: Tx | undefined, work: (tx: Tx) => Promise<R>): Promise<R> => (tx ? work(tx) : db.transaction(work));

  function sortColumn(field: string): AnyPgColumn | SQL {
    const c = columns[field];
    if (!c) throw new Error(`${resource.key}: no column ${field}`);
    return columnOf(field) ?? ('getSQL' in c && !('table' in c) ? (c as SQL.Aliased).getSQL() : (c as AnyPgColumn));
  }

  /** The sort field's column when it is one (not a computed expression), or the one it is sorted by (`sortedBy`). */
  const columnOf = (field: string): AnyPgColumn | undefined => {
    const c = columns[field];
    return is(c, Column) ? (c as AnyPgColumn) : is(c, SQL) ? sortColumns.get(c) : undefined;
  };

  /**
   * The joins that finding a page needs: the filter's (`countJoins`), and those of the order — a sort field of
   * another table, the search rank. Everything when one of them is not declared.
   */
  function pageJoinsOf(sort: readonly SortKey[], search: string | undefined): Join {
    const needed = new Set<Join>();
    for (const k of sort) {
      if (columnOf(k.field)?.table === config.table) continue;
      const join = config.sortJoins?.[k.field];
      if (!join) return withJoins;
      needed.add(join);
    }
    if (search && config.searchRank && config.rankJoin) needed.add(config.rankJoin);
    return (q) => [...needed].reduce((joined, join) => join(joined), withCountJoins(q));
  }

  /** The direction ties are broken in (by id): the sort's when it has one direction, so a keyset spans it. */
  const tieDirection = (sort: readonly SortKey[]): SortDirection =>
    sort.length > 0 && sort.every((k) => k.direction === sort[0]?.direction) ? (sort[0]?.direction ?? 'asc') : 'asc';

  /**
   * The order's columns (the id last) when a page can be found from the row beside it — keyset paging: every
   * key a column that is never NULL (always, or in a list with these filters), all in one direction. Otherwise
   * pages are found by skipping rows.
   */
  type Keyset = { keys: AnyPgColumn[]; direction: SortDirection };
  function keysetOf(sort: readonly SortKey[], filters: Readonly<Record<string, unknown>>): Keyset | undefined {
    const keys: AnyPgColumn[] = [];
    for (const k of sort) {
      const c = columnOf(k.field);
      const neverNull =
        c !== undefined &&
        ((c.table === config.table && c.notNull) || config.neverNull?.includes(k.field) || config.neverNullWhen?.[k.field]?.(filters) === true);
      if (!neverNull || k.direction !== sort[0]?.direction) return undefined;
      keys.push(c);
    }
    return { keys: [...keys, table.id], direction: tieDirection(sort) };
  }

  /**
   * The sort as it orders a list with these filters: without the keys that are NULL in each of its rows
   * (`alwaysNullWhen`), the ties still broken by id in the direction the whole sort gives. Kept, such a key made
   * PostgreSQL walk its index past every row that has a value (the planned invoices by number: 60–180 ms).
   */
  function effectiveSort(sort: SortKey[], filters: Readonly<Record<string, unknown>>): SortKey[] {
    const empty = config.alwaysNullWhen;
    const kept = empty ? sort.filter((k) => empty[k.field]?.(filters) !== true) : sort;
    if (kept.length === sort.length) return sort;
    const tie = tieDirection(sort);
    return kept.length > 0 && tieDirection(kept) === tie ? kept : [...kept, { field: 'id', direction: tie }];
  }

  function withEffectiveSort<Q extends Pick<ListQuery<Record<string, unknown>>, 'sort' | 'filters'>>(query: Q): Q {
    const sort = effectiveSort(query.sort, query.filters);
    return sort === query.sort ? query : { ...query, sort };
  }

  function orderOf(sort: readonly SortKey[], search?: string) {
    const rank = search && config.searchRank ? [asc(config.searchRank(search))] : [];
    const tie = tieDirection(sort) === 'asc' ? asc(table.id) : desc(table.id);
    return [...rank, ...sort.map((k) => (k.direction === 'asc' ? asc(sortColumn(k.field)) : desc(sortColumn(k.field)))), tie];
  }

  function whereOf(query: Pick<ListQuery<Record<string, unknown>>, 'search' | 'filters'>): SQL | undefined {
    const conditions: (SQL | undefined)[] = [];
    if (query.search) conditions.push(config.search(query.search));
    for (const [field, value] of Object.entries(query.filters)) conditions.push(config.filters?.[field]?.(value, query.filters));
    if (config.emptyWhen?.(query.filters)) conditions.push(sql`false`);
    return and(...conditions);
  }

  function selectRows(db: DbOrTx, extra: Selection = {}) {
    return withJoins(db.select({ ...columns, ...extra }).from(table as PgTable).$dynamic());
  }

  /**
   * The rows of a page, their joins and computed columns, by their ids: one named statement, which each pooled
   * connection plans once. Planning them took 2.5–3 ms of a filtered invoice page's 6.5 ms in PostgreSQL, on every
   * request, where a page planned for its filter's values was one statement (decision 068).
   */
  const rowsById = once(() => prepareNamed(selectRows(db).where(sql`${table.id} = any(${sql.placeholder('ids')})`)));

  /**
   * A page as the statement of its ids, in the page's order (`reversed`: in the opposite order, as the page
   * before a cursor is found), then its rows by rowsById, in that order. For a page planned for its filter's
   * values, or written for one request: only the ids are planned each time.
   */
  function pageByIds({ ids, reversed }: PageIds): PreparedStatement<Row[]> {
    const written = writeSql(ids);
    return {
      async execute(values = {}) {
        const found = (await pool.query<{ id: number }>(written.sql, filledParams(written, values))).rows.map((r) => Number(r.id));
        if (reversed) found.reverse();
        if (found.length === 0) return [];
        const byId = new Map((await rowsById().execute({ ids: found })).map((row) => [Number(row.id), row]));
        return found.flatMap((id) => byId.get(id) ?? []);
      },
    };
  }

  /**
   * The statement of a page of a list shape: one named statement, ids and rows together, when the shape's filter
   * holds no values (planned once per connection, as everything else of it); else `pageByIds`.
   */
  function pageStatement(page: PageIds, query: ListQuery<Record<string, unknown>>, planOnce: boolean): PreparedStatement<Row[]> {
    if (!planOnce) return pageByIds(page);
    return prepareNamed(selectRows(db).where(sql`${table.id} in (${page.ids})`).orderBy(...orderOf(query.sort, query.search)));
  }

  /**
   * One record by id, outside a transaction, as a named prepared statement: planning its joins and computed
   * columns took 3–4 ms of the 4 ms an invoice's read cost PostgreSQL; each pooled connection now plans it once.
   */
  const getById = once(() => prepareNamed(selectRows(db, config.detailColumns).where(eq(table.id, sql.placeholder('id')))));
  async function get(id: number, tx: DbOrTx = db): Promise<Row> {
    const [row] = tx === db ? await getById().execute({ id }) : await selectRows(tx, config.detailColumns).where(eq(table.id, id));
    if (!row) throw new AppError('NOT_FOUND', `${resource.title} ${id} not found`);
    return row;
  }

  /**
   * The record, locked for the rest of the transaction, with the version it is at and who made it: every
   * change of a record starts here, so concurrent changes take turns. The lock is taken on the table alone and
   * the row read after it: a locking query with outer joins can lose a row another transaction changed
   * meanwhile (PostgreSQL rechecks the join against the new version), which answered 404 instead of 409.
   */
  async function lock(tx: Tx, id: number): Promise<{ row: Row; stamp: Date; editUser: number | null }> {
    const [locked] = await tx
      .select({ stamp: table.edit_timestamp, editUser: table.edit_user })
      .from(table as PgTable)
      .where(eq(table.id, id))
      .for('update');
    if (!locked) throw new AppError('NOT_FOUND', `${resource.title} ${id} not found: it may have been deleted`);
    return { row: await get(id, tx), stamp: locked.stamp as Date, editUser: (locked.editUser as number | null) ?? null };
  }

  /**
   * The planner's row estimate of the table when it is big enough to be worth it (never analysed: none). It
   * changes only when PostgreSQL analyses the table, so it is read at most every ESTIMATE_TTL_MS, not on every
   * page turn.
   */
  let estimate: { rows: Promise<number | undefined>; until: number } | undefined;
  function estimatedRows(): Promise<number | undefined> {
    if (!estimate || estimate.until < Date.now()) {
      const rows = pool
        .query<{ n: number }>('SELECT reltuples::float8 AS n FROM pg_class WHERE oid = $1::regclass', [tableName])
        .then(({ rows: [row] }) => (row !== undefined && row.n >= ESTIMATE_FROM_ROWS ? Math.round(row.n) : undefined));
      estimate = { rows, until: Date.now() + ESTIMATE_TTL_MS };
      rows.catch(() => (estimate = undefined));
    }
    return estimate.rows;
  }

  /**
   * The EXPLAIN that gives the planner's estimate of the rows a filter finds (planned, not run). Several
   * conditions: the union of their rows (the parts of a search, each planned for its own rows).
   */
  function plannedRowsQuery(where: SQL | SQL[]): Query {
    const rows = Array.isArray(where) ? sql.join(where.map((w) => sql`(${idsWhere(w)})`), sql` union all `) : idsWhere(where).getSQL();
    return writeSql(sql`EXPLAIN (FORMAT JSON) ${rows}`);
  }
  /** The ids of the rows a condition finds, with the joins a count needs. */
  const idsWhere = (condition: SQL) => withCountJoins(db.select({ id: table.id }).from(table as PgTable).$dynamic()).where(condition);

  /**
   * The arms of a search in parts, in the order pageByParts reads them: the own part, then each walked part's
   * rows that rank 0 (with a rank) and all its rows.
   */
  const armsOf = ({ own, walked, first }: SearchParts): { condition: SQL; kind: 'own' | 'first' | 'part' }[] => [
    ...(own ? [{ condition: own, kind: 'own' as const }] : []),
    ...walked.flatMap((part) => [...(first ? [{ condition: and(first, part)!, kind: 'first' as const }] : []), { condition: part, kind: 'part' as const }]),
  ];

  /**
   * The exact count of a search in parts: the rows each part finds, through its own index, counted once. As one
   * condition, an OR holding a semi-join (the contracts found) cannot be a bitmap of index searches, and read
   * every row (400k scholarship payments: 0.1 s for a text found nowhere).
   */
  const countOfParts = (filtered: SQL | undefined, parts: SearchParts) =>
    db.execute<{ total: number }>(
      sql`select count(*)::int as total from (${sql.join(
        armsOf(parts)
          .filter((arm) => arm.kind !== 'first')
          .map((arm) => idsWhere(and(filtered, arm.condition)!).getSQL()),
        sql` union `,
      )}) found`,
    );

  interface PlanNode {
    'Node Type': string;
    'Plan Rows': number;
    Filter?: string;
    'Join Filter'?: string;
    'Hash Cond'?: string;
    Plans?: PlanNode[];
  }
  /** The plan of a plannedRowsQuery (its placeholders filled). */
  async function planOf(explain: Query, values: Record<string, unknown> = {}): Promise<PlanNode> {
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain.sql, filledParams(explain, values));
    return rows[0]!['QUERY PLAN'][0].Plan;
  }
  /** The planner's estimate of a count, when big enough to be worth answering instead of counting. */
  const worthEstimating = (planned: number): number | undefined => (planned >= ESTIMATE_FROM_ROWS ? Math.round(planned) : undefined);

  /**
   * The planner's estimate of the rows of each arm of a search (armsOf) and of the list it searches (the filter
   * alone), from one EXPLAIN; and of the search: the sum of its parts, but at most the list's rows, however much
   * the parts overlap (every numbered invoice's reference and every contract hold an "a": 1.8M for 883k invoices).
   */
  async function plannedParts(filtered: SQL | undefined, parts: SearchParts): Promise<{ arms: number[]; found: number }> {
    const arms = armsOf(parts);
    const plan = await planOf(plannedRowsQuery([filtered ?? sql`true`, ...arms.map((arm) => and(filtered, arm.condition)!)]));
    const [list, ...rows] = (plan['Node Type'] === 'Append' && plan.Plans?.length === arms.length + 1 ? plan.Plans : []).map((p) => p['Plan Rows']);
    // A plan of another shape (PostgreSQL proved an arm empty and left it out): nothing is known of the arms.
    if (list === undefined) return { arms: arms.map(() => Infinity), found: plan['Plan Rows'] };
    const found = rows.reduce((sum, n, k) => (arms[k]!.kind === 'first' ? sum : sum + n), 0);
    return { arms: rows, found: Math.min(list, found) };
  }

  /** The exact count of the rows a filter finds: the table with the filter's joins only. */
  const countOf = (where: SQL | undefined) => withCountJoins(db.select({ total: count() }).from(table as PgTable).$dynamic()).where(where);

  /** Whether the filters are exactly a view's fixed filter (the planned scholarship payments), nothing more. */
  const isViewFilter = (filters: Readonly<Record<string, unknown>>) =>
    viewsOf(resource).some(
      ({ fixedFilter }) =>
        fixedFilter !== undefined &&
        Object.keys(filters).length === Object.keys(fixedFilter).length &&
        Object.entries(fixedFilter).every(([field, value]) => filters[field] === value),
    );

  /**
   * An order by the names a subquery selects its sort keys as (`k0`, `k1`, … and `id`), in the sort's directions,
   * the ties broken by id.
   */
  function sortedByAliases(from: string, keys: readonly { direction: SortDirection }[], tie: SortDirection): SQL {
    const direction = (d: SortDirection) => (d === 'asc' ? sql`asc` : sql`desc`);
    const alias = (name: string) => sql`${sql.identifier(from)}.${sql.identifier(name)}`;
    return sql.join([...keys.map((k, i) => sql`${alias(`k${i}`)} ${direction(k.direction)}`), sql`${alias('id')} ${direction(tie)}`], sql`, `);
  }

  /** The condition of the view whose fixed filter these filters hold (the biggest such view), if any. */
  function viewWhereOf(filters: Readonly<Record<string, unknown>>): SQL | undefined {
    const fixed = viewsOf(resource)
      .map(({ fixedFilter }) => fixedFilter ?? {})
      .filter((f) => Object.entries(f).every(([field, value]) => filters[field] === value))
      .sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0];
    return fixed && Object.keys(fixed).length > 0 ? whereOf({ search: undefined, filters: fixed }) : undefined;
  }

  /**
   * One page by its number among the first WALK_AT_MOST_ROWS rows of the view's order (the list unfiltered but for
   * its view's own filter): those rows are a subquery named as the table, so the filter reads them as it reads the
   * table. PostgreSQL walks the sort's index for them and stops at the page's last row, or at the last of them.
   */
  function pageInHead(query: ListQuery<Record<string, unknown>>, where: SQL | undefined, offset: number | Placeholder) {
    const order = orderOf(query.sort);
    const head = db
      .select()
      .from(table as PgTable)
      .where(viewWhereOf(query.filters))
      .orderBy(...order)
      .limit(WALK_AT_MOST_ROWS);
    // The id as SQL: drizzle refuses a column of a table the query does not name in its FROM.
    const ids = pageJoinsOf(query.sort, undefined)(db.select({ id: sql`${table.id}` }).from(sql`(${head}) ${sql.identifier(tableName)}`).$dynamic())
      .where(where)
      .orderBy(...order)
      .limit(rowLimit(query.perPage))
      .offset(offset);
    return { ids: ids.getSQL(), reversed: false };
  }

  /**
   * One page by its number, its rows collected and sorted: the filter's rows are read whole with their sort keys
   * (OFFSET 0 keeps the order and limit out of their plan), never found by walking the sort's index.
   */
  function pageCollected(query: ListQuery<Record<string, unknown>>, where: SQL | undefined, offset: number | Placeholder) {
    const keys = query.sort.map((k) => ({ key: sortColumn(k.field), direction: k.direction }));
    const rows = pageJoinsOf(query.sort, undefined)(
      db
        .select({ id: sql`${table.id}`.as('id'), ...Object.fromEntries(keys.map((k, i) => [`k${i}`, sql`${k.key}`.as(`k${i}`)])) })
        .from(table as PgTable)
        .$dynamic(),
    ).where(where);
    const ids = sql`select c.id from (${rows} offset 0) c order by ${sortedByAliases('c', keys, tieDirection(query.sort))} limit ${rowLimit(query.perPage)} offset ${offset}`;
    return { ids, reversed: false };
  }

  /**
   * How an early filtered page by number is found, unless PostgreSQL's plan for it is kept (decision 032). A plan
   * that walks an index in the list's order and drops rows on the way (a Filter, a join's condition) reads as
   * many rows as come before the page's in that order, which its estimate cannot know: the numbered invoices of
   * round 1 newest first walked 483k invoices (0.6 s), the numbered scholarship payments of an intake that has none,
   * by student, all 100k contracts by name (0.4 s). Such a page is looked for among the first rows of its view's
   * order when the sort is by the table's own columns (`walked`); else, when the filter finds few rows, they are
   * collected and sorted. A plan
   * that sorts what it finds, or walks an index that holds the filter too (the invoices of an intake by number),
   * is kept. A view's own filter is left to PostgreSQL: its index serves it.
   */
  async function filteredPageWay(
    query: ListQuery<Record<string, unknown>>,
    where: SQL,
    offset: number,
    statements: ListStatements | undefined,
    values: Record<string, unknown>,
    plannedRows: () => Promise<number>,
  ): Promise<'collected' | 'walked' | undefined> {
    if (query.search || offset + query.perPage > WALK_AT_MOST_ROWS / 10 || isViewFilter(query.filters)) return undefined;
    const plan = await planOf(statements?.walking?.().explained ?? explainedPageIds(query, where, offset), { ...values, offset });
    if (!walksPastRows(plan)) return undefined;
    if (query.sort.every((k) => columnOf(k.field)?.table === config.table)) return 'walked';
    // Sorted by another table's column, only a filter of few rows is collected: one of many is left to the walk,
    // which finds them soon if they are spread over the order. Collected, the open invoices by student computed
    // every numbered invoice's money (3.6 s).
    return (await plannedRows()) < COLLECT_BELOW_ROWS ? 'collected' : undefined;
  }

  /**
   * Whether the plan of a page's ids walks an index in the list's order (no Sort under its Limit) and drops rows
   * on the way: a Filter, or a join's condition (a filter on another table, a semi-join).
   */
  function walksPastRows(plan: PlanNode): boolean {
    const below = plan['Node Type'] === 'Limit' ? plan.Plans?.[0] : undefined;
    if (!below || below['Node Type'] === 'Sort') return false;
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    return nodes(below).some((n) => n.Filter !== undefined || n['Join Filter'] !== undefined || n['Hash Cond'] !== undefined || n['Node Type'] === 'Nested Loop');
  }

  /**
   * A filtered page by number, its rows collected and sorted (`collected`), or found among the first
   * WALK_AT_MOST_ROWS rows of its view's order and collected when they do not fill it (`walked`). Either is
   * bounded: the walk by its rows, the collection by the filter's.
   */
  async function filteredPage(
    way: 'collected' | 'walked',
    query: ListQuery<Record<string, unknown>>,
    where: SQL,
    offset: number,
    statements: ListStatements | undefined,
    values: Record<string, unknown>,
  ): Promise<Row[]> {
    const params = { ...values, offset };
    if (way === 'walked') {
      const walked = await (statements?.walking?.().walked ?? pageByIds(pageInHead(query, where, offset))).execute(params);
      if (walked.length === query.perPage) return walked;
    }
    return (statements?.walking?.().collected ?? pageByIds(pageCollected(query, where, offset))).execute(params);
  }

  /** The lookup sort (`lookupSorts`) of a list sorted by one lookup's name alone, not searched. */
  function lookupSortOf(query: Pick<ListQuery<Record<string, unknown>>, 'sort' | 'search'>) {
    const [only, ...more] = query.sort;
    const lookup = only && more.length === 0 && !query.search ? config.lookupSorts?.[only.field] : undefined;
    const name = only && columnOf(only.field);
    return lookup && name ? { ...lookup, name, direction: only.direction } : undefined;
  }
  type LookupSort = NonNullable<ReturnType<typeof lookupSortOf>>;

  /**
   * A page of a list sorted by a lookup's name (`lookupSorts`), by its number or from a cursor. The lookup rows are
   * read first, ranked by name; then each one's first rows by id are found in an arm of their own, its key a
   * constant, and the page taken among them. A constant lets PostgreSQL plan each arm for its own rows: a key
   * joined in (LATERAL) was planned as an average one, and walked the whole table by id for a type without rows
   * (0.1 s each). The statement is kept with the list's shape, per page (or cursor side) and set of lookup rows
   * (`ListStatements.lookup`), run with the filter's values and the cursor's id: writing it for each request cost
   * about 2 ms. A filter the planner expects to find
   * fewer than COLLECT_BELOW_ROWS rows is not paged this way (`list`).
   */
  async function lookupPageRows(
    query: ListQuery<Record<string, unknown>>,
    lookup: LookupSort,
    filter: { where: SQL | undefined; values: Record<string, unknown>; kept: Map<string, PreparedStatement<Row[]>> | undefined },
    cursor?: Cursor,
  ): Promise<Row[]> {
    const ranks = await db
      .select({ id: sql<number>`${lookup.id}`, r: sql<number>`(dense_rank() over (order by ${lookup.name}) - 1)::int` })
      .from(lookup.id.table as PgTable);
    if (ranks.length === 0) return [];
    // A filter that cannot be split into text and values (no kept shape) is written into a statement of its own.
    if (!filter.kept) return pageByIds(lookupPage(query, lookup, ranks, filter.where, cursor && { direction: cursor.direction, id: cursor.id })).execute();
    const key = JSON.stringify([cursor ? cursor.direction : query.page, ranks]);
    const statement =
      filter.kept.get(key) ??
      rememberShape(filter.kept, key, pageByIds(lookupPage(query, lookup, ranks, filter.where, cursor && { direction: cursor.direction, id: sql.placeholder('cursor') })));
    return statement.execute({ ...filter.values, cursor: cursor?.id });
  }

  /** The statement of `lookupPageRows`, for these lookup rows and ranks. */
  function lookupPage(
    query: ListQuery<Record<string, unknown>>,
    lookup: LookupSort,
    ranks: readonly { id: number; r: number }[],
    where: SQL | undefined,
    cursor?: { direction: Cursor['direction']; id: number | Placeholder },
  ) {
    const ascending = (lookup.direction === 'asc') === ((cursor?.direction ?? 'after') === 'after');
    const [gt, dir] = ascending ? [sql`>`, sql`asc`] : [sql`<`, sql`desc`];
    const skip = cursor ? 0 : (query.page - 1) * query.perPage;
    const upTo = rowLimit(query.perPage + skip);
    // From a cursor: the names beyond the cursor's, and of its name the rows beyond it by id.
    const rankOfKey = sql`(case ${lookup.key} ${sql.join(ranks.map(({ id, r }) => sql`when ${id} then ${r}::int`), sql` `)} end)`;
    const anchor = cursor && sql`(select ${rankOfKey} from ${table} where ${table.id} = ${cursor.id})`;
    // The names in the page's order: each one's arm is read only while the arms before it hold fewer rows than the
    // page needs (a one-time filter on their count, `c{k}`), so a name after a full page is never walked. Read
    // whole, a filter's names without a match walked all their rows: the contracts with an invoice planned before
    // a date by status, 250 ms when the first status filled the page.
    const ordered = [...ranks].sort((a, b) => (ascending ? a.r - b.r : b.r - a.r));
    const name = (prefix: string, k: number) => sql.identifier(`${prefix}${k}`);
    const ctes = ordered.map(({ id, r }, k) => {
      const beyond = anchor && sql`(${r}::int ${gt} ${anchor} or (${r}::int = ${anchor} and ${table.id} ${gt} ${cursor!.id}))`;
      const rows = withCountJoins(db.select({ id: sql`${table.id}`.as('id'), r: sql`${r}::int`.as('r') }).from(table as PgTable).$dynamic())
        // The key as a range of one value: compared by `=` with a constant it drops out of the order, which the
        // primary key then serves, and PostgreSQL walked every id for a key's rows (0.1 s for a type without any).
        .where(and(gte(lookup.key, id), lte(lookup.key, id), where, beyond))
        .orderBy(...[lookup.key, table.id].map((k) => (ascending ? asc(k) : desc(k))))
        .limit(upTo);
      const arm = k === 0 ? sql`(${rows})` : sql`(select * from (${rows}) g where (select n from ${name('c', k - 1)}) < ${upTo})`;
      const before = k === 0 ? sql`0` : sql`(select n from ${name('c', k - 1)})`;
      return sql`${name('a', k)} as materialized ${arm}, ${name('c', k)} as materialized (select ${before} + count(*)::int as n from ${name('a', k)})`;
    });
    const union = sql.join(
      ordered.map((_, k) => sql`select id, r from ${name('a', k)}`),
      sql` union all `,
    );
    const ids = sql`with ${sql.join(ctes, sql`, `)} select u.id from (${union}) u order by u.r ${dir}, u.id ${dir} limit ${rowLimit(query.perPage)} offset ${rowLimit(skip)}`;
    return { ids, reversed: ascending !== (lookup.direction === 'asc') };
  }

  /**
   * One page by its number: its ids found first (filter, sort, limit, offset: nothing else computed for the rows
   * skipped, and no lookup joined unless the order reads it), then only those rows get their joined names and
   * computed columns. `offset` is a number, or a placeholder of a statement kept for its shape.
   */
  function pageAt(query: ListQuery<Record<string, unknown>>, where: SQL | undefined, offset: number | Placeholder): PageIds {
    return { ids: pageIdsAt(query, where, offset).getSQL(), reversed: false };
  }

  /** The EXPLAIN of a page's ids (`filteredPageWay`): planned, not run. */
  const explainedPageIds = (query: ListQuery<Record<string, unknown>>, where: SQL, offset: number | Placeholder) =>
    writeSql(sql`EXPLAIN (FORMAT JSON) ${pageIdsAt(query, where, offset)}`);

  /** The ids of a page by its number (`pageAt`). */
  function pageIdsAt(query: ListQuery<Record<string, unknown>>, where: SQL | undefined, offset: number | Placeholder) {
    return pageJoinsOf(query.sort, query.search)(db.select({ id: table.id }).from(table as PgTable).$dynamic())
      .where(where)
      .orderBy(...orderOf(query.sort, query.search))
      .limit(rowLimit(query.perPage))
      .offset(offset);
  }

  /** The page after (or before) the cursor's row in the list's order: as quick on page 1,000 as on page 1. */
  function pageFrom(
    query: ListQuery<Record<string, unknown>>,
    where: SQL | undefined,
    { keys, direction }: Keyset,
    side: Cursor['direction'],
    cursorId: number | Placeholder,
  ) {
    const pageJoins = pageJoinsOf(query.sort, query.search);
    const ascending = (direction === 'asc') === (side === 'after');
    const anchor = (cols: AnyPgColumn[]) =>
      pageJoins(db.select(Object.fromEntries(cols.map((c, i) => [`k${i}`, c]))).from(table as PgTable).$dynamic()).where(eq(table.id, cursorId));
    const beyond = sql`(${sql.join(keys, sql`, `)}) ${ascending ? sql`>` : sql`<`} (${anchor(keys)})`;
    // The first key alone, so PostgreSQL starts the walk of its index at the cursor's row.
    const lead = sql`${keys[0]} ${ascending ? sql`>=` : sql`<=`} (${anchor(keys.slice(0, 1))})`;
    const ids = pageJoins(db.select({ id: table.id }).from(table as PgTable).$dynamic())
      .where(and(where, beyond, lead))
      .orderBy(...keys.map((k) => (ascending ? asc(k) : desc(k))))
      .limit(rowLimit(query.perPage));
    return { ids: ids.getSQL(), reversed: ascending !== (direction === 'asc') };
  }

  /**
   * A searched page found part by part (`searchParts`): each part's first rows up to the end of the page, with
   * their rank and sort keys, then the page among them. A row several parts find is one row of the union (the
   * same rank and keys in each).
   */
  function pageByParts(query: ListQuery<Record<string, unknown>>, filtered: SQL | undefined, parts: SearchParts, collected: readonly boolean[]) {
    const pageJoins = pageJoinsOf(query.sort, query.search);
    const keys = query.sort.map((k) => ({ key: sortColumn(k.field), direction: k.direction }));
    const tie = tieDirection(query.sort);
    const upTo = rowLimit(query.page * query.perPage);
    const rank = config.searchRank?.(query.search!) ?? sql`0`;
    /** The order of the rows of the arms, by the names they are selected as: their rank first. */
    const order = (from: string) => sql`${sql.identifier(from)}.r asc, ${sortedByAliases(from, keys, tie)}`;
    /**
     * A part's rows up to the page's end, with their rank (`ranked`: `searchRank`, or 0 for rows known to rank 0),
     * in the page's order. A `collect`ed part is read whole first (OFFSET 0 keeps the order and limit out of its
     * plan), then ranked and sorted; the others are in the list's order, which PostgreSQL may find by walking the
     * sort's index.
     */
    const firstRows = (condition: SQL, ranked: SQL, collect: boolean) => {
      const rows = pageJoins(
        db
          .select({ id: sql`${table.id}`.as('id'), r: sql`${ranked}`.as('r'), ...Object.fromEntries(keys.map((k, i) => [`k${i}`, sql`${k.key}`.as(`k${i}`)])) })
          .from(table as PgTable)
          .$dynamic(),
      ).where(and(filtered, condition));
      if (collect) return sql`(select * from (${rows} offset 0) c order by ${order('c')} limit ${upTo})`;
      return sql`(${rows.orderBy(...keys.map((k) => (k.direction === 'asc' ? asc(k.key) : desc(k.key))), tie === 'asc' ? asc(table.id) : desc(table.id)).limit(upTo)})`;
    };
    // Each walked part twice (armsOf): its rows that rank 0, and all its rows in the list's order. The page's rows
    // that rank 1 are among the latter's first `upTo`, as at most the rows that rank 0 come before them. A part of
    // the rows that do not rank 0 instead looked to the planner like half of the part, spread evenly over the
    // sort's index, and was walked for them: students "yi" all start with it, and the walk read all 100k (0.5 s).
    // The own part is ranked, so collected.
    const arms = armsOf(parts).map(({ condition, kind }, n) => firstRows(condition, kind === 'first' ? sql`0` : rank, kind === 'own' || (collected[n] ?? false)));
    const ids = sql`select u.id from (${sql.join(arms, sql` union `)}) u order by ${order('u')} limit ${rowLimit(query.perPage)} offset ${rowLimit((query.page - 1) * query.perPage)}`;
    return { ids, reversed: false };
  }

  /**
   * The statements of a list shape — sort, filters, page size — built once and kept, run with the page's offset
   * or the cursor's id, and the filter's values, as placeholders: building a page's SQL took about a tenth of the
   * server's CPU per request (decision 025). A filter without values (a view's own condition, a sort) gives
   * named prepared statements, which every pooled connection plans once. A filter with values (`where` written
   * with placeholders, withPlaceholders) gives statements planned for each request's values, as PostgreSQL must
   * see them to choose the index (prepareUnnamed, decision 017); only their writing is saved. A searched list
   * is built per request.
   */
  function listStatementsOf(query: ListQuery<Record<string, unknown>>, where: SQL | undefined, planOnce: boolean) {
    const keyset = keysetOf(query.sort, query.filters);
    const prepare = planOnce ? prepareNamed : prepareUnnamed;
    const pages = (page: PageIds) => pageStatement(page, query, planOnce);
    return {
      where,
      count: prepare(countOf(where)),
      page: pages(pageAt(query, where, sql.placeholder('offset'))),
      after: keyset ? pages(pageFrom(query, where, keyset, 'after', sql.placeholder('cursor'))) : undefined,
      before: keyset ? pages(pageFrom(query, where, keyset, 'before', sql.placeholder('cursor'))) : undefined,
      planned: where ? plannedRowsQuery(where) : undefined,
      /**
       * The plan of a filtered page's ids, and the page found among the first rows of its view's order, or collected
       * (`filteredPageWay`, `filteredPage`): written when a page of the shape first asks, as a view's own filter never does.
       */
      walking: where
        ? once(() => ({
            explained: explainedPageIds(query, where, sql.placeholder('offset')),
            walked: pages(pageInHead(query, where, sql.placeholder('offset'))),
            collected: pages(pageCollected(query, where, sql.placeholder('offset'))),
          }))
        : undefined,
      /** The statements of the shape sorted by a lookup's name (lookupPageRows), by page and lookup rows. */
      lookup: new Map<string, PreparedStatement<Row[]>>(),
    };
  }
  type ListStatements = ReturnType<typeof listStatementsOf>;
  /**
   * The shapes asked for lately, the oldest forgotten first beyond LIST_SHAPES_KEPT each: by the query itself
   * when its filter holds no values (nothing to build), and by the text of its filter when it does.
   */
  const listShapes = new Map<string, ListStatements>();
  const filteredShapes = new Map<string, ListStatements>();
  const shapeKey = (query: ListQuery<Record<string, unknown>>) => JSON.stringify([query.sort, query.filters, query.perPage]);
  function rememberShape<S>(shapes: Map<string, S>, key: string, statements: S): S {
    if (shapes.size >= LIST_SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
    shapes.set(key, statements);
    return statements;
  }

  /**
   * The kept statements of a list that is not searched, and the values of its filter. Two filters with the
   * same text differ only in their values; the page's order and whether it is paged by keyset (which a filter
   * can decide: neverNullWhen) are part of the shape too.
   */
  function statementsOf(query: ListQuery<Record<string, unknown>>, keyset: boolean): { statements: ListStatements; values: Record<string, unknown> } | undefined {
    const shape = shapeKey(query);
    const known = listShapes.get(shape);
    if (known) return { statements: known, values: {} };
    const where = whereOf(query);
    const parameterized = where && withPlaceholders(where);
    if (!parameterized || Object.keys(parameterized.values).length === 0) {
      // A condition that cannot be split is not kept (written per request); one without values is kept as it is.
      return parameterized === undefined && where ? undefined : { statements: rememberShape(listShapes, shape, listStatementsOf(query, where, true)), values: {} };
    }
    const key = JSON.stringify([query.sort, query.perPage, keyset, parameterized.text]);
    const statements = filteredShapes.get(key) ?? rememberShape(filteredShapes, key, listStatementsOf(query, parameterized.template, false));
    return { statements, values: parameterized.values };
  }

  /** A 409 naming who changed the record and when, if it changed since the client saw `version`. */
  async function checkVersion(tx: DbOrTx, locked: { stamp: Date; editUser: number | null }, version: string | undefined): Promise<void> {
    if (version === undefined) return;
    if (parseVersion(version).getTime() === locked.stamp.getTime()) return;
    const [editor] = locked.editUser === null ? [] : await tx.select({ name: users.usr_name }).from(users).where(eq(users.id, locked.editUser));
    throw new AppError(
      'CONFLICT',
      `This ${resource.title} was changed by ${editor?.name ?? 'another user'} at ${formatDateTime(locked.stamp, ctx.env.APP_TIMEZONE)} after you opened it. ` +
        'Reload it to see the changes.',
    );
  }

  const reference = (row: Row) => `"${referenceOf(resource, row)}"`;
  /**
   * What a record holds of its own (its table's columns, not its id and audit stamps): the values a create or
   * delete event keeps, new or old, so that the log still tells what a deleted payment was (decision 036).
   */
  const ownColumns = Object.keys(getTableColumns(table as PgTable)).filter((k) => !AUDIT_COLUMNS.has(k));
  const hidden = { secret: resource.secretFields, masked: resource.maskedFields };
  const valuesOf = (row: Row) => Object.fromEntries(ownColumns.filter((k) => k in row).map((k) => [k, row[k]]));
  const createdValues = (row: Row) => diffFields({}, valuesOf(row), hidden);
  const deletedValues = (row: Row) => diffFields(row, Object.fromEntries(Object.keys(valuesOf(row)).map((k) => [k, null])), hidden);
  const event = (type: EventTypeKey, row: Row, user: SessionUser) => ({
    type,
    userId: user.id,
    resource: resource.key,
    recordId: Number(row.id),
    ...config.eventLinks?.(row),
  });

  /**
   * Stores values on a locked record and answers what really changed (nothing is written when nothing
   * changes). The caller records the event: actions word it themselves.
   */
  async function applyChanges(tx: Tx, current: Row, values: Row, actor: Actor): Promise<FieldChanges> {
    const changed = diffFields(current, values, hidden);
    if (Object.keys(changed).length === 0) return changed;
    await tx
      .update(table)
      .set({ ...values, edit_user: actor.user.id, edit_timestamp: nextEditStamp(table.edit_timestamp) } as never)
      .where(eq(table.id, Number(current.id)));
    await hooks.afterChange?.(tx, { op: 'update', id: Number(current.id), changed }, actor);
    return changed;
  }

  /** Refuses a change by a role this record is locked for (403 with the rule's reason). */
  function checkLockedFor(current: Row, actor: Actor): void {
    const reason = whyLockedFor(resource, current, actor.user.userrole_name);
    if (reason) throw new AppError('FORBIDDEN', reason);
  }

  /** Refuses a change to a field this record does not let change (409 with the rule's reason). */
  function checkReadOnly(current: Row, changes: Row): void {
    const frozen = readOnlyFieldsOf(resource, current);
    for (const field of Object.keys(changes)) {
      const reason = frozen[field];
      if (reason !== undefined && JSON.stringify(changes[field] ?? null) !== JSON.stringify(current[field] ?? null)) {
        throw new AppError('CONFLICT', `${field} cannot be changed: ${reason}`);
      }
    }
  }

  return {
    config,
    /** The office's time zone: the times its messages name are on that clock. */
    timeZone: ctx.env.APP_TIMEZONE,
    get,
    lock,
    checkLockedFor,
    checkVersion,
    applyChanges,
    reference: (row: Row) => referenceOf(resource, row),
    /** The event log's links of a row (its student and contract). */
    eventOf: event,

    /**
     * One page: the page's ids are found first (filter, sort, limit, offset: nothing else computed for the
     * rows skipped, and no lookup joined unless the order reads it), then only those rows get their joined names
     * and computed columns. The count joins only what the filter needs. A list whose filter holds no values
     * (a view's own condition, a sort) runs prepared statements, planned once per connection; a searched or
     * filtered list is planned for its text and values, whose selectivity decides which index serves it.
     */
    async list(asked: ListQuery<Record<string, unknown>>): Promise<Paged<Row>> {
      const query = withEffectiveSort(asked);
      const keyset = query.search ? undefined : keysetOf(query.sort, query.filters);
      const kept = query.search ? undefined : statementsOf(query, keyset !== undefined);
      const statements = kept?.statements;
      const values = kept?.values ?? {};
      // The filter as a condition: its template when kept (run with `values`), otherwise written for this request.
      const where = statements ? statements.where : whereOf(query);
      // The planner's estimate of the filter's rows, asked at most once: the count and a lookup sort both read it.
      let filterPlan: Promise<number> | undefined;
      const plannedFilterRows = () => (filterPlan ??= planOf(statements?.planned ?? plannedRowsQuery(where!), values).then((plan) => plan['Plan Rows']));
      const parts = query.search ? config.searchParts?.(query.search) : undefined;
      const filtered = parts ? whereOf({ search: undefined, filters: query.filters }) : undefined;
      // A search in parts: how many rows each part finds decides how its first rows are found, and whether the
      // count is the planner's estimate.
      const planned = parts ? await plannedParts(filtered, parts) : undefined;
      const counting = async (): Promise<{ total: number; estimated: boolean }> => {
        if (!where && !query.exactCount) {
          const estimate = await estimatedRows();
          if (estimate !== undefined) return { total: estimate, estimated: true };
        }
        if (where && !query.exactCount && !query.search && config.estimatedFilters?.some((f) => query.filters[f] !== undefined)) {
          const estimate = worthEstimating(await plannedFilterRows());
          if (estimate !== undefined) return { total: estimate, estimated: true };
        }
        if (planned && !query.exactCount) {
          const estimate = worthEstimating(planned.found);
          if (estimate !== undefined) return { total: estimate, estimated: true };
        }
        const [counted] = await (statements ? statements.count.execute(values) : parts ? (await countOfParts(filtered, parts)).rows : countOf(where).execute());
        return { total: Number(counted?.total ?? 0), estimated: false };
      };
      const offset = (query.page - 1) * query.perPage;
      const keysetPage = async () => {
        // Sorted by a lookup's name, a page per name, unless the filter finds few rows: then those are sorted.
        // Each name's walk reads its rows until it has a page, every one of them for a name without a match (a
        // student's two contracts by scholarship: 8 → 34 ms).
        // A view's own filter (the planned payments) is not such a filter: its index serves each name's walk.
        const lookup = lookupSortOf(query);
        if (lookup && (!where || isViewFilter(query.filters) || (await plannedFilterRows()) >= COLLECT_BELOW_ROWS)) {
          const filter = { where, values, kept: statements?.lookup };
          const fromCursor = query.cursor && keyset ? await lookupPageRows(query, lookup, filter, query.cursor) : [];
          return fromCursor.length > 0 ? fromCursor : lookupPageRows(query, lookup, filter);
        }
        // An arm the planner expects to find few rows is collected: walking the sort's index for them costs as
        // many rows as precede them in its order, which its estimate cannot know (a name's rows sit together).
        if (parts) return pageByIds(pageByParts(query, filtered, parts, planned!.arms.map((rows) => rows < COLLECT_BELOW_ROWS))).execute();
        // A cursor whose row is gone finds nothing: the page is then found by its number.
        const { cursor } = query;
        let rows: Row[] = [];
        if (cursor && keyset) {
          rows = statements
            ? await statements[cursor.direction]!.execute({ ...values, cursor: cursor.id })
            : await pageByIds(pageFrom(query, where, keyset, cursor.direction, cursor.id)).execute();
        }
        if (rows.length > 0) return rows;
        const way = where && (await filteredPageWay(query, where, offset, statements, values, plannedFilterRows));
        if (way) return filteredPage(way, query, where!, offset, statements, values);
        return statements ? statements.page.execute({ ...values, offset }) : pageByIds(pageAt(query, where, offset)).execute();
      };
      const [counted, data] = await Promise.all([counting(), keysetPage()]);
      let { total, estimated } = counted;
      if (estimated) {
        // What this page shows is certain: a short page is the end of the list, and the list is at least this long.
        const seen = offset + data.length;
        if (data.length < query.perPage && (data.length > 0 || query.page === 1)) [total, estimated] = [seen, false];
        else total = Math.max(total, seen);
      }
      const pagination = paginate(total, query.page, query.perPage, estimated);
      const [first, last] = [data[0], data.at(-1)];
      const more = data.length === query.perPage && (estimated || query.page < pagination.last_page);
      return {
        data,
        links: {
          pagination,
          ...(keyset && last && more ? { next: formatCursor({ direction: 'after', id: Number(last.id) }) } : {}),
          ...(keyset && first && query.page > 1 ? { prev: formatCursor({ direction: 'before', id: Number(first.id) }) } : {}),
        },
      };
    },

    /** The names people know the given records by (ids not found are left out). */
    async references(ids: readonly number[], tx: DbOrTx = db): Promise<Map<number, string>> {
      const rows = ids.length === 0 ? [] : await selectRows(tx).where(inArray(table.id, [...ids]));
      return new Map(rows.map((r) => [Number(r.id), referenceOf(resource, r)]));
    },

    /**
     * The values of `fields` of every row a list query matches, in its order, as arrays in the order of
     * `fields`, through a server-side cursor inside one read-only snapshot (`cursorBatches`): exports stream through
     * this, so memory stays flat, the query runs once, and only the exported columns are read and parsed. Drizzle
     * selects the fields in the order of the selection's keys: the arrays are in the order of `fields`.
     */
    async *iterate(
      asked: Omit<ListQuery<Record<string, unknown>>, 'page' | 'perPage'>,
      fields: readonly string[],
      ids?: number[],
      batchSize = 2000,
    ): AsyncGenerator<unknown[]> {
      const query = withEffectiveSort(asked);
      const selection = Object.fromEntries(
        fields.map((f) => {
          const column = columns[f];
          if (!column) throw new Error(`${resource.key}: no column ${f}`);
          return [f, column];
        }),
      );
      const { sql: text, params } = (config.exportJoins ?? withJoins)(db.select(selection).from(table as PgTable).$dynamic())
        .where(and(whereOf(query), ids ? inArray(table.id, ids) : undefined))
        .orderBy(...orderOf(query.sort, query.search))
        .toSQL();
      for await (const batch of cursorBatches(pool, text, params, batchSize)) yield* batch;
    },

    async create(input: unknown, actor: Actor, options: WriteOptions = {}): Promise<{ id: number }> {
      refuseUnknownFields(resource.createSchema, input);
      const parsed = parseInput(resource.createSchema, input, resource.title.toLowerCase()) as Row;
      return inTransaction(options.tx, (tx) => oncePerKey(tx, actor, options.requestKey, async () => {
        const values = hooks.beforeCreate ? await hooks.beforeCreate(tx, parsed, actor) : parsed;
        const [inserted] = await tx
          .insert(table)
          .values({ ...values, edit_user: actor.user.id } as never)
          .returning({ id: table.id });
        const id = Number(inserted?.id);
        const row = await get(id, tx);
        await recordEvent(tx, { ...event('create', row, actor.user), message: `Created ${resource.title} ${reference(row)}`, changes: createdValues(row) });
        await hooks.afterChange?.(tx, { op: 'create', id, row }, actor);
        return { id };
      }));
    },

    /**
     * Applies the changed fields. `version` is the edit_timestamp the client saw, required (428 without it):
     * when the record has changed since, nothing is written and the 409 names who changed it and when. Fields this record keeps read-only
     * are refused with the rule's reason.
     */
    async update(id: number, input: unknown, version: string | undefined, actor: Actor, options: WriteOptions = {}): Promise<Row> {
      refuseUnknownFields(resource.updateSchema, input);
      const { id: bodyId, ...changes } = parseInput(resource.updateSchema, input, resource.title.toLowerCase()) as Row;
      if (bodyId !== undefined && Number(bodyId) !== id) {
        throw new AppError('BAD_REQUEST', 'Invalid input: id', { id: ['id in the body must match the URL'] });
      }
      return inTransaction(options.tx, async (tx) => {
        const locked = await lock(tx, id);
        checkLockedFor(locked.row, actor);
        requireVersion(version);
        await checkVersion(tx, locked, version);
        const current = locked.row;
        checkReadOnly(current, changes);
        // The hook also checks the change, so it runs even when nothing would change.
        const stored = hooks.beforeUpdate ? await hooks.beforeUpdate(tx, changes, current, actor) : changes;
        const changed = await applyChanges(tx, current, stored, actor);
        if (Object.keys(changed).length > 0) {
          const special = options.eventType ? undefined : hooks.updateEvent?.(changed, reference(current));
          const verb = options.eventType === 'bulkEdit' ? 'Bulk edit of' : 'Updated';
          await recordEvent(tx, {
            ...event(special?.type ?? options.eventType ?? 'update', current, actor.user),
            message: special?.message ?? `${verb} ${resource.title} ${reference(current)}: ${describeChanges(changed)}`,
            changes: changed,
          });
        }
        return get(id, tx);
      });
    },

    /**
     * Deletes the record. With `version` (If-Match) only the version the client saw: a record someone else changed
     * since is kept and the 409 names who and when, as for an update (decision 060).
     */
    async remove(id: number, actor: Actor, options: WriteOptions & { version?: string } = {}): Promise<void> {
      try {
        await inTransaction(options.tx, async (tx) => {
          const locked = await lock(tx, id);
          const { row } = locked;
          checkLockedFor(row, actor);
          await checkVersion(tx, locked, options.version);
          const reason = whyNotDeletable(resource, row);
          if (reason) throw new AppError('CONFLICT', reason);
          await hooks.beforeDelete?.(tx, row, actor);
          await tx.delete(table).where(eq(table.id, id));
          await recordEvent(tx, { ...event('delete', row, actor.user), message: `Deleted ${resource.title} ${reference(row)}`, changes: deletedValues(row) });
          for (const mail of await withdrawMailsOf(tx, resource.key, id, `${resource.title} ${reference(row)} was deleted before the mail went`)) {
            await recordEvent(tx, { ...event('emailFailed', row, actor.user), message: `E-mail "${mail.subject}" to ${mail.recipient} withdrawn: not sent, the ${resource.title} was deleted` });
          }
          await hooks.afterChange?.(tx, { op: 'delete', id, row }, actor);
        });
      } catch (err) {
        // A record that others still refer to: the error names them, and this resource names the record.
        throw appErrorOfDatabase(err, resource) ?? err;
      }
    },
  };
}
