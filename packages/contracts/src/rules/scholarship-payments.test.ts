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
  it("puts a university fee in the period it is for (its invoice's year and semester), not the one its invoice was dated in", () => {
    const drafts = scholarshipPaymentsToPlan({
      contract: { ...contract, end_date: '2028-08-31' },
      milestones: [],
      monthlyAllowance: '0',
      feeInvoices: [
        // Numbered late: in November 2027, the first semester of the second year.
        { id: 20, year: 1, semester: 2, planned_date: '2027-03-01', invoice_date: '2027-11-20' },
        { id: 21, year: 2, semester: 0, planned_date: '2027-09-01', invoice_date: '2028-01-10' },
      ],
      universities: new Map([[7, { id: 7, payment_amount: '1000.00' }]]),
    });
    expect(drafts.map((d) => [d.plan_key, d.period, d.planned_date])).toEqual([
      ['U20', '2026-2027/02', '2027-11-20'],
      ['U21', '2027-2028/01', '2028-01-10'],
    ]);
  });
  it('plans a monthly allowance for each month of the contract, counted from its start date', () => {
    const allowances = (start_date: string, end_date: string) =>
      scholarshipPaymentsToPlan({ contract: { ...contract, start_date, end_date }, milestones: [], monthlyAllowance: '300.00', feeInvoices: [], universities: new Map() }).map(
        (d) => [d.period, d.planned_date],
      );
    // Two years from mid-September: 24 allowances, September to August, not the 25 calendar months it touches.
    const mid = allowances('2031-09-15', '2033-09-14');
    expect(mid).toHaveLength(24);
    expect(mid[0]).toEqual(['2031-09', '2031-09-15']);
    expect(mid[1]).toEqual(['2031-10', '2031-10-01']);
    expect(mid.at(-1)).toEqual(['2033-08', '2033-08-01']);
    expect(allowances('2026-09-01', '2028-08-31')).toHaveLength(24);
    // A month begun before the end date is paid: the contract's 13th month starts on 2027-09-15.
    expect(allowances('2026-09-15', '2027-09-20')).toHaveLength(13);
    // The end of a short month: 31 January, 28 February, 31 March.
    expect(allowances('2027-01-31', '2027-03-30')).toEqual([
      ['2027-01', '2027-01-31'],
      ['2027-02', '2027-02-01'],
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
