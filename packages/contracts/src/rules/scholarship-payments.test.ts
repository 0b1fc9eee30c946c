import { describe, expect, it } from 'vitest';
import { paymentDateOf, scholarshipPaymentsToPlan, universityFeePeriod } from './scholarship-payments.js';

describe('universityFeePeriod (spec §9)', () => {
  const cases: [string, string][] = [
    ['2026-01-15', '2025-2026/01'],
    ['2026-02-28', '2025-2026/01'],
    ['2026-03-01', '2025-2026/02'],
    ['2026-04-10', '2025-2026/02'],
    ['2026-05-10', '2025-2026/02'],
    ['2026-06-10', '2025-2026/02'],
    ['2026-07-10', '2025-2026/02'],
    ['2026-08-31', '2025-2026/02'],
    ['2026-09-01', '2026-2027/01'],
    ['2026-10-10', '2026-2027/01'],
    ['2026-11-10', '2026-2027/01'],
    ['2026-12-31', '2026-2027/01'],
  ];
  for (const [day, period] of cases) it(`gives ${period} for ${day} (month ${day.slice(5, 7)})`, () => expect(universityFeePeriod(day)).toBe(period));
});

describe('paymentDateOf', () => {
  it('takes the given date, else the planned date if to come, else today', () => {
    expect(paymentDateOf('2026-05-01', '2020-01-01', '2026-03-03')).toBe('2026-05-01');
    expect(paymentDateOf(undefined, '2026-04-01', '2026-03-03')).toBe('2026-04-01');
    expect(paymentDateOf(undefined, '2026-03-03', '2026-03-03')).toBe('2026-03-03');
    expect(paymentDateOf(null, '2026-01-01', '2026-03-03')).toBe('2026-03-03');
  });
});

describe('scholarshipPaymentsToPlan', () => {
  const contract = { start_date: '2026-09-01', end_date: '2027-08-31', check_universityfee_payment: true, y1_university_id: 7, y2_university_id: null };
  it('splits a semester invoice’s university fee to the cent and plans nothing of 0', () => {
    const drafts = scholarshipPaymentsToPlan({
      contract,
      milestones: [{ id: 1, year: 1, milestone_date: null, milestone_amount: '0.00' }],
      monthlyAllowance: '0',
      feeInvoices: [
        { id: 10, year: 1, semester: 1, planned_date: '2026-09-01', invoice_date: null },
        { id: 11, year: 1, semester: 2, planned_date: '2027-03-01', invoice_date: null },
      ],
      universities: new Map([[7, { id: 7, payment_amount: '1000.01' }]]),
    });
    expect(drafts.map((d) => [d.plan_key, d.amount, d.period, d.linked_invoice_id])).toEqual([
      ['U10', '500.01', '2026-2027/01', 10],
      ['U11', '500.00', '2026-2027/02', 11],
    ]);
  });
  it('plans no university fee without check_universityfee_payment', () => {
    const drafts = scholarshipPaymentsToPlan({
      contract: { ...contract, check_universityfee_payment: false },
      milestones: [],
      monthlyAllowance: null,
      feeInvoices: [{ id: 10, year: 1, semester: 0, planned_date: '2026-09-01', invoice_date: null }],
      universities: new Map([[7, { id: 7, payment_amount: '1000' }]]),
    });
    expect(drafts).toEqual([]);
  });
});
