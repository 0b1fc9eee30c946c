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

const payment = { number: 'P2024-00042', date: '2024-11-10', amount: 1334.56, reference: 'INV-2024-00017', method: 'Bank transfer' };

const definitions: TemplateDefinition[] = ([
  { id: 1, internalname: 'invoice_pdf', displayname: 'Invoice (PDF)', kind: 'pdf', sample: { student, contract, invoice } },
  { id: 2, internalname: 'credit_note_pdf', displayname: 'Credit note (PDF)', kind: 'pdf', sample: { student, contract, credit_note: creditNote } },
  { id: 3, internalname: 'payment_confirmation_pdf', displayname: 'Payment confirmation (PDF)', kind: 'pdf', sample: { student, contract, invoice, payment } },
  { id: 4, internalname: 'student_agreement_pdf', displayname: 'Student agreement (PDF)', kind: 'pdf', sample: { student, contract, date: '2024-09-01' } },
  { id: 5, internalname: 'invoice_email', displayname: 'E-mail: invoice', kind: 'mail', sample: { student, contract, invoice } },
  { id: 6, internalname: 'reminder_email', displayname: 'E-mail: payment reminder', kind: 'mail', sample: { student, contract, invoice } },
  { id: 7, internalname: 'payment_confirmation_email', displayname: 'E-mail: payment confirmation', kind: 'mail', sample: { student, contract, invoice, payment } },
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
  },
  { id: 10, internalname: 'payment_info_email', displayname: 'E-mail: payment information', kind: 'mail', sample: { student, contract, invoice } },
  { id: 11, internalname: 'refund_request_email', displayname: 'E-mail: request payment information for a refund', kind: 'mail', sample: { student, contract, refund: { amount: 1234.56, reason: 'Overpayment of invoice INV-2024-00017' } } },
  { id: 12, internalname: 'test_email', displayname: 'E-mail: test mail', kind: 'mail', sample: { sent_at: '20-11-2024 14:05', recipient: 'test@example.org', user: 'Łukasz Wiśniewski', server: 'smtp.example.org:587 (starttls)' } },
] satisfies Omit<TemplateDefinition, 'filename'>[]).map((d) => ({ ...d, filename: `${d.internalname}.liquid` }));

export const TEMPLATES: readonly TemplateDefinition[] = definitions;

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
