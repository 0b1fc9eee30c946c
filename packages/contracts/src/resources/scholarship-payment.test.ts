import { describe, expect, it } from 'vitest';
import { scholarshipPaymentActions, ScholarshipPaymentCreateSchema } from './scholarship-payment.js';

const valid = { contract_id: 1, scholarship_payment_type_id: 1, amount: 500, planned_date: '2026-09-01' };
const issuesOf = (value: unknown) => {
  const result = ScholarshipPaymentCreateSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};
const NEEDS_INVOICE = ['linked_invoice_id', 'A university fee payment (type 2) needs its linked invoice or credit note'];

describe('scholarship payment create schema (spec §5)', () => {
  it('a university fee (type 2) needs its linked invoice or credit note; other types do not', () => {
    expect(issuesOf(valid)).toEqual([]);
    expect(issuesOf({ ...valid, scholarship_payment_type_id: 2 })).toEqual([NEEDS_INVOICE]);
    expect(issuesOf({ ...valid, scholarship_payment_type_id: 2, linked_invoice_id: '' })).toEqual([NEEDS_INVOICE]);
    expect(issuesOf({ ...valid, scholarship_payment_type_id: 2, linked_invoice_id: 4 })).toEqual([]);
  });

  it('says so whatever the other fields, so a form shows it as soon as the type is chosen', () => {
    expect(issuesOf({ scholarship_payment_type_id: 2 })).toContainEqual(NEEDS_INVOICE);
    expect(issuesOf({ scholarship_payment_type_id: 'x' }).map(([path]) => path)).not.toContain('linked_invoice_id');
    // No object at all: the one issue says so (the rule is not asked, it would read a field of nothing).
    for (const body of [undefined, null, 'text', 7]) expect(issuesOf(body).map(([path]) => path)).toEqual(['']);
  });
});

describe('University Fee Check period (decision 060)', () => {
  const periodIssues = (period: string) => {
    const result = scholarshipPaymentActions.exportUniversityFeePayments.input.safeParse({ period });
    return result.success ? [] : result.error.issues.map((i) => i.message);
  };

  it('takes an academic period of two years in a row, and refuses one whose years do not follow', () => {
    expect(periodIssues('2026-2027/01')).toEqual([]);
    expect(periodIssues('2026-2030/01')).toEqual(['Period must be an academic period like 2026-2027/01: its second year follows its first']);
    expect(periodIssues('2026/01')).toEqual(['Period must be an academic period like 2026-2027/01']);
  });
});
