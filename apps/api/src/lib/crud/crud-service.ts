import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import {
  AppError,
  formatDateTime,
  paginate,
  referenceOf,
  type AnyResource,
  type ListQuery,
  type Paged,
  type EventTypeKey,
  type FieldChanges,
  type SessionUser,
  type SortKey,
} from '@app/contracts';
import { users, type Database, type DbOrTx, type Tx } from '@app/db';
import { alias } from 'drizzle-orm/pg-core';
import { parseInput } from '../errors.js';
import { describeChanges, diffFields, recordEvent, type EventInput } from '../events/record.js';
import { FOREIGN_KEY_VIOLATION, pgErrorOf, UNIQUE_VIOLATION } from './pg-errors.js';

export type Row = Record<string, unknown>;
type Selection = Record<string, AnyPgColumn | SQL.Aliased | SQL>;

/** A table the generic machinery can serve: an integer id, and the edit audit pair unless read-only. */
export type CrudTable = PgTable & { id: AnyPgColumn; edit_timestamp?: AnyPgColumn; edit_user?: AnyPgColumn };

export interface CrudConfig<T extends CrudTable = CrudTable> {
  resource: AnyResource;
  table: T;
  /** The row as the API answers it: field name → column or SQL (joined names included). */
  columns: Selection;
  /** Joins the `columns` need. */
  joins?: (q: PgSelect) => PgSelect;
  /** The quick filter: a condition for a (trimmed, non-empty) search text. */
  search: (term: string) => SQL | undefined;
  /** One condition builder per advanced filter field of the descriptor. */
  filters?: Record<string, (value: unknown) => SQL | undefined>;
  /** Unique constraint name → the field label a 409 names. */
  unique?: Record<string, string>;
  /** The student and contract an event about this row concerns (shown in the event log). */
  eventLinks?: (row: Row) => Pick<EventInput, 'studentId' | 'contractId'>;
  /** Where a resource's rules go; each runs inside the change's transaction. */
  hooks?: {
    /** Checks and turns validated input into the values stored (e.g. hashes a password). */
    beforeCreate?: (values: Row, actor: Actor) => Promise<Row> | Row;
    beforeUpdate?: (changes: Row, current: Row, actor: Actor) => Promise<Row> | Row;
    afterCreate?: (tx: Tx, row: Row, actor: Actor) => Promise<void>;
    afterUpdate?: (tx: Tx, change: { id: number; changed: FieldChanges }, actor: Actor) => Promise<void>;
    /** The event of an update, when not the default (`update`, listing the changed fields). */
    updateEvent?: (changed: FieldChanges, reference: string) => { type: EventTypeKey; message: string } | undefined;
  };
}

/** Who makes a change: the user and the session it comes from. */
export interface Actor {
  user: SessionUser;
  sessionId?: string;
}

