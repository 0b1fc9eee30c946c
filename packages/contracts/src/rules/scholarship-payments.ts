import { addMonths, plannedShare } from './invoice-planning.js';

/** Scholarship payment types (decision 022), seeded lookup `scholarship_payment_types`. */
export const SCHOLARSHIP_PAYMENT_TYPE_MILESTONE = 1;
/** Paid to the university; it settles a fee invoiced to the student, so it names that invoice (spec §5). */
export const SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE = 2;
export const SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE = 3;
export const SCHOLARSHIP_PAYMENT_TYPE_OTHER = 4;

/**
 * The default university fee period of a day (spec §9), as academic-year text: September to December of Y give
 * `Y-Y+1/01`; January and February give `Y-1-Y/01`; March to August give `Y-1-Y/02`.
 */
export function universityFeePeriod(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  if (month >= 9) return `${year}-${year + 1}/01`;
  if (month <= 2) return `${year - 1}-${year}/01`;
  return `${year - 1}-${year}/02`;
}

/** The first day of a contract's year (1, 2) and semester (0 the whole year, 1, 2): its start, plus 12 and 6 months. */
export function termStart(contractStart: string, year: number, semester: number): string {
  return addMonths(contractStart, 12 * (year - 1) + (semester === 2 ? 6 : 0));
}

/**
 * The day six months after a yearly invoice's or fee's planned date, where a split into semesters plans the second:
 * counted from the contract's start when the date is its year's start (a 29 February start's year 2 begins on 28
 * February, its second semester still on 29 August), from the date itself when someone moved it.
 */
export function secondSemesterDate(planned: string, contractStart: string, year: number): string {
  return planned === termStart(contractStart, year, 0) ? termStart(contractStart, year, 2) : addMonths(planned, 6);
}

/**
 * The payment date of a payment being scheduled (issue 15 point 3): the one given; otherwise the planned date if
 * it is still to come; otherwise today.
 */
export function paymentDateOf(given: string | undefined | null, plannedDate: string, today: string): string {
  if (given) return given;
  return plannedDate > today ? plannedDate : today;
}

export interface MilestoneRow {
  id: number;
  year: number;
  milestone_date: string | null;
  milestone_amount: string;
}

export interface PlanContract {
  start_date: string;
  end_date: string;
  check_universityfee_payment: boolean;
  y1_university_id: number;
  y2_university_id: number | null;
}

/** A participation-fee invoice of the contract (not a credit note): a university fee payment settles it. */
export interface FeeInvoice {
  id: number;
  year: number;
  semester: number;
  planned_date: string | null;
  invoice_date: string | null;
}

export interface UniversityFee {
  id: number;
  payment_amount: string;
}

/** A payment to plan, keyed by what it was made from (so planning twice plans nothing new). */
export interface PaymentDraft {
  plan_key: string;
  scholarship_payment_type_id: number;
  period: string;
  amount: string;
  description: string;
  planned_date: string;
  university_id: number | null;
  linked_invoice_id: number | null;
}

const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount.trim());

/**
 * What a contract's scholarship pays out (issue 15 point 2, decision 022):
 * - each milestone of its intake and scholarship (year, date, amount), period `Y{year}`, on the milestone's date
 *   (or the contract's start plus the years before it);
 * - the student fee's monthly allowance for every month of the contract, counted from its start date (a contract
 *   of 2031-09-15 to 2033-09-14 has 24 months, not the 25 calendar months it touches), period the calendar month
 *   the contract's month starts in (`YYYY-MM`), on the first of that month (the start date in the first month);
 * - with `check_universityfee_payment`, the university fee of each participation-fee invoice, to the university
 *   of that year, period by the spec §9 rule of the invoice's date, linked to the invoice (spec §5). A year without
 *   such an invoice gets no university fee row: it is made by hand.
 * Amounts of 0 are not planned.
 */
export function scholarshipPaymentsToPlan(input: {
  contract: PlanContract;
  milestones: readonly MilestoneRow[];
  monthlyAllowance: string | null;
  feeInvoices: readonly FeeInvoice[];
  universities: ReadonlyMap<number, UniversityFee>;
}): PaymentDraft[] {
  const { contract } = input;
  const drafts: PaymentDraft[] = [];
  for (const m of input.milestones) {
    if (isZero(m.milestone_amount)) continue;
    drafts.push({
      plan_key: `M${m.id}`,
      scholarship_payment_type_id: SCHOLARSHIP_PAYMENT_TYPE_MILESTONE,
      period: `Y${m.year}`,
      amount: m.milestone_amount,
      description: `Milestone year ${m.year}`,
      planned_date: m.milestone_date ?? addMonths(contract.start_date, 12 * (m.year - 1)),
      university_id: null,
      linked_invoice_id: null,
    });
  }
  if (input.monthlyAllowance && !isZero(input.monthlyAllowance)) {
    for (let i = 0; i <= 120; i++) {
      // The contract's month i starts on this day; a month that starts after the end date is not the contract's.
      const starts = addMonths(contract.start_date, i);
      if (starts > contract.end_date) break;
      const month = starts.slice(0, 7);
      const first = `${month}-01`;
      drafts.push({
        plan_key: `A${month}`,
        scholarship_payment_type_id: SCHOLARSHIP_PAYMENT_TYPE_ALLOWANCE,
        period: month,
        amount: input.monthlyAllowance,
        description: `Monthly allowance ${month}`,
        planned_date: i === 0 ? contract.start_date : first,
        university_id: null,
        linked_invoice_id: null,
      });
    }
  }
  if (contract.check_universityfee_payment) {
    for (const inv of input.feeInvoices) {
      const universityId = inv.year >= 2 ? (contract.y2_university_id ?? contract.y1_university_id) : contract.y1_university_id;
      const university = input.universities.get(universityId);
      if (!university || isZero(university.payment_amount)) continue;
      const amount = plannedShare(university.payment_amount, inv.semester);
      const day = inv.invoice_date ?? inv.planned_date ?? addMonths(contract.start_date, 12 * (inv.year - 1));
      drafts.push({
        plan_key: `U${inv.id}`,
        scholarship_payment_type_id: SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE,
        // The period the fee is for — the contract's year and semester of its invoice — not when the invoice was
        // dated: a fee invoiced late fell into the next period of the University Fee Check (decision 055).
        period: universityFeePeriod(termStart(contract.start_date, inv.year, inv.semester)),
        amount,
        description: `University fee year ${inv.year}${inv.semester === 0 ? '' : ` semester ${inv.semester}`}`,
        planned_date: day,
        university_id: universityId,
        linked_invoice_id: inv.id,
      });
    }
  }
  return drafts;
}
