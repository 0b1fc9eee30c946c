import { describe, expect, it } from 'vitest';
import { contractResource, invoiceResource, outboxResource } from '../resources/index.js';
import { referenceOf, viewSortKeys, viewsOf } from './resource.js';

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

describe('viewSortKeys', () => {
  it('gives the sort key each shown column\'s header sends, once, and none for a column that does not sort', () => {
    // The contract overview's Student Name sorts by the last name.
    const contracts = viewSortKeys(contractResource, viewsOf(contractResource)[0]!);
    expect(contracts).toContain('last_name');
    expect(contracts).not.toContain('student_name');
    // A view shows its own columns: the planned invoices have no number column.
    const planned = invoiceResource.views!.find((v) => v.key === 'planned')!;
    expect(viewSortKeys(invoiceResource, planned)).toEqual(['document_reference', 'contract', 'student_name', 'year', 'semester', 'description', 'planned_date', 'edit_timestamp']);
    expect(viewSortKeys(outboxResource, viewsOf(outboxResource)[0]!)).not.toContain('last_reply');
  });
});
