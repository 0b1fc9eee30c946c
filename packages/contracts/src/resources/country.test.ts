import { describe, expect, it } from 'vitest';
import { CountryCreateSchema, CountryUpdateSchema } from './country.js';

describe('country schemas', () => {
  it('requires code and name, trims them and upper-cases the code', () => {
    expect(CountryCreateSchema.parse({ cntry_code: ' de ', cntry_name: ' Germany ' })).toEqual({ cntry_code: 'DE', cntry_name: 'Germany' });
    const missing = CountryCreateSchema.safeParse({});
    expect(missing.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['cntry_code', 'Code is required'],
      ['cntry_name', 'Name is required'],
    ]);
  });

  it('accepts 2 or 3 letters as a code', () => {
    expect(CountryCreateSchema.safeParse({ cntry_code: 'D', cntry_name: 'x' }).success).toBe(false);
    expect(CountryCreateSchema.safeParse({ cntry_code: 'D1', cntry_name: 'x' }).success).toBe(false);
    expect(CountryCreateSchema.safeParse({ cntry_code: 'DEUX', cntry_name: 'x' }).success).toBe(false);
    expect(CountryCreateSchema.safeParse({ cntry_code: 'DEU', cntry_name: 'x' }).success).toBe(true);
  });

  it('takes a partial update with the id', () => {
    expect(CountryUpdateSchema.parse({ id: 4, cntry_name: 'New' })).toEqual({ id: 4, cntry_name: 'New' });
    expect(CountryUpdateSchema.safeParse({ cntry_name: 'New' }).success).toBe(false);
  });
});
