import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TemplateKind } from '@app/contracts';

/**
 * Every template the product has (DESIGN §7, issue 12): its stable id, `internalname`, the name shown, the file
 * it downloads as, its kind, and the sample data an upload must render with. The built-in defaults are the files
 * of `apps/api/templates/` (outside src/, so the built server reads the same files). The data a caller passes
 * for real has the sample's shape; `office` (name, address, bank) is added to every render from the settings.
 */
export interface TemplateDefinition {
  id: number;
  internalname: string;
  displayname: string;
  filename: string;
  kind: TemplateKind;
  /** What the template is given, for the check and for an upload's test render (without `office`). */
  sample: Record<string, unknown>;
  /**
   * Other shapes real data of this template takes (a branch the sample does not reach: nothing credited, paid in
   * full), by what they are. An upload and the check render each of them too (`shapesOf`), besides the sample with
   * one line per list and the student without a bank account, which every template gets.
   */
  variants?: Record<string, Record<string, unknown>>;
}

/** The folder of the built-in defaults: apps/api/templates, from src/lib/templates or dist/lib/templates. */
export const DEFAULTS_DIR = fileURLToPath(new URL('../../../templates/', import.meta.url));

const student = {
  name: 'Łukasz Wiśniewski',
  first_name: 'Łukasz',
  last_name: 'Wiśniewski',
  email: 'lukasz.wisniewski@example.org',
  address_lines: ['Große Straße 12', '80331 München', 'Germany'],
  iban: 'DE89 3704 0044 0532 0130 00',
};

const contract = {
  reference: 'C-2024-0042',
  program: 'Mechanical Engineering (Győr exchange)',
  university: 'Technische Universität München',
  start_date: '2024-10-01',
  end_date: '2026-09-30',
  status: 'Active',
};

const invoice = {
  number: 'INV-2024-00017',
  date: '2024-10-15',
  due_date: '2024-11-14',
  description: 'Participation fee, winter semester 2024/25',
  lines: [
    { description: 'Participation fee winter semester 2024/25', amount: 1234.56 },
    { description: 'Şişli partner office: administration fee', amount: 100 },
  ],
  total: 1334.56,
  open_amount: 1334.56,
};

const creditNote = {
  number: 'CN-2024-00003',
  date: '2024-11-02',
  invoice_number: 'INV-2024-00017',
  reason: 'Semester abroad cancelled',
  lines: [{ description: 'Credit for participation fee winter semester 2024/25', amount: -1234.56 }],
  total: -1234.56,
};

const payment = { number: 'P2024-00042', date: '2024-11-10', amount: 1000, reference: 'INV-2024-00017', method: 'Bank transfer' };

/**
 * A payment confirmation says what is left: the sample's invoice is still open after the payment (334.56);
 * paid in full; or paid beyond the invoice, a credit on the contract (`open_amount` below 0).
 */
const confirmationVariants = {
  'paid in full': { student, contract, invoice: { ...invoice, open_amount: 0 }, payment: { ...payment, amount: 1334.56 } },
  'paid too much': { student, contract, invoice: { ...invoice, open_amount: -50 }, payment: { ...payment, amount: 1384.56 } },
};

/**
 * The invoice as its e-mail and reminder see it: the invoice's own total (as on its PDF), what its credit notes
 * (`credit_notes`: their numbers) and payments took off, and what is still open (invoiced − credited − paid).
 */
const invoiceMail = { ...invoice, credit_notes: 'CN-INV-2024-00017', credited: 100, paid: 500, open_amount: 734.56 };
const nothingCreditedOrPaid = { student, contract, invoice: { ...invoiceMail, credit_notes: '', credited: 0, paid: 0, open_amount: 1334.56 } };
const paidInFull = { student, contract, invoice: { ...invoiceMail, paid: 1234.56, open_amount: 0 } };

/** A credit note as its e-mail sees it: the amount credited (positive) and what is open on the invoice after it. */
const creditNoteMail = { ...creditNote, amount: 1234.56, invoice_open: 100 };

/** What the payment-information mail lists: the open invoices (earliest due first), the contract's credit, the total. */
const paymentInfo = {
  date: '2024-11-20',
  invoices: [
    { number: 'INV-2024-00017', description: 'Participation fee winter semester 2024/25', date: '2024-10-15', due_date: '2024-11-14', open: 1234.56, overdue: true },
    { number: 'INV-2025-00002', description: 'Participation fee summer semester 2025', date: '2024-11-15', due_date: '2024-12-15', open: 1234.56, overdue: false },
  ],
  credit: 100,
  total: 2369.12,
};

