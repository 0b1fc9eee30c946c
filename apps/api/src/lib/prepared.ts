import { createHash } from 'node:crypto';
import { Column, fillPlaceholders, is, SQL, sql, Subquery, type Query, type SQLChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A Drizzle query that can run as a named prepared statement. */
export interface Preparable<R> {
  prepare(name: string): PreparedStatement<R>;
}

/** A prepared query, run with the values of its placeholders (`sql.placeholder(name)`), if it has any. */
export interface PreparedStatement<R> {
  execute(placeholders?: Record<string, unknown>): Promise<R>;
}

/**
 * What Drizzle's node-postgres prepared query holds (drizzle-orm 0.45): the text it wrote, and the two `pg`
 * query configs that carry the statement's name. Read so the text is written once per request, not twice (once
 * to name the statement, once to prepare it): writing a contract page's SQL was a tenth of the server's CPU.
 */
interface WrittenQuery {
  queryString: string;
  rawQueryConfig: { name?: string };
  queryConfig: { name?: string };
  /** The selection in the order of the result's columns, and the mapper that replaces Drizzle's when set. */
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
/** The decoder Drizzle keeps on a `sql` (internal in its types: `mapWith` sets it). */
const sqlDecoder = (query: SQL) => (query as unknown as { decoder: Decoder }).decoder;
/** What turns a field's value as pg gives it into the value Drizzle answers (a column, a typed `sql`, an alias of one). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return sqlDecoder(field);
  if (is(field, Subquery)) return sqlDecoder(field._.sql as SQL);
  return sqlDecoder((field as SQL.Aliased).sql);
}

/**
 * The rows of a flat selection (field → column or SQL, as every list selects) mapped as Drizzle maps them, with
 * each field's decoder looked up once for the statement instead of for every value of every row: Drizzle's
 * mapper tests what each field is, per value, and walks its path — about a twentieth of a list request's CPU.
 */
function flatRowMapper(fields: NonNullable<WrittenQuery['fields']>): ((rows: unknown[][]) => Record<string, unknown>[]) | undefined {
  if (!fields.every((f) => f.path.length === 1)) return undefined;
  const names = fields.map((f) => f.path[0]!);
  const decoders = fields.map((f) => decoderOf(f.field));
  return (rows) =>
    rows.map((row) => {
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = row[i];
        mapped[names[i]!] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
      }
      return mapped;
    });
}
const statementName = (text: string) => `q_${createHash('sha1').update(text).digest('base64url')}`;

/**
 * A query as a named prepared statement, named after its text: each pooled connection parses and plans it once
 * and then reuses it — PostgreSQL keeps a generic plan after five executions when it costs no more than the
 * custom ones — instead of planning on every request (planning a list page with its lookups took 4 ms of a 5 ms
 * statement). Values stay parameters, so a connection holds one statement per shape of query (resource, sort,
 * filters), never one per value a user typed. The object can be kept and run again with other placeholder values.
 */
export function prepareNamed<R>(query: Preparable<R>): PreparedStatement<R> {
  const prepared = prepareUnnamed(query) as WrittenQuery & PreparedStatement<R>;
  prepared.rawQueryConfig.name = prepared.queryConfig.name = statementName(prepared.queryString);
  return prepared;
}

/**
 * A query written once and kept, run with the values of its placeholders, each run planned for its values (an
 * unnamed statement: parsed and planned on every run, as a query built per request is). For a list whose filter
 * holds values (`withPlaceholders`): a plan that depends on values (a status, a date, a flag the user chose) is
 * better made for them every time than kept — after five runs PostgreSQL may keep one generic plan for every
 * value, costed for an average value: an index walk fit for a rare status is a disaster for a status 90 % of
 * the rows have, and "planned before" a date matches nothing or everything. Only the writing is saved.
 */
export function prepareUnnamed<R>(query: Preparable<R>): PreparedStatement<R> {
  const prepared = query.prepare('') as unknown as Partial<WrittenQuery> & PreparedStatement<R>;
  const { queryString, rawQueryConfig, queryConfig } = prepared;
  // A Drizzle that keeps these elsewhere fails every list here, in the tests, not quietly slower.
  if (typeof queryString !== 'string' || !rawQueryConfig || !queryConfig) throw new Error('prepared: Drizzle no longer keeps the prepared query\'s text where it did');
  if (prepared.fields && !prepared.customResultMapper) prepared.customResultMapper = flatRowMapper(prepared.fields);
  return prepared;
}

/**
 * A row limit written into the statement's text instead of passed as a parameter (a whole number, checked).
 * With `LIMIT $1` PostgreSQL costs the generic plan for an unknown limit (a tenth of the rows), so it never
 * beats the custom plans and every execution of a prepared page was planned again: measured on 100k students,
 * 1.75 ms a page with the parameter against 0.52 ms with the number in the text. A statement per page size
 * (a handful) is the price. Typed as the number Drizzle's `.limit()` takes: its dialect writes any SQL chunk
 * given there as it is (`limit ${limit}`), so this is only ever an argument of `.limit()`.
 */
export function rowLimit(rows: number): number {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`row limit must be a whole number, not ${rows}`);
  return sql.raw(String(rows)) as unknown as number;
}

const dialect = new PgDialect();

/** The text and parameters of a piece of SQL, as the statement that holds it will send them. */
export const writeSql = (query: SQL) => dialect.sqlToQuery(query);

/** A condition written with its values as placeholders, to build statements from once per shape. */
export interface Parameterized {
  /** The condition with `sql.placeholder('v1')`, … where its values were. */
  template: SQL;
  /** Its text: the same for every condition of the same shape, whatever the values. */
  text: string;
  /** The values of this condition, by placeholder name. */
  values: Record<string, unknown>;
}

/**
 * A condition as its text with placeholders where its values are, and the values apart: conditions that differ
 * only in their values (a status, a date) share the text, so the statements around them can be built once and
 * run with each request's values. The values are as the driver receives them (each column's encoder applied).
 * Undefined when the text cannot be split safely: a `$` followed by digits that is not one of its parameters
 * (inside a literal) — such a condition is then written per request, as before.
 */
export function withPlaceholders(condition: SQL): Parameterized | undefined {
  const { sql: text, params } = writeSql(condition);
  const pieces = text.split(/\$(\d+)/);
  const chunks: SQLChunk[] = [];
  const values: Record<string, unknown> = {};
  for (let i = 0; i < pieces.length; i++) {
    if (i % 2 === 0) {
      if (pieces[i] !== '') chunks.push(sql.raw(pieces[i]!));
      continue;
    }
    const n = (i + 1) / 2;
    if (pieces[i] !== String(n) || n > params.length) return undefined;
    chunks.push(sql.placeholder(`v${n}`));
    values[`v${n}`] = params[n - 1];
  }
  if (Object.keys(values).length !== params.length) return undefined;
  return { template: sql.join(chunks), text, values };
}

/** The parameters of a written statement with its placeholders filled (`withPlaceholders`' values). */
export const filledParams = (query: Query, values: Record<string, unknown>): unknown[] => fillPlaceholders(query.params, values);
