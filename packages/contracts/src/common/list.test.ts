import { describe, expect, it } from 'vitest';
import { formatSort, ListParamsSchema, paginate, parseSort, rangeText } from './list.js';

describe('parseSort', () => {
  const sortable = ['last_name', 'start_date', 'id'];

  it('reads comma-joined field|direction keys in order', () => {
    expect(parseSort('last_name|asc,start_date|desc', sortable)).toEqual([
      { field: 'last_name', direction: 'asc' },
      { field: 'start_date', direction: 'desc' },
    ]);
  });

  it('defaults the direction to asc and ignores empty parts', () => {
    expect(parseSort('last_name,,', sortable)).toEqual([{ field: 'last_name', direction: 'asc' }]);
    expect(parseSort('', sortable)).toEqual([]);
  });

  it('refuses unknown fields, bad directions, repeated fields and extra parts', () => {
    expect(() => parseSort('password|asc', sortable)).toThrow('cannot sort by "password"');
    expect(() => parseSort('last_name|up', sortable)).toThrow('must be asc or desc');
    expect(() => parseSort('last_name|asc,last_name|desc', sortable)).toThrow('sorted by twice');
    expect(() => parseSort('last_name|asc|x', sortable)).toThrow('is not of the form');
  });

  it('round-trips through formatSort', () => {
    const keys = parseSort('start_date|desc,id|asc', sortable);
    expect(formatSort(keys)).toBe('start_date|desc,id|asc');
  });
});

describe('paginate and rangeText', () => {
  it('computes the range of a full, a partial and an empty page', () => {
    expect(paginate(120, 1, 50)).toEqual({ total: 120, per_page: 50, current_page: 1, last_page: 3, from: 1, to: 50 });
    expect(paginate(120, 3, 50)).toMatchObject({ from: 101, to: 120, last_page: 3 });
    expect(paginate(0, 1, 50)).toMatchObject({ from: 0, to: 0, last_page: 1 });
    expect(paginate(120, 4, 50)).toMatchObject({ from: 0, to: 0 });
  });

  it('shows from-to of total', () => {
    expect(rangeText(paginate(120, 2, 50))).toBe('51-100 of 120');
    expect(rangeText(paginate(0, 1, 50))).toBe('0-0 of 0');
  });

  it('says "about" when the total is an estimate', () => {
    expect(paginate(100_000, 2, 50, true)).toMatchObject({ estimated: true, last_page: 2000, from: 51, to: 100 });
    expect(paginate(100_000, 2, 50)).not.toHaveProperty('estimated');
    expect(rangeText(paginate(100_000, 2, 50, true))).toBe('51-100 of about 100000');
  });
});

describe('ListParamsSchema', () => {
  it('defaults to page 1 of 50 and coerces query text', () => {
    expect(ListParamsSchema.parse({})).toMatchObject({ page: 1, per_page: 50 });
    expect(ListParamsSchema.parse({ page: '3', per_page: '20' })).toMatchObject({ page: 3, per_page: 20 });
  });

  it('refuses a page below 1, a per_page over 200 and fractions, naming the field', () => {
    for (const [input, field] of [
      [{ page: '0' }, 'page'],
      [{ per_page: '201' }, 'per_page'],
      [{ page: '1.5' }, 'page'],
      [{ page: 'x' }, 'page'],
    ] as const) {
      const result = ListParamsSchema.safeParse(input);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([field]);
      expect(result.error?.issues[0]?.message).toContain(field);
    }
  });
});
