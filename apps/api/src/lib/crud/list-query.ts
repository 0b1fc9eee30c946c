import { z } from 'zod';
import { AppError, ListParamsSchema, parseCursor, parseSort, type AnyResource, type ListQuery, type SortKey } from '@app/contracts';
import { parseInput } from '../errors.js';

/**
 * The schema of a resource's list query, made once: zod compiles an object schema the first time it parses with
 * it, which cost more than the parse itself when a new schema was made for every request.
 */
const makeListSchema = (resource: AnyResource) => z.strictObject({ ...ListParamsSchema.shape, ...resource.filterSchema.shape });
const listSchemas = new WeakMap<AnyResource, ReturnType<typeof makeListSchema>>();
function listSchemaOf(resource: AnyResource) {
  let schema = listSchemas.get(resource);
  if (!schema) listSchemas.set(resource, (schema = makeListSchema(resource)));
  return schema;
}

/**
 * The order of a list asked for without one: that of the view whose fixed filter the request carries (the
 * planned invoices by reference, as their overview shows them), else the resource's.
 */
function defaultSortOf(resource: AnyResource, filters: Readonly<Record<string, unknown>>): SortKey[] {
  const view = resource.views?.find((v) => v.defaultSort && v.fixedFilter && Object.entries(v.fixedFilter).every(([field, value]) => filters[field] === value));
  return [...(view?.defaultSort ?? resource.defaultSort)];
}

/**
 * The list query of an export's or list action's `filter` (the overview's query as the web sends it), without its
 * paging and the keys in `omit`, with `over` laid on it (the action's own filter values).
 */
export function filterQueryOf(
  resource: AnyResource,
  filter: Readonly<Record<string, string | number | boolean>> | undefined,
  { omit = [], over = {} }: { omit?: readonly string[]; over?: Record<string, string> } = {},
): ListQuery<Record<string, unknown>> {
  const given = Object.entries(filter ?? {}).filter(([k]) => k !== 'page' && k !== 'per_page' && !omit.includes(k));
  return parseListQuery(resource, { ...Object.fromEntries(given.map(([k, v]) => [k, String(v)])), ...over });
}

/**
 * Parses a list request's query string against the resource: paging, quick filter, sort keys
 * (whitelisted) and the advanced filters its descriptor declares. Anything else is a 400.
 */
export function parseListQuery(resource: AnyResource, query: unknown): ListQuery<Record<string, unknown>> {
  const raw = (query ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value) || (typeof value === 'object' && value !== null)) {
      throw new AppError('BAD_REQUEST', `Invalid list query: ${key}`, { [key]: [`${key} may be given once`] });
    }
  }
  const schema = listSchemaOf(resource);
  const { page, per_page, search, sort, count, cursor, ...filters } = parseInput(schema, raw, 'list query');
  let keys;
  try {
    keys = sort ? parseSort(sort, resource.sortable) : defaultSortOf(resource, filters);
  } catch (err) {
    const message = err instanceof Error ? err.message : 'invalid sort';
    throw new AppError('BAD_REQUEST', `Invalid list query: sort`, { sort: [message] });
  }
  return {
    page,
    perPage: per_page,
    search: search || undefined,
    sort: keys.length > 0 ? keys : defaultSortOf(resource, filters),
    filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')),
    exactCount: count === 'exact',
    ...(cursor ? { cursor: parseCursor(cursor) } : {}),
  };
}
