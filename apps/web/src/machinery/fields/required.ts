import type { z } from 'zod';

function accepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

/**
 * A field is required when its schema takes neither a missing value, nor null, nor an empty text: "required"
 * comes from the zod create schema (CONVENTIONS "Detail"), never from a second list.
 */
export function isRequiredSchema(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  return !accepts(schema, undefined) && !accepts(schema, null) && !accepts(schema, '');
}

/** The schema of one field of an object schema, if it has one. */
export function fieldSchema(objectSchema: z.ZodObject, name: string): z.ZodType | undefined {
  const shape = objectSchema.shape as Record<string, z.ZodType | undefined>;
  return Object.hasOwn(shape, name) ? shape[name] : undefined;
}

/**
 * The fields a rule across fields requires with these values (a university fee names its invoice, spec §5): the
 * whole schema refuses each of them empty although its own schema takes it. A zod refinement of the contract
 * says so, as for any other required field; the form shows them required while the rule holds.
 */
export function requiredByRules(objectSchema: z.ZodObject, wire: Readonly<Record<string, unknown>>, names: readonly string[]): string[] {
  return names.filter((name) => {
    const own = fieldSchema(objectSchema, name);
    if (!own || isRequiredSchema(own)) return false;
    const empty = [null, undefined, ''].find((v) => accepts(own, v));
    const result = objectSchema.safeParse({ ...wire, [name]: empty });
    return !result.success && result.error.issues.some((issue) => issue.path[0] === name);
  });
}
