import { createHash } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { CHOICE_LISTS, idSchema, isSearchedChoiceList, SEARCHED_CHOICE_LIMIT, text, type Choice, type ChoiceListName } from '@app/contracts';
import type { DbOrTx } from '@app/db';
import { parseInput } from '../errors.js';
import { queryRoute, route } from '../routes.js';
import { COLLECT_BELOW_ROWS } from './crud-service.js';

export interface ChoiceSource {
  list(): Promise<Choice[]>;
  /** Changes whenever any id or label of the list changes. */
  checksum(): Promise<string>;
  /** The first `limit` choices matching the text (by label), and the one with `id` (a searched list). */
  search?(term: string | undefined, id: number | undefined, limit: number, params?: Record<string, unknown>): Promise<Choice[]>;
  /**
   * The optional parameters of spec §7 ("GET {x}/choice/ with optional params") a searched list takes besides
   * `search` and `id`. A list with them answers `/choice` and `/choice_checksum` from its search too: its first
   * matches, never the whole table (the invoices: a million rows).
   */
  params?: z.ZodObject;
  /**
   * The choices a caller of this role may pick, where it is fewer than the list (the roles an Administrator may
   * give: not Developer, decision 054). The checksum is then the checksum of what the caller gets.
   */
  forRole?: (choices: Choice[], role: string | undefined) => Choice[];
}

/** The query of `GET /{name}/choice/search`. */
const ChoiceSearchSchema = z.strictObject({ search: text('search').trim().max(100, 'search must be at most 100 characters').optional(), id: idSchema.optional() });

