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
