import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CountryCreateSchema, optionalText, requiredText } from '@app/contracts';
import { fieldSchema, isRequiredSchema } from './required';

describe('required from the schema', () => {
  it('is required when the schema takes neither missing, null nor empty', () => {
    expect(isRequiredSchema(requiredText('Name'))).toBe(true);
    expect(isRequiredSchema(z.boolean())).toBe(true);
    expect(isRequiredSchema(z.number())).toBe(true);
    expect(isRequiredSchema(optionalText('Comments'))).toBe(false);
    expect(isRequiredSchema(z.number().default(0))).toBe(false);
    expect(isRequiredSchema(undefined)).toBe(false);
  });

  it('reads the fields of the country create schema', () => {
    expect(isRequiredSchema(fieldSchema(CountryCreateSchema, 'cntry_code'))).toBe(true);
    expect(isRequiredSchema(fieldSchema(CountryCreateSchema, 'cntry_name'))).toBe(true);
    expect(fieldSchema(CountryCreateSchema, 'edit_timestamp')).toBeUndefined();
  });
});