/** The planner's estimate of the rows of `table` a condition finds. */
async function plannedRows(db: DbOrTx, table: PgTable, condition: SQL | undefined): Promise<number> {
  const { rows } = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(sql`EXPLAIN (FORMAT JSON) select 1 from ${table} where ${condition ?? sql`true`}`);
  return rows[0]!['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** A choice list read from a table: `{id, name}` ordered by the label (then id). */
export function tableChoices(
  db: DbOrTx,
  source: {
    table: PgTable;
    id: AnyPgColumn;
    label: AnyPgColumn | SQL;
    where?: SQL;
    /**
     * By the label (then id), by id, newest (highest id) first, or by the columns the label is made of (then id):
     * a student's "last, first" by last and first name, so the last names' index serves the first matches of a
     * search in label order.
     */
    order?: 'label' | 'id' | 'newest' | readonly AnyPgColumn[];
    /** The condition of a search text, for a list searched on the server (an indexed one). */
    matches?: (term: string) => SQL | undefined;
  },
): ChoiceSource {
  const { table, id, label, where, matches, order = 'label' } = source;
  const orderBy =
    order === 'id' ? [asc(id)] : order === 'newest' ? [desc(id)] : order === 'label' ? [asc(label), asc(id)] : [...order.map((c) => asc(c)), asc(id)];
  const keys = typeof order === 'string' ? undefined : order;
  /**
   * The first matches in the order of `columns` (the keys), read whole and sorted: for a text few rows hold,
   * walking the keys' index until enough of them turn up reads every row before them ("yi": 0.47 s, past the
   * whole alphabet).
   */
  const collected = (columns: readonly AnyPgColumn[], condition: SQL | undefined, limit: number) =>
    db.execute<{ id: number; name: string }>(sql`
      select id, name from (
        select ${id} as id, ${label} as name, ${sql.join(columns.map((c, k) => sql`${c} as ${sql.raw(`key${k}`)}`), sql`, `)}
        from ${table} where ${condition ?? sql`true`} offset 0) found
      order by ${sql.join(columns.map((_, k) => sql.raw(`key${k}`)), sql`, `)}, id limit ${limit}`);
  return {
    ...(matches && {
      async search(term, wanted, limit) {
        const condition = and(where, term ? matches(term) : undefined);
        // Walked along the keys' index, or collected, by the planner's estimate of the matches (as a list's search
        // in parts, decision 028). A list ordered by its label has no index to walk: PostgreSQL collects it anyway.
        const found =
          keys && term && (await plannedRows(db, table, condition)) < COLLECT_BELOW_ROWS
            ? (await collected(keys, condition, limit)).rows
            : await db.select({ id, name: sql<string>`${label}` }).from(table).where(condition).orderBy(...orderBy).limit(limit);
        const named = wanted === undefined || found.some((r) => r.id === wanted) ? [] : await db.select({ id, name: sql<string>`${label}` }).from(table).where(and(where, eq(id, wanted)));
        return [...named, ...found].map((r) => ({ id: r.id as number, name: r.name }));
      },
    }),
    async list() {
      const rows = await db.select({ id, name: sql<string>`${label}` }).from(table).where(where).orderBy(...orderBy);
      return rows.map((r) => ({ id: r.id as number, name: r.name }));
    },
    async checksum() {
      const [row] = await db
        .select({ checksum: sql<string>`md5(coalesce(string_agg(${id}::text || chr(31) || ${label}, chr(30) order by ${id}), ''))` })
        .from(table)
        .where(where);
      return row?.checksum ?? '';
    },
  };
}

/** A choice list of the distinct values of a column: the value is both id and name. */
export function distinctChoices(db: DbOrTx, source: { table: PgTable; column: AnyPgColumn }): ChoiceSource {
  const { table, column } = source;
  return {
    async list() {
      const rows = await db.selectDistinct({ value: column }).from(table).orderBy(asc(column));
      return rows.map((r) => ({ id: String(r.value), name: String(r.value) }));
    },
    async checksum() {
      const [row] = await db
        .select({ checksum: sql<string>`md5(coalesce(string_agg(distinct ${column}::text, chr(30)), ''))` })
        .from(table);
      return row?.checksum ?? '';
    },
  };
}

/**
 * A choice list of the distinct values of a big table's column that leads a btree index (a contract's intake), or
 * of a value that grows with it (the year of a start date): found by stepping through the index from one value to
 * the next (a loose index scan), a few index probes where DISTINCT read the whole table — 70–90 ms for 100k
 * contracts, on every overview with an intake filter. `value` is what a row gives (the key itself by default);
 * `after` the condition on the key of the rows past a value (`key > value` by default).
 */
export function indexedDistinctChoices(
  db: DbOrTx,
  source: { table: PgTable; key: AnyPgColumn; value?: SQL; after?: (value: SQL) => SQL },
): ChoiceSource {
  const { table, key } = source;
  const value = source.value ?? sql`${key}`;
  const after = source.after ?? ((v: SQL) => sql`${key} > ${v}`);
  const values = async (): Promise<Choice[]> => {
    const { rows } = await db.execute<{ value: unknown }>(sql`
      with recursive found(value) as (
        (select ${value} from ${table} where ${key} is not null order by ${key} limit 1)
        union all
        select (select ${value} from ${table} where ${after(sql`found.value`)} order by ${key} limit 1) from found where found.value is not null
      )
      select value from found where value is not null`);
    return rows.map((r) => ({ id: String(r.value), name: String(r.value) }));
  };
  return { list: values, checksum: async () => checksumOf(await values()) };
}

/** `GET /{name}/choice` and `GET /{name}/choice_checksum` for every declared list. */
export function choiceRouter(sources: Record<ChoiceListName, ChoiceSource>): Router {
  const router = Router();
  for (const name of CHOICE_LISTS) {
    const source = sources[name];
    if (source.params) {
      parametrisedRoutes(router, name, source, source.params);
      continue;
    }
    // The checksum is the list's ETag: a client that has the list sends it back and gets a 304 without it.
    const forRole = source.forRole;
    const listFor = async (role: string | undefined) => (forRole ? forRole(await source.list(), role) : source.list());
    const checksumFor = async (role: string | undefined) => (forRole ? checksumOf(await listFor(role)) : source.checksum());
    route(router, 'get', `/${name}/choice`, async (req, res) => {
      const etag = `"${await checksumFor(req.user?.userrole_name)}"`;
      res.set('ETag', etag);
      if (req.get('If-None-Match') === etag) return void res.status(304).end();
      res.json(await listFor(req.user?.userrole_name));
    });
    route(router, 'get', `/${name}/choice_checksum`, async (req, res) => {
      res.json({ checksum: await checksumFor(req.user?.userrole_name) });
    });
    if (isSearchedChoiceList(name)) {
      const search = source.search;
      if (!search) throw new Error(`choice list ${name} is searched on the server but its source cannot search`);
      queryRoute(router, 'get', `/${name}/choice/search`, async (req, res) => {
        const { search: term, id } = parseInput(ChoiceSearchSchema, req.query, 'choice search');
        res.json(await search(term || undefined, id, SEARCHED_CHOICE_LIMIT));
      });
    }
  }
  return router;
}

/** The checksum of a list answered from a search (a parametrised one): that of exactly what it answers. */
export const checksumOf = (choices: Choice[]): string => createHash('md5').update(JSON.stringify(choices)).digest('hex');

/** The routes of a searched list with parameters: each takes them (a wrong one is a 400 naming it). */
function parametrisedRoutes(router: Router, name: string, source: ChoiceSource, params: z.ZodObject): void {
  const search = source.search;
  if (!search) throw new Error(`choice list ${name} takes parameters but its source cannot search`);
  const schema = z.strictObject({ ...ChoiceSearchSchema.shape, ...params.shape });
  const matches = async (query: unknown) => {
    const { search: term, id, ...given } = parseInput(schema, query, 'choice list parameters') as { search?: string; id?: number } & Record<string, unknown>;
    return search(term || undefined, id, SEARCHED_CHOICE_LIMIT, given);
  };
  queryRoute(router, 'get', `/${name}/choice`, async (req, res) => {
    const choices = await matches(req.query);
    const etag = `"${checksumOf(choices)}"`;
    res.set('ETag', etag);
    if (req.get('If-None-Match') === etag) return void res.status(304).end();
    res.json(choices);
  });
  queryRoute(router, 'get', `/${name}/choice_checksum`, async (req, res) => {
    res.json({ checksum: checksumOf(await matches(req.query)) });
  });
  queryRoute(router, 'get', `/${name}/choice/search`, async (req, res) => {
    res.json(await matches(req.query));
  });
}