/** A NUMERIC money column answered as a JSON number (its arithmetic stays in SQL). */
export function moneyValue(column: AnyPgColumn): SQL<number> {
  return sql<number>`(${column})::float8`;
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

/** `%`, `_` and `\` match themselves in an ILIKE pattern built from user text. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type CrudService = ReturnType<typeof createCrudService>;

/**
 * The default service of a resource: list, get, create, update (with stale-edit check), delete and
 * choice list, built from the table and the descriptor. Resources with rules wrap or extend it.
 */
export function createCrudService<T extends CrudTable>(db: Database, config: CrudConfig<T>) {
  const pool = db.$client;
  const { resource, columns } = config;
  const table = config.table as T & { edit_timestamp: AnyPgColumn; edit_user: AnyPgColumn };
  if (!resource.readOnly && (!config.table.edit_timestamp || !config.table.edit_user)) {
    throw new Error(`${resource.key}: an editable table needs edit_timestamp and edit_user`);
  }
  const withJoins = (q: PgSelect): PgSelect => (config.joins ? config.joins(q) : q);
  const hooks = config.hooks ?? {};
  for (const field of Object.keys(resource.filterSchema.shape)) {
    if (!config.filters?.[field]) throw new Error(`${resource.key}: filter "${field}" has no condition`);
  }
  for (const field of resource.sortable) {
    if (!(field in columns)) throw new Error(`${resource.key}: sortable "${field}" is not a column`);
  }

  function sortColumn(field: string): AnyPgColumn | SQL {
    const c = columns[field];
    if (!c) throw new Error(`${resource.key}: no column ${field}`);
    return 'getSQL' in c && !('table' in c) ? (c as SQL.Aliased).getSQL() : (c as AnyPgColumn);
  }

  function orderOf(sort: readonly SortKey[]) {
    return [...sort.map((k) => (k.direction === 'asc' ? asc(sortColumn(k.field)) : desc(sortColumn(k.field)))), asc(table.id)];
  }

  function whereOf(query: Pick<ListQuery<Record<string, unknown>>, 'search' | 'filters'>): SQL | undefined {
    const conditions: (SQL | undefined)[] = [];
    if (query.search) conditions.push(config.search(query.search));
    for (const [field, value] of Object.entries(query.filters)) conditions.push(config.filters?.[field]?.(value));
    return and(...conditions);
  }

  function selectRows(db: DbOrTx, extra: Selection = {}) {
    return withJoins(db.select({ ...columns, ...extra }).from(table as PgTable).$dynamic());
  }

  // Who last edited a row, for the stale-edit message; aliased so a resource may join users itself.
  const editor = alias(users, 'editor');

  async function get(id: number, tx: DbOrTx = db): Promise<Row> {
    const [row] = await selectRows(tx).where(eq(table.id, id));
    if (!row) throw new AppError('NOT_FOUND', `${resource.title} ${id} not found`);
    return row;
  }

  const reference = (row: Row) => `"${referenceOf(resource, row)}"`;
  const event = (type: EventTypeKey, row: Row, user: SessionUser) => ({
    type,
    userId: user.id,
    resource: resource.key,
    recordId: Number(row.id),
    ...config.eventLinks?.(row),
  });

  function conflictOf(err: unknown): AppError | undefined {
    const pg = pgErrorOf(err);
    if (pg?.code === UNIQUE_VIOLATION) {
      const label = (pg.constraint && config.unique?.[pg.constraint]) ?? 'these values';
      return new AppError('CONFLICT', `A ${resource.title} with this ${label} already exists`);
    }
    if (pg?.code === FOREIGN_KEY_VIOLATION) {
      return new AppError('CONFLICT', `This ${resource.title} is still used by other records`);
    }
    return undefined;
  }

  async function guarded<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (err) {
      throw conflictOf(err) ?? err;
    }
  }

  return {
    config,
    get,

    async list(query: ListQuery<Record<string, unknown>>): Promise<Paged<Row>> {
      const where = whereOf(query);
      const order = orderOf(query.sort);
      const [counted, data] = await Promise.all([
        withJoins(db.select({ total: count() }).from(table as PgTable).$dynamic()).where(where),
        selectRows(db)
          .where(where)
          .orderBy(...order)
          .limit(query.perPage)
          .offset((query.page - 1) * query.perPage),
      ]);
      const total = Number(counted[0]?.total ?? 0);
      return { data, links: { pagination: paginate(total, query.page, query.perPage) } };
    },

    /**
     * Every row a list query matches, in its order, through a server-side cursor inside one read-only
     * snapshot: exports stream through this, so memory stays flat and the query runs once.
     */
    async *iterate(query: Omit<ListQuery<Record<string, unknown>>, 'page' | 'perPage'>, ids?: number[], batchSize = 2000): AsyncGenerator<Row> {
      const { sql: text, params } = selectRows(db)
        .where(and(whereOf(query), ids ? inArray(table.id, ids) : undefined))
        .orderBy(...orderOf(query.sort))
        .toSQL();
      // Drizzle selects the fields in the order of the selection's keys.
      const keys = Object.keys(columns);
      const client = await pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${text}`, params);
        for (;;) {
          const batch = await client.query<unknown[]>({ text: `FETCH ${batchSize} FROM export_rows`, rowMode: 'array' });
          for (const values of batch.rows) yield Object.fromEntries(keys.map((k, i) => [k, values[i]]));
          if (batch.rows.length < batchSize) break;
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },

    async create(input: unknown, actor: Actor): Promise<{ id: number }> {
      const { user } = actor;
      refuseUnknownFields(resource.createSchema, input);
      const parsed = parseInput(resource.createSchema, input, resource.title.toLowerCase()) as Row;
      const values = hooks.beforeCreate ? await hooks.beforeCreate(parsed, actor) : parsed;
      return guarded(() =>
        db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(table)
            .values({ ...values, edit_user: user.id } as never)
            .returning({ id: table.id });
          const id = Number(inserted?.id);
          const row = await get(id, tx);
          await recordEvent(tx, { ...event('create', row, user), message: `Created ${resource.title} ${reference(row)}` });
          await hooks.afterCreate?.(tx, row, actor);
          return { id };
        }),
      );
    },

    /**
     * Applies the changed fields. `ifMatch` is the edit_timestamp the client saw: when the record has
     * changed since, nothing is written and the 409 names who changed it and when.
     */
    async update(id: number, input: unknown, ifMatch: string | undefined, actor: Actor): Promise<Row> {
      const { user } = actor;
      refuseUnknownFields(resource.updateSchema, input);
      const { id: bodyId, ...changes } = parseInput(resource.updateSchema, input, resource.title.toLowerCase()) as Row;
      if (bodyId !== undefined && Number(bodyId) !== id) {
        throw new AppError('BAD_REQUEST', 'Invalid input: id', { id: ['id in the body must match the URL'] });
      }
      return guarded(() =>
        db.transaction(async (tx) => {
          const [current] = await selectRows(tx, { __stamp: table.edit_timestamp, __editor: editor.usr_name })
            .leftJoin(editor, eq(editor.id, table.edit_user))
            .where(eq(table.id, id))
            .for('update', { of: table as PgTable });
          if (!current) throw new AppError('NOT_FOUND', `${resource.title} ${id} not found`);
          if (ifMatch !== undefined) {
            const seen = new Date(ifMatch.replace(/^W\//, '').replace(/"/g, ''));
            const stamp = current.__stamp as Date;
            if (Number.isNaN(seen.getTime())) {
              throw new AppError('BAD_REQUEST', 'Invalid If-Match', { 'If-Match': ['If-Match must be the edit_timestamp you saw'] });
            }
            if (seen.getTime() !== stamp.getTime()) {
              throw new AppError(
                'CONFLICT',
                `This ${resource.title} was changed by ${current.__editor ?? 'another user'} at ${formatDateTime(stamp)} ` +
                  'after you opened it. Reload it to see the changes.',
              );
            }
          }
          // The hook also checks the change, so it runs even when nothing would change.
          const stored = hooks.beforeUpdate ? await hooks.beforeUpdate(changes, current, actor) : changes;
          const changed = diffFields(current, changes, resource.secretFields);
          if (Object.keys(changed).length > 0) {
            await tx
              .update(table)
              .set({
                ...stored,
                edit_user: user.id,
                // Strictly increasing, so two quick edits never share a timestamp (it is the version).
                edit_timestamp: sql`greatest(clock_timestamp(), ${table.edit_timestamp} + interval '1 millisecond')`,
              } as never)
              .where(eq(table.id, id));
            const special = hooks.updateEvent?.(changed, reference(current));
            await recordEvent(tx, {
              ...event(special?.type ?? 'update', current, user),
              message: special?.message ?? `Updated ${resource.title} ${reference(current)}: ${describeChanges(changed)}`,
              changes: changed,
            });
            await hooks.afterUpdate?.(tx, { id, changed }, actor);
          }
          return get(id, tx);
        }),
      );
    },

    async remove(id: number, { user }: Actor): Promise<void> {
      await guarded(() =>
        db.transaction(async (tx) => {
          const row = await get(id, tx);
          await tx.delete(table).where(eq(table.id, id));
          await recordEvent(tx, { ...event('delete', row, user), message: `Deleted ${resource.title} ${reference(row)}` });
        }),
      );
    },
  };
}
