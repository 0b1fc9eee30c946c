import { z } from 'zod';

/** Common field schemas, so every resource words its messages the same way. */
export const requiredText = (label: string, max = 255) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const optionalText = (label: string, max = 255) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).nullish();

export const idSchema = z.coerce.number().int().positive();

export const timestampSchema = z.string().nullable();
