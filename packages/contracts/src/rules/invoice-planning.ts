import { DOCUMENT_TYPE_ADMINISTRATION_FEE, DOCUMENT_TYPE_PARTICIPATION_FEE, DOCUMENT_TYPE_REGISTRATION_FEE } from './document-types.js';

/** The fees of a contract's intake and scholarship (a student-fee row), as NUMERIC text (`'4500.50'`). */
export interface FeeAmounts {
  registration_fee_amount: string;
  participationfee1_amount: string;
  participationfee2_amount: string;
  administrationfee1_amount: string;
  administrationfee2_amount: string;
}

/** An invoice to plan: what it is and for how much (NUMERIC text, exact). */
export interface PlannedInvoiceDraft {
  year: number;
  semester: number;
  document_type_id: number;
  pro_forma: boolean;
  amount: string;
  description: string;
  planned_date: string;
}

/** What a contract already has, to plan only what is missing. */
export interface ExistingInvoice {
  year: number;
  semester: number;
  document_type_id: number;
}

/** `'4500.50'` → 450050 (exact: no binary fractions on the way). */
export function toCents(amount: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`not an amount: ${amount}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** 450050 → `'4500.50'`. */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A yearly amount in two semesters that add up to the cent: the first takes the odd cent. */
export function splitInSemesters(amount: string): [string, string] {
  const cents = toCents(amount);
  const first = Math.ceil(cents / 2);
  return [fromCents(first), fromCents(cents - first)];
}

/**
 * What a fee (or a university's payment amount) comes to for a whole year (semester 0) or one of its semesters:
 * the halves of `splitInSemesters`, the first taking the odd cent.
 */
export function plannedShare(amount: string, semester: number): string {
  return semester === 0 ? fromCents(toCents(amount)) : splitInSemesters(amount)[semester === 1 ? 0 : 1];
}

/** A calendar date plus whole months (the day kept, or the month's last day). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

const yearly = [
  { type: DOCUMENT_TYPE_PARTICIPATION_FEE, name: 'Participation fee', amount: (f: FeeAmounts, year: 1 | 2) => (year === 1 ? f.participationfee1_amount : f.participationfee2_amount) },
  { type: DOCUMENT_TYPE_ADMINISTRATION_FEE, name: 'Administration fee', amount: (f: FeeAmounts, year: 1 | 2) => (year === 1 ? f.administrationfee1_amount : f.administrationfee2_amount) },
] as const;

/** Whether an existing invoice already covers a draft: same fee and year, and the same period or a whole year. */
function covered(existing: readonly ExistingInvoice[], draft: Pick<ExistingInvoice, 'year' | 'semester' | 'document_type_id'>): boolean {
  return existing.some(
    (e) => e.document_type_id === draft.document_type_id && e.year === draft.year && (e.semester === draft.semester || e.semester === 0 || draft.semester === 0),
  );
}

/**
 * The invoices planning adds to a contract (issue 13 point 3): the registration fee (type 3, pro forma, due at the
 * start), and the participation and administration fees (types 5 and 7) of years 1 and 2, due at the start of
 * their year, or, with instalments, per semester (the second six months later) in halves that add up to the cent.
 * A fee of 0 is not invoiced; what the contract already has is not planned again.
 */
export function invoicesToPlan(fees: FeeAmounts, contract: { start_date: string; instalments: boolean }, existing: readonly ExistingInvoice[]): PlannedInvoiceDraft[] {
  const drafts: PlannedInvoiceDraft[] = [];
  const add = (d: PlannedInvoiceDraft) => {
    if (toCents(d.amount) > 0 && !covered(existing, d)) drafts.push(d);
  };
  add({
    year: 1,
    semester: 0,
    document_type_id: DOCUMENT_TYPE_REGISTRATION_FEE,
    pro_forma: true,
    amount: fromCents(toCents(fees.registration_fee_amount)),
    description: 'Registration fee',
    planned_date: contract.start_date,
  });
  for (const year of [1, 2] as const) {
    const yearStart = addMonths(contract.start_date, 12 * (year - 1));
    for (const fee of yearly) {
      const amount = fee.amount(fees, year);
      if (!contract.instalments) {
        add({ year, semester: 0, document_type_id: fee.type, pro_forma: false, amount: fromCents(toCents(amount)), description: `${fee.name} year ${year}`, planned_date: yearStart });
        continue;
      }
      const halves = splitInSemesters(amount);
      for (const semester of [1, 2] as const) {
        add({
          year,
          semester,
          document_type_id: fee.type,
          pro_forma: false,
          amount: semester === 1 ? halves[0] : halves[1],
          description: `${fee.name} year ${year}, semester ${semester}`,
          // Counted from the start, not from yearStart: a 29 February start's year 2 begins on 28 February, and
          // its second semester still on 29 August.
          planned_date: addMonths(contract.start_date, 12 * (year - 1) + 6 * (semester - 1)),
        });
      }
    }
  }
  return drafts;
}
