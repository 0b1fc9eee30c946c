import { describe, expect, it } from 'vitest';
import { referenceOf } from './resource.js';

describe('referenceOf', () => {
  it('names a record by its reference field, or by several joined with a space', () => {
    expect(referenceOf({ referenceField: 'cntry_code' }, { id: 3, cntry_code: 'DE' })).toBe('DE');
    expect(referenceOf({ referenceField: ['first_name', 'last_name'] }, { id: 4, first_name: 'Łukasz', last_name: 'Wiśniewski' })).toBe(
      'Łukasz Wiśniewski',
    );
  });

  it('leaves empty parts out, and falls back to the id', () => {
    expect(referenceOf({ referenceField: ['first_name', 'last_name'] }, { id: 4, first_name: null, last_name: 'Wiśniewski' })).toBe('Wiśniewski');
    expect(referenceOf({ referenceField: 'cntry_code' }, { id: 9, cntry_code: '' })).toBe('9');
  });
});
