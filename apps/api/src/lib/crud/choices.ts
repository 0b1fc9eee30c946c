import { Router } from 'express';
import { asc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { CHOICE_LISTS, type Choice, type ChoiceListName } from '@app/contracts';
import type { DbOrTx } from '@app/db';
import { route } from '../routes.js';

export interface ChoiceSource {
  list(): Promise<Choice[]>;
  /** Changes whenever any id or label of the list changes. */
  checksum(): Promise<string>;
}

/** A choice list read from a table: `{id, name}` ordered by the label (then id). */
export function tableChoices(
  db: DbOrTx,
  source: { table: PgTable; id: AnyPgColumn; label: AnyPgColumn | SQL; where?: SQL; order?: 'label' | 'id' },
): ChoiceSource {
  const { table, id, label, where } = source;
  const orderBy = source.order === 'id' ? [asc(id)] : [asc(label), asc(id)];
  return {
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

/** `GET /{name}/choice` and `GET /{name}/choice_checksum` for every declared list. */
export function choiceRouter(sources: Record<ChoiceListName, ChoiceSource>): Router {
  const router = Router();
  for (const name of CHOICE_LISTS) {
    const source = sources[name];
    route(router, 'get', `/${name}/choice`, async (_req, res) => {
      res.json(await source.list());
    });
    route(router, 'get', `/${name}/choice_checksum`, async (_req, res) => {
      res.json({ checksum: await source.checksum() });
    });
  }
  return router;
}
