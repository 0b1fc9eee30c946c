import { describe, expect, it } from 'vitest';
import { addMonths, fromCents, invoicesToPlan, plannedShare, splitInSemesters, toCents } from './invoice-planning.js';
import { documentReference } from './document-types.js';
import { secondSemesterDate } from './scholarship-payments.js';

const fees = {
  registration_fee_amount: '150.00',
  participationfee1_amount: '4500.01',
  participationfee2_amount: '4500.00',
  administrationfee1_amount: '100.00',
  administrationfee2_amount: '0.00',
};

describe('invoice planning (issue 13 point 3)', () => {
  it('plans the registration fee and the yearly fees, skipping fees of 0', () => {
    const drafts = invoicesToPlan(fees, { start_date: '2026-09-01', instalments: false }, []);
    expect(drafts.map((d) => [d.document_type_id, d.year, d.semester, d.amount, d.planned_date, d.pro_forma])).toEqual([
      [3, 1, 0, '150.00', '2026-09-01', true],
      [5, 1, 0, '4500.01', '2026-09-01', false],
      [7, 1, 0, '100.00', '2026-09-01', false],
      [5, 2, 0, '4500.00', '2027-09-01', false],
    ]);
  });

  it('with instalments splits each yearly fee in two semesters that add up to the cent', () => {
    const drafts = invoicesToPlan(fees, { start_date: '2026-08-31', instalments: true }, []);
    const pf1 = drafts.filter((d) => d.document_type_id === 5 && d.year === 1);
    expect(pf1.map((d) => [d.semester, d.amount, d.planned_date])).toEqual([
      [1, '2250.01', '2026-08-31'],
      [2, '2250.00', '2027-02-28'],
    ]);
    for (const amount of ['0.01', '0.03', '4500.01', '9999999999.99', '1.00']) {
      const [a, b] = splitInSemesters(amount);
      expect(toCents(a) + toCents(b)).toBe(toCents(amount));
    }
  });

  it('counts every semester from the start: a 29 February start has its year 2 on 28 February and its second semester on 29 August (decision 060)', () => {
    const drafts = invoicesToPlan(fees, { start_date: '2028-02-29', instalments: true }, []).filter((d) => d.document_type_id === 5);
    expect(drafts.map((d) => [d.year, d.semester, d.planned_date])).toEqual([
      [1, 1, '2028-02-29'],
      [1, 2, '2028-08-29'],
      [2, 1, '2029-02-28'],
      [2, 2, '2029-08-29'],
    ]);
    // Split later (Switch to semester payment): the same days, unless someone moved the yearly date.
    expect(secondSemesterDate('2029-02-28', '2028-02-29', 2)).toBe('2029-08-29');
    expect(secondSemesterDate('2029-03-15', '2028-02-29', 2)).toBe('2029-09-15');
    expect(secondSemesterDate('2026-09-01', '2026-09-01', 1)).toBe('2027-03-01');
  });

  it('plannedShare is the whole amount for a year and the halves of splitInSemesters for its semesters', () => {
    expect([0, 1, 2].map((s) => plannedShare('4500.01', s))).toEqual(['4500.01', '2250.01', '2250.00']);
    expect([0, 1, 2].map((s) => plannedShare('0.01', s))).toEqual(['0.01', '0.01', '0.00']);
    expect(plannedShare('1500', 0)).toBe('1500.00');
  });

  it('plans nothing again that the contract has (idempotent), and only the missing semester', () => {
    const first = invoicesToPlan(fees, { start_date: '2026-09-01', instalments: true }, []);
    expect(invoicesToPlan(fees, { start_date: '2026-09-01', instalments: true }, first)).toEqual([]);
    const withoutOne = first.filter((d) => !(d.document_type_id === 5 && d.year === 2 && d.semester === 2));
    expect(invoicesToPlan(fees, { start_date: '2026-09-01', instalments: true }, withoutOne).map((d) => [d.document_type_id, d.year, d.semester])).toEqual([[5, 2, 2]]);
    // A whole-year invoice covers both semesters, and a semester covers the whole year.
    expect(invoicesToPlan(fees, { start_date: '2026-09-01', instalments: false }, first)).toEqual([]);
  });

  it('money and date helpers are exact', () => {
    expect(toCents('12.5')).toBe(1250);
    expect(fromCents(-5)).toBe('-0.05');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(documentReference('A000042', { year: 1, semester: 2, document_type_id: 5 })).toBe('A000042-Y1-S2-T5');
    expect(documentReference('A000042', { year: 2, semester: 0, document_type_id: 7 })).toBe('A000042-Y2-T7');
  });
});
