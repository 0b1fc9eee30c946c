import type { z } from 'zod';
import type { QueryValue } from '../../lib/api-client';
import { fieldKinds } from './field-kinds';
import type { FieldDef } from './types';

/** A row's (or remembered filter's) value → the input's value. */
export function toFormValue(def: FieldDef, wire: unknown): unknown {
  return fieldKinds[def.kind].toForm(wire, def);
}

/** The input's value → what is validated and sent. */
export function toWireValue(def: FieldDef, form: unknown): unknown {
  return fieldKinds[def.kind].toWire(form, def);
}

/** The kind's own complaint about an input (a mistyped date), before any schema is asked. */
export function kindError(def: FieldDef, form: unknown): string | undefined {
  return fieldKinds[def.kind].invalid?.(form, def);
}

/** The default a schema gives a missing value (`.default(0)`), if any: new records show it. */
export function schemaDefault(schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(undefined);
  return result.success ? result.data : undefined;
}

/** A query parameter is text on the wire: Yes / No filters are sent (and checked) as 'true' / 'false'. */
function queryValue(wire: unknown): QueryValue {
  return typeof wire === 'boolean' ? String(wire) : (wire as QueryValue);
}

/** Filter inputs → query parameters named after the filter fields (a date range gives `_from` and `_to`). */
export function filterParams(fields: readonly FieldDef[], values: Record<string, unknown>): Record<string, QueryValue> {
  const params: Record<string, QueryValue> = {};
  for (const def of fields) {
    const kind = fieldKinds[def.kind];
    const wire = kind.toWire(values[def.name], def);
    if (kind.toParams) Object.assign(params, kind.toParams(wire, def));
    else params[def.name] = wire === null || wire === undefined || wire === '' ? undefined : queryValue(wire);
  }
  for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
  return params;
}

/** Remembered query parameters → the filter inputs' values. */
export function filterFormValues(fields: readonly FieldDef[], params: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const def of fields) {
    const kind = fieldKinds[def.kind];
    const wire = kind.fromParams ? kind.fromParams(params, def) : params[def.name];
    values[def.name] = kind.toForm(wire, def);
  }
  return values;
}