/** A contract's payment status as of a date (issue 14 point 5): a line per invoice, and the totals. */
const paymentStatus = {
  date: '2025-03-15',
  lines: [
    { number: 'INV-2024-00017', date: '2024-10-15', due_date: '2024-11-14', description: 'Participation fee winter semester 2024/25', invoiced: 1334.56, credited: 100, paid: 500, open: 734.56, expired: true, paid_before_invoiced: false },
    { number: 'INV-2025-00002', date: '2025-04-01', due_date: '2025-05-01', description: 'Participation fee summer semester 2025', invoiced: 0, credited: 0, paid: 200, open: -200, expired: false, paid_before_invoiced: true },
  ],
  invoiced: 1334.56,
  credited: 100,
  paid: 700,
  open: 534.56,
};

const declared: Omit<TemplateDefinition, 'filename'>[] = [
  {
    id: 1,
    internalname: 'invoice_pdf',
    displayname: 'Invoice (PDF)',
    kind: 'pdf',
    // `pro_forma`: a registration fee asked for before the contract (decision 055: it printed as an ordinary invoice).
    sample: { student, contract, invoice: { ...invoice, pro_forma: false } },
    variants: { 'pro forma': { student, contract, invoice: { ...invoice, pro_forma: true } } },
  },
  { id: 2, internalname: 'credit_note_pdf', displayname: 'Credit note (PDF)', kind: 'pdf', sample: { student, contract, credit_note: creditNote } },
  { id: 3, internalname: 'payment_confirmation_pdf', displayname: 'Payment confirmation (PDF)', kind: 'pdf', sample: { student, contract, invoice: { ...invoice, open_amount: 334.56 }, payment }, variants: confirmationVariants },
  { id: 4, internalname: 'student_agreement_pdf', displayname: 'Student agreement (PDF)', kind: 'pdf', sample: { student, contract, date: '2024-09-01' } },
  { id: 5, internalname: 'invoice_email', displayname: 'E-mail: invoice', kind: 'mail', sample: { student, contract, invoice: invoiceMail }, variants: { 'nothing credited or paid': nothingCreditedOrPaid, 'paid in full': paidInFull } },
  { id: 6, internalname: 'reminder_email', displayname: 'E-mail: payment reminder', kind: 'mail', sample: { student, contract, invoice: invoiceMail }, variants: { 'nothing credited or paid': nothingCreditedOrPaid } },
  { id: 7, internalname: 'payment_confirmation_email', displayname: 'E-mail: payment confirmation', kind: 'mail', sample: { student, contract, invoice: { ...invoice, open_amount: 334.56 }, payment }, variants: confirmationVariants },
  { id: 8, internalname: 'bankinfo_request_email', displayname: 'E-mail: bank information request', kind: 'mail', sample: { student, contract } },
  {
    id: 9,
    internalname: 'pf_status_email',
    displayname: 'E-mail: participation fee status',
    kind: 'mail',
    sample: {
      student,
      contract,
      pf_status: {
        date: '2024-11-20',
        invoiced: 2469.12,
        paid: 1234.56,
        open: 1234.56,
        invoices: [
          { number: 'INV-2024-00017', date: '2024-10-15', amount: 1234.56, open: 0 },
          { number: 'INV-2025-00002', date: '2025-03-15', amount: 1234.56, open: 1234.56 },
        ],
      },
    },
    variants: {
      'paid in full': {
        student,
        contract,
        pf_status: { date: '2024-11-20', invoiced: 1234.56, paid: 1234.56, open: 0, invoices: [{ number: 'INV-2024-00017', date: '2024-10-15', amount: 1234.56, open: 0 }] },
      },
    },
  },
  {
    id: 10,
    internalname: 'payment_info_email',
    displayname: 'E-mail: payment information',
    kind: 'mail',
    // `invoice` as before payment_info existed (number: the open invoices' numbers), for templates written for it.
    sample: { student, contract, invoice, payment_info: paymentInfo },
    variants: { 'no credit': { student, contract, invoice, payment_info: { ...paymentInfo, credit: 0, total: 2469.12 } } },
  },
  { id: 11, internalname: 'refund_request_email', displayname: 'E-mail: request payment information for a refund', kind: 'mail', sample: { student, contract, refund: { amount: 1234.56, reason: 'Overpayment of invoice INV-2024-00017' } } },
  { id: 12, internalname: 'test_email', displayname: 'E-mail: test mail', kind: 'mail', sample: { sent_at: '20-11-2024 14:05', recipient: 'test@example.org', user: 'Łukasz Wiśniewski', server: 'smtp.example.org:587 (starttls)' } },
  {
    id: 13,
    internalname: 'credit_note_email',
    displayname: 'E-mail: credit note',
    kind: 'mail',
    sample: { student, contract, credit_note: creditNoteMail },
    variants: {
      'nothing left open': { student, contract, credit_note: { ...creditNoteMail, invoice_open: 0 } },
      'paid beyond the invoice': { student, contract, credit_note: { ...creditNoteMail, invoice_open: -500 } },
    },
  },
  {
    id: 14,
    internalname: 'payment_status_pdf',
    displayname: 'Payment status (PDF)',
    kind: 'pdf',
    sample: { student, contract, status: paymentStatus },
    variants: { 'nothing invoiced yet': { student, contract, status: { ...paymentStatus, lines: [], invoiced: 0, credited: 0, paid: 0, open: 0 } } },
  },
];
const definitions: TemplateDefinition[] = declared.map((d) => ({ ...d, filename: `${d.internalname}.liquid` }));

export const TEMPLATES: readonly TemplateDefinition[] = definitions;

/** Every list of the data cut to its first entry: real invoices have one line where the sample has two. */
function oneOfEach(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map(oneOfEach);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, oneOfEach(v)]));
  return value;
}

const hasLongList = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 1 || value.some(hasLongList) : value !== null && typeof value === 'object' && Object.values(value).some(hasLongList);

/**
 * The data a template must render with before it is accepted (issue 12, decision 039): its sample, the sample
 * with one entry per list, the student without a bank account, and its declared variants. Real data takes each
 * of these shapes; a template that passed with the sample alone could fail on an invoice of one line.
 */
export function shapesOf(definition: TemplateDefinition): { shape: string; data: Record<string, unknown> }[] {
  const shapes = [{ shape: 'sample', data: definition.sample }];
  if (hasLongList(definition.sample)) shapes.push({ shape: 'one line per list', data: oneOfEach(definition.sample) as Record<string, unknown> });
  const sampleStudent = definition.sample.student;
  if (sampleStudent !== null && typeof sampleStudent === 'object') {
    shapes.push({ shape: 'a student without bank account', data: { ...definition.sample, student: { ...sampleStudent, iban: '' } } });
  }
  for (const [shape, data] of Object.entries(definition.variants ?? {})) shapes.push({ shape, data });
  return shapes;
}

/** A value as the variable list shows it: what `{{ }}` would write, shortened. */
const exampleOf = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/**
 * Every variable a template can use, from its sample data and variants and the office's fields: `student.name`,
 * `invoice.lines[].amount` (an entry of a list, inside `{% for line in invoice.lines %}` as `line.amount`), each
 * with an example value. What the Configuration screen lists for the designer.
 */
export function variablesOf(definition: TemplateDefinition, office: object): { name: string; example: string }[] {
  const found = new Map<string, string>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      found.set(path, `a list of ${value.length}`);
      value.slice(0, 1).forEach((entry) => walk(entry, `${path}[]`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    } else if (!found.has(path)) {
      found.set(path, exampleOf(value));
    }
  };
  for (const data of [definition.sample, ...Object.values(definition.variants ?? {})]) walk(data, '');
  walk({ office }, '');
  return [...found].map(([name, example]) => ({ name, example }));
}

const byName = new Map(definitions.map((d) => [d.internalname, d]));

export function templateDefinition(internalname: string): TemplateDefinition | undefined {
  return byName.get(internalname);
}

const defaults = new Map<string, Buffer>();

/** The built-in default's bytes (read once, kept). */
export function defaultTemplate(definition: TemplateDefinition): Buffer {
  let bytes = defaults.get(definition.internalname);
  if (!bytes) {
    bytes = readFileSync(path.join(DEFAULTS_DIR, definition.filename));
    defaults.set(definition.internalname, bytes);
  }
  return bytes;
}
