import archiver from 'archiver';
import ExcelJS from 'exceljs';
import { Router, type Response } from 'express';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { validateIBAN, ValidationErrorsIBAN } from 'ibantools';
import {
  AppError,
  BANKINFO_IMPORT_COLUMNS,
  CONTRACT_IMPORT_COLUMNS,
  ContractCreateSchema,
  contractEndDate,
  contractImportActions,
  contractResource,
  IMPORT_TYPES,
  ImportResultsRequestSchema,
  compactIban,
  GENDERS,
  STUDENT_BANK_FIELDS,
  StudentCreateSchema,
  todayIn,
  type ImportColumn,
  formatDate,
  formatDateTime,
} from '@app/contracts';
import { contracts, countries, programs, scholarships, students, universities, users, type DbOrTx, type Tx } from '@app/db';
import type { z } from 'zod';
import type { ResourceModule } from '../../lib/actions/module.js';
import { importAction, listAction, type ActionImpl, type ImportRow, type ImportSource } from '../../lib/actions/types.js';
import type { ImportOutcome } from '../../lib/imports/outcome.js';
import { sendImportResults } from '../../lib/batch/batch-service.js';
import type { AppContext } from '../../lib/context.js';
import { actorOf } from '../../lib/crud/crud-router.js';
import type { Actor, CrudService, Row } from '../../lib/crud/crud-service.js';
import { filterQueryOf } from '../../lib/crud/list-query.js';
import { parseInput } from '../../lib/errors.js';
import { earlierRows, leaveForLaterRows } from '../../lib/preview-memory.js';
import { describeChanges, recordEvent } from '../../lib/events/record.js';
import { sanitizeFilename } from '../../lib/files/filename.js';
import { ignoredColumnsNote, readSheet, refuseRepeats } from '../../lib/imports/sheet.js';
import { readZip } from '../../lib/imports/zip.js';
import { dreamApplyClient } from '../../lib/dream-apply/client.js';
import { dreamApplyConfigRouter, readDreamApplySettings } from '../../lib/dream-apply/settings.js';
import { route } from '../../lib/routes.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';
import { renderPdf } from '../../lib/templates/pdf.js';
import { setAttachment } from '../../lib/files/download.js';

type Values = Record<string, string | null>;
type ListKind = 'programs' | 'universities' | 'scholarships' | 'countries';

/** How each reference table is looked up: by short name (code) or name, without case. */
const LOOKUPS: Record<ListKind, { id: AnyPgColumn; keys: AnyPgColumn[]; label: AnyPgColumn; table: typeof programs | typeof universities | typeof scholarships | typeof countries }> = {
  programs: { table: programs, id: programs.id, keys: [programs.shortname, programs.name], label: programs.shortname },
  universities: { table: universities, id: universities.id, keys: [universities.shortname, universities.name], label: universities.shortname },
  scholarships: { table: scholarships, id: scholarships.id, keys: [scholarships.code], label: scholarships.code },
  countries: { table: countries, id: countries.id, keys: [countries.cntry_code, countries.cntry_name], label: countries.cntry_code },
};

/** The column a form field comes from, for messages that name the column. */
const FIELD_COLUMN: Record<string, string> = {
  cntry_id: 'country',
  citizenship1_cntry_id: 'citizenship',
  payment_bank_cntry_id: 'payment_bank_country',
  payment_holder_cntry_id: 'payment_holder_country',
  scholarship_id: 'scholarship',
  program_id: 'program',
  y1_university_id: 'y1_university',
  y2_university_id: 'y2_university',
  // DreamApply's application ID comes in its rows' application_id column.
  da_application_id: 'application_id',
};

const titleOf = (columns: readonly { key: string; title: string }[], key: string) => columns.find((c) => c.key === (FIELD_COLUMN[key] ?? key))?.title ?? key;

/** Fields a row changed, named as the import's columns head them ("City", "IBAN, BIC"), not by their database names. */
const titlesOf = (columns: readonly { key: string; title: string }[], fields: readonly string[]) => fields.map((f) => titleOf(columns, f)).join(', ');

/** What a row changes in a found contract and its student: "contract: Start Date, End Date; student: City". */
function recordUpdates(columns: readonly { key: string; title: string }[], contractChanged: readonly string[], studentChanged: readonly string[]): ImportOutcome {
  const parts = [contractChanged.length > 0 ? `contract: ${titlesOf(columns, contractChanged)}` : '', studentChanged.length > 0 ? `student: ${titlesOf(columns, studentChanged)}` : ''];
  return { updates: parts.filter(Boolean).join('; ') || undefined };
}

/** "IBAN: checksum wrong", "Start Date: must be a date": the column first, the form's label not repeated. */
function problem(title: string, message: string): string {
  const rest = message.toLowerCase().startsWith(`${title.toLowerCase()} `) ? message.slice(title.length + 1) : message;
  return `${title}: ${rest}`;
}

/** Collects a row's problems; a row with any is refused as a whole, naming each column (once). */
class Problems {
  readonly list: string[] = [];
  private readonly named = new Set<string>();
  constructor(private readonly columns: readonly ImportColumn[]) {}
  add(key: string, message: string) {
    const column = FIELD_COLUMN[key] ?? key;
    if (this.named.has(column)) return;
    this.named.add(column);
    this.list.push(problem(titleOf(this.columns, key), message));
  }
  zod(error: z.ZodError) {
    for (const issue of error.issues) {
      const key = String(issue.path[0] ?? '');
      if (key === 'student_id') continue;
      // A sheet takes a date cell or either way of writing it (the Explanation sheet says so); the form's wording is of the API.
      this.add(key, issue.message.replace(/must be a date \(YYYY-MM-DD\)$/, 'must be a date: a date cell, YYYY-MM-DD or DD-MM-YYYY'));
    }
  }
  throwIfAny() {
    if (this.list.length > 0) throw new AppError('BAD_REQUEST', this.list.join('; '));
  }
}

/** A reference by short name or name (country by code or name); an unknown or ambiguous one is a problem. */
async function lookup(tx: DbOrTx, kind: ListKind, text: string | null, key: string, problems: Problems): Promise<number | null> {
  if (text === null) return null;
  const l = LOOKUPS[kind];
  const matches = await tx
    .select({ id: l.id })
    .from(l.table)
    .where(sql.join(l.keys.map((k): SQL => sql`lower(${k}) = lower(${text})`), sql` or `))
    .limit(2);
  if (matches.length === 1) return matches[0]!.id as number;
  problems.add(key, matches.length === 0 ? `"${text}" is not known` : `"${text}" matches more than one`);
  return null;
}

/** YYYY-MM-DD as is; DD-MM-YYYY and DD.MM.YYYY (as people type dates) turned round. */
function isoDateText(text: string | null): string | null {
  if (text === null) return null;
  const m = /^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$/.exec(text);
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : text;
}

function whole(text: string | null): number | string | undefined {
  if (text === null) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}

/** The IBAN's own check, with the reason a person can fix. */
function ibanProblem(text: string | null): string | null {
  if (text === null) return null;
  const result = validateIBAN(compactIban(text));
  if (result.valid) return null;
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) || result.errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
    return 'checksum wrong';
  }
  if (result.errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) {
    // "US…", "CA…": a real country whose banks have no IBAN (decision 054) — not an unknown code.
    const code = compactIban(text).slice(0, 2).toUpperCase();
    return /^[A-Z]{2}$/.test(code) ? `"${code}" is no country whose accounts have an IBAN: such an account is paid by hand, not by SEPA` : 'must start with the two letters of its country';
  }
  if (result.errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return 'wrong length for its country';
  return 'not a valid IBAN';
}

/** The bank fields of a row (those it fills; empty cells leave what is stored). */
async function bankValues(tx: DbOrTx, v: Values, problems: Problems): Promise<Row> {
  const out: Row = {};
  const iban = ibanProblem(v.payment_bank_iban ?? null);
  if (iban) problems.add('payment_bank_iban', iban);
  // A new account with the stored BIC would route the money to the old account's bank.
  if (v.payment_bank_iban && !v.payment_bank_swift) problems.add('payment_bank_swift', 'required with the IBAN (the BIC stored may be of another bank)');
  for (const field of STUDENT_BANK_FIELDS) {
    if (field === 'payment_bank_cntry_id' || field === 'payment_holder_cntry_id') {
      const key = FIELD_COLUMN[field]!;
      const id = await lookup(tx, 'countries', v[key] ?? null, key, problems);
      if (id !== null) out[field] = id;
    } else if (v[field] !== null && v[field] !== undefined) out[field] = v[field];
  }
  return out;
}

/** Only the fields a row gives: an empty cell never clears what is stored. */
const given = (values: Row) => Object.fromEntries(Object.entries(values).filter(([, x]) => x !== null && x !== undefined));

/** Rows of one key are done one at a time (two workers share a run): a second row waits and then finds the first's record. */
const lockKey = (tx: Tx, key: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

/**
 * Changes of an existing record through its service's own diff, audit and hooks; the event names the import and,
 * for a student's change made for a contract's row, that contract (so the contract's history shows it too).
 */
async function updateThrough(
  tx: Tx,
  service: CrudService,
  id: number,
  values: Row,
  actor: Actor,
  what: string,
  { contractId, seen }: { contractId?: number; seen?: ImportRow['seen'] } = {},
): Promise<string[]> {
  const locked = await service.lock(tx, id);
  await refuseChangedSincePreview(tx, service, locked, actor, seen);
  const changed = await service.applyChanges(tx, locked.row, values, actor);
  if (Object.keys(changed).length === 0) return [];
  await recordEvent(tx, {
    ...service.eventOf('update', locked.row, actor.user),
    ...(contractId !== undefined ? { contractId } : {}),
    message: `${what}: updated ${service.config.resource.title} ${service.reference(locked.row)}: ${describeChanges(changed)}`,
    changes: changed,
  });
  return Object.keys(changed);
}

/**
 * A confirmed import does not overwrite what someone changed after its preview (decision 053): the preview said
 * what the row would do to the record as it was then. A change after the preview and before the run, or during
 * the run by another user, refuses the row, naming who changed it and when; the run's own earlier rows (one
 * person's two contracts) do not.
 */
async function refuseChangedSincePreview(tx: Tx, service: CrudService, locked: { row: Row; stamp: Date; editUser: number | null }, actor: Actor, seen: ImportRow['seen']): Promise<void> {
  if (!seen) return;
  const { stamp, editUser } = locked;
  const byOther = stamp > seen.previewedAt && (stamp < seen.runStartedAt || editUser !== actor.user.id);
  if (!byOther) return;
  const [editor] = editUser === null ? [] : await tx.select({ name: users.usr_name }).from(users).where(eq(users.id, editUser));
  throw new AppError(
    'CONFLICT',
    `${service.config.resource.title} ${service.reference(locked.row)} was changed by ${editor?.name ?? 'another user'} at ${formatDateTime(stamp, service.timeZone)}, after the preview: the import does not overwrite that change. Import the file again to see what it would do now`,
  );
}

/**
 * In a preview (decision 044), what the file's earlier rows gave the student with this e-mail address (one that
 * created the student, or updated a stored one), for the row to see as the run will: the run commits each row.
 * One e-mail address is one person in a file (`refuseContractRepeats`), so the e-mail is the key.
 */
const studentKey = (s: Row) => `import-student:email:${String(s.email_address).toLowerCase()}`;
const earlierStudentOf = (s: Row): Row | undefined => earlierRows<Row>(studentKey(s));
/** In a preview, leaves what a row gave the student for the file's later rows. */
const leaveStudentForLaterRows = (s: Row): void => leaveForLaterRows<Row>(studentKey(s), (before) => ({ ...before, ...s }));

/** One row of the contract import: the student found or created, the contract found by its application ID or created. */
async function importContractRow(
  tx: Tx,
  actor: Actor,
  row: ImportRow,
  contractService: CrudService,
  studentService: CrudService,
  extra: Row = {},
): Promise<ImportOutcome> {
  const v = row.values;
  const problems = new Problems(CONTRACT_IMPORT_COLUMNS);
  const student: Row = {
    first_name: v.first_name ?? '',
    last_name: v.last_name ?? '',
    address: v.address ?? '',
    zip: v.zip ?? '',
    city: v.city ?? '',
    cntry_id: await lookup(tx, 'countries', v.country ?? null, 'country', problems),
    birth_date: isoDateText(v.birth_date ?? null) ?? '',
    // "female" as well as "Female".
    gender: GENDERS.find((g) => g.toLowerCase() === v.gender?.toLowerCase()) ?? v.gender,
    citizenship1_cntry_id: await lookup(tx, 'countries', v.citizenship ?? null, 'citizenship', problems),
    phone: v.phone,
    email_address: v.email_address ?? '',
    passport_number: v.passport_number,
    ...(await bankValues(tx, v, problems)),
  };
  const contract: Row = {
    student_id: 1,
    scholarship_id: await lookup(tx, 'scholarships', v.scholarship ?? null, 'scholarship', problems),
    program_id: await lookup(tx, 'programs', v.program ?? null, 'program', problems),
    y1_university_id: await lookup(tx, 'universities', v.y1_university ?? null, 'y1_university', problems),
    y2_university_id: await lookup(tx, 'universities', v.y2_university ?? null, 'y2_university', problems),
    intake: whole(v.intake ?? null),
    application_round: whole(v.application_round ?? null),
    application_id: v.application_id ?? '',
    start_date: isoDateText(v.start_date ?? null) ?? '',
    end_date: isoDateText(v.end_date ?? null) ?? undefined,
  };
  const parsedStudent = StudentCreateSchema.safeParse(student);
  if (!parsedStudent.success) problems.zod(parsedStudent.error);
  const parsedContract = ContractCreateSchema.safeParse(contract);
  if (!parsedContract.success) problems.zod(parsedContract.error);
  // A reference that was not found is already named; zod's "is required" for it would say it twice.
  problems.throwIfAny();
  const s = given(parsedStudent.data as Row);
  const { student_id: _placeholder, ...parsedFields } = given(parsedContract.data as Row);
  const c: Row = { ...parsedFields, ...extra };

  await lockKey(tx, `contract-import:application:${String(c.application_id)}`);
  await lockKey(tx, `contract-import:student:${String(s.email_address).toLowerCase()}`);
  const found = await tx.select({ id: contracts.id, student_id: contracts.student_id }).from(contracts).where(eq(contracts.application_id, String(c.application_id))).limit(2);
  if (found.length > 1) throw new AppError('CONFLICT', `Application ID: "${String(c.application_id)}" belongs to more than one contract`);
  const what = 'Contract import';

  let studentId = found[0]?.student_id;
  let earlier: ReturnType<typeof earlierStudentOf>;
  if (studentId === undefined) {
    const byEmail = sql`lower(${students.email_address}) = lower(${String(s.email_address)})`;
    const [byKey] = await tx
      .select({ id: students.id, by_email: sql<boolean>`${byEmail}`, first_name: students.first_name, last_name: students.last_name, birth_date: students.birth_date })
      .from(students)
      .where(
        sql`${byEmail} or (lower(${students.first_name}) = lower(${String(s.first_name)}) and lower(${students.last_name}) = lower(${String(s.last_name)}) and ${students.birth_date} = ${String(s.birth_date)})`,
      )
      .orderBy(sql`${byEmail} desc`, students.id)
      .limit(1);
    // In a preview, the student an earlier row of the file created (rolled back) is found as the run will find it.
    earlier = byKey ? undefined : earlierStudentOf(s);
    const owner = byKey?.by_email ? byKey : earlier;
    // An e-mail address shared in a family must not make a sibling's row rewrite another student's name and bank
    // data: found by e-mail, the student must have the row's birth date too.
    if (owner && owner.birth_date !== s.birth_date) {
      throw new AppError(
        'CONFLICT',
        `E-mail: ${String(s.email_address)} belongs to ${String(owner.first_name)} ${String(owner.last_name)}, born ${formatDate(String(owner.birth_date))}, not to ${String(s.first_name)} ${String(s.last_name)}, born ${formatDate(String(s.birth_date))}: give each student their own e-mail address`,
      );
    }
    studentId = byKey?.id;
  } else {
    // A mistyped Application ID must not turn the student of that contract into another person (and send their
    // payouts to that person's account): a row that differs in birth date and name, or in both names, is refused.
    const [owner] = await tx
      .select({ first_name: students.first_name, last_name: students.last_name, birth_date: students.birth_date })
      .from(students)
      .where(eq(students.id, studentId));
    if (owner) {
      const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();
      const firstSame = same(owner.first_name, s.first_name);
      const lastSame = same(owner.last_name, s.last_name);
      if ((!firstSame && !lastSame) || (owner.birth_date !== s.birth_date && !(firstSame && lastSame))) {
        throw new AppError(
          'CONFLICT',
          `Application ID: "${String(c.application_id)}" is the contract of ${owner.first_name} ${owner.last_name}, born ${formatDate(owner.birth_date)}, not of ${String(s.first_name)} ${String(s.last_name)}, born ${formatDate(String(s.birth_date))}: correct the Application ID, or the student on the contract's screen`,
        );
      }
    }
  }
  let studentCreated = false;
  let studentChanged: string[] = [];
  if (studentId === undefined) {
    studentId = (await studentService.create(s, actor, { tx })).id;
    // The run updates the student an earlier row created with what differs in this row.
    if (earlier) studentChanged = Object.keys(s).filter((field) => JSON.stringify(s[field]) !== JSON.stringify(earlier[field]));
    else studentCreated = true;
  } else {
    studentChanged = await updateThrough(tx, studentService, studentId, s, actor, what, { contractId: found[0]?.id, seen: row.seen });
    // What an earlier row of the file gave the stored student is no change of this row's: the run makes it once.
    const before = earlierStudentOf(s);
    if (before) studentChanged = studentChanged.filter((field) => JSON.stringify(s[field]) !== JSON.stringify(before[field]));
  }
  leaveStudentForLaterRows(s);

  if (found[0] === undefined) {
    // Spec §4: the end date follows from the start date unless given.
    await contractService.create({ ...c, student_id: studentId, end_date: c.end_date ?? contractEndDate(String(c.start_date)) }, actor, { tx });
    if (studentCreated) return { creates: 'student and contract' };
    return { creates: 'contract for the existing student', updates: studentChanged.length > 0 ? `student: ${titlesOf(CONTRACT_IMPORT_COLUMNS, studentChanged)}` : undefined };
  }
  // An empty end date leaves the stored one (it may have been shortened by hand), unless the row moves the start
  // date: then, as on the screen, the end date follows it.
  if (c.end_date === undefined) {
    const [stored] = await tx.select({ start_date: contracts.start_date }).from(contracts).where(eq(contracts.id, found[0].id));
    if (stored && stored.start_date !== c.start_date) c.end_date = contractEndDate(String(c.start_date));
  }
  const contractChanged = await updateThrough(tx, contractService, found[0].id, c, actor, what, { seen: row.seen });
  return recordUpdates(CONTRACT_IMPORT_COLUMNS, contractChanged, studentChanged);
}

/**
 * One row of the bank-info import: the contract found by its application number (or application ID), its
 * student's bank fields set. A change of them is a bank-info update (spec §3, issue 18 point 9): the student
 * service's hook stamps the student's and the contracts' bank-info-updated timestamp and user.
 */
async function importBankinfoRow(tx: Tx, actor: Actor, row: ImportRow, studentService: CrudService): Promise<ImportOutcome> {
  const v = row.values;
  const problems = new Problems(BANKINFO_IMPORT_COLUMNS);
  const number = v.application_number;
  if (!number) problems.add('application_number', 'is required');
  const bank = await bankValues(tx, v, problems);
  const parsed = StudentCreateSchema.pick({
    payment_holder_first_name: true, payment_holder_last_name: true, payment_holder_address: true, payment_holder_zip_city: true,
    payment_holder_cntry_id: true, payment_bank_iban: true, payment_bank_swift: true, payment_bank_reference: true, payment_bank_name: true,
    payment_bank_address: true, payment_bank_zip_city: true, payment_bank_cntry_id: true,
  }).safeParse(bank);
  if (!parsed.success) problems.zod(parsed.error);
  problems.throwIfAny();
  const values = given(parsed.data as Row);
  if (Object.keys(values).length === 0) throw new AppError('BAD_REQUEST', 'The row has no bank information');
  const matches = await tx
    .select({ id: contracts.id, student_id: contracts.student_id })
    .from(contracts)
    // Application numbers are upper case ("a000003" is A000003); application IDs are matched as written.
    .where(sql`${contracts.application_number} = ${number?.toUpperCase()} or ${contracts.application_id} = ${number}`)
    .orderBy(sql`${contracts.application_number} = ${number?.toUpperCase()} desc`)
    .limit(2);
  const studentIds = [...new Set(matches.map((m) => m.student_id))];
  if (studentIds.length === 0) throw new AppError('NOT_FOUND', `Application Number: no contract "${number}"`);
  if (studentIds.length > 1) throw new AppError('CONFLICT', `Application Number: "${number}" matches contracts of different students`);
  const changed = await updateThrough(tx, studentService, studentIds[0]!, values, actor, 'Bank info import', { contractId: matches[0]!.id, seen: row.seen });
  return { updates: changed.length === 0 ? undefined : `student: ${titlesOf(BANKINFO_IMPORT_COLUMNS, changed)}` };
}

/** The columns of a DreamApply import's rows (and of its results file). */
const DREAM_COLUMNS = [
  { key: 'application_id', title: 'DreamApply application' },
  { key: 'da_offer_type_displayname', title: 'Offer' },
  { key: 'first_name', title: 'First Name' },
  { key: 'last_name', title: 'Last Name' },
  { key: 'email_address', title: 'E-mail' },
  { key: 'phone', title: 'Phone' },
  { key: 'citizenship', title: 'Citizenship' },
  { key: 'intake', title: 'Intake' },
] as const;

/**
 * One application with an accepted offer from DreamApply: the contract it already has (by `da_application_id`,
 * else by application ID) gets the DreamApply fields, and its student the name, e-mail and phone DreamApply
 * holds; an application the office has no contract for yet goes through the Excel row's rules, so what
 * DreamApply does not say (program, scholarship, university, address, birth date) refuses it, naming each.
 */
async function importDreamApplyRow(tx: Tx, actor: Actor, row: ImportRow, contractService: CrudService, studentService: CrudService): Promise<ImportOutcome> {
  const v = row.values;
  const id = v.application_id ?? '';
  await lockKey(tx, `contract-import:application:${id}`);
  const [found] = await tx
    .select({ id: contracts.id, student_id: contracts.student_id })
    .from(contracts)
    .where(sql`${contracts.da_application_id} = ${id} or (${contracts.da_application_id} is null and ${contracts.application_id} = ${id})`)
    .orderBy(sql`${contracts.da_application_id} = ${id} desc nulls last`, contracts.id)
    .limit(1);
  const da = { da_application_id: id, da_offer_type_displayname: v.da_offer_type_displayname };
  if (!found) return importContractRow(tx, actor, row, contractService, studentService, da);
  const problems = new Problems(CONTRACT_IMPORT_COLUMNS);
  const student = StudentCreateSchema.pick({ first_name: true, last_name: true, email_address: true, phone: true }).partial().safeParse(
    given({ first_name: v.first_name, last_name: v.last_name, email_address: v.email_address, phone: v.phone }),
  );
  if (!student.success) problems.zod(student.error);
  problems.throwIfAny();
  const what = 'DreamApply import';
  const contractChanged = await updateThrough(tx, contractService, found.id, da, actor, what, { seen: row.seen });
  const studentChanged = await updateThrough(tx, studentService, found.student_id, given(student.data as Row), actor, what, { contractId: found.id, seen: row.seen });
  return recordUpdates(DREAM_COLUMNS, contractChanged, studentChanged);
}

/** Reads the accepted applications from DreamApply into import rows; nothing is written before all are read. */
async function readDreamApply(ctx: AppContext, input: { academic_year: number; updates_in_last_days: number }): Promise<ImportSource> {
  const settings = await readDreamApplySettings(ctx.db);
  if (!settings.base_url || !settings.api_key) throw new AppError('CONFLICT', 'DreamApply is not configured: a Developer enters its base URL and API key in the configuration');
  const client = dreamApplyClient({ baseUrl: settings.base_url, apiKey: settings.api_key, timeoutMs: ctx.env.DREAM_APPLY_TIMEOUT_MS });
  const accepted = await client.acceptedApplications(input.academic_year, input.updates_in_last_days);
  const rows: ImportRow[] = accepted.map((a) => ({
    reference: `DreamApply application ${a.applicationId}`,
    values: {
      application_id: a.applicationId,
      da_offer_type_displayname: a.offerType,
      first_name: a.applicant.given,
      last_name: a.applicant.family,
      email_address: a.applicant.email,
      phone: a.applicant.phone,
      citizenship: a.applicant.citizenship,
      intake: String(input.academic_year),
    },
  }));
  if (rows.length === 0) throw new AppError('CONFLICT', `DreamApply has no application with an accepted offer for ${input.academic_year}${input.updates_in_last_days > 0 ? ` updated in the last ${input.updates_in_last_days} days` : ''}`);
  const days = input.updates_in_last_days > 0 ? `, last ${input.updates_in_last_days} days` : '';
  return { filename: `DreamApply ${input.academic_year}${days}`, columns: DREAM_COLUMNS, rows };
}

/** A bank-info upload: one .xlsx, or a .zip whose .xlsx entries are read (others are passed over). */
async function readBankinfo(file: { filename: string; mimeType: string; buffer: Buffer }): Promise<ImportSource> {
  const columns = BANKINFO_IMPORT_COLUMNS.map(({ key, title }) => ({ key, title }));
  const sheets =
    file.mimeType !== 'application/zip'
      ? [await readSheet(file.buffer, BANKINFO_IMPORT_COLUMNS)]
      : await (async () => {
          const isSheet = (name: string) => name.toLowerCase().endsWith('.xlsx') && !name.startsWith('__MACOSX/') && !name.split('/').pop()!.startsWith('.');
          const entries = await readZip(file.buffer, isSheet);
          if (entries.length === 0) throw new AppError('BAD_REQUEST', 'file: the zip holds no .xlsx file', { file: ['The zip holds no .xlsx file'] });
          const read = [];
          for (const entry of entries) read.push(await readSheet(entry.data, BANKINFO_IMPORT_COLUMNS, entry.name));
          return read;
        })();
  // Two rows for one contract: the later would silently replace what the earlier gives.
  const rows = refuseRepeats(
    sheets.flatMap((sheet) => sheet.rows),
    (row) => row.values.application_number?.toUpperCase(),
    (earlier) => `Application Number: "${String(earlier.values.application_number)}" is also in ${earlier.reference}: one row per contract`,
  );
  return { filename: file.filename, columns, rows, notes: ignoredColumnsNote([...new Set(sheets.flatMap((sheet) => sheet.ignored))]) };
}

/** The contract's own columns of the contract import; every other column is the student's. */
const CONTRACT_COLUMN_KEYS = new Set(['application_id', 'application_round', 'intake', 'scholarship', 'program', 'y1_university', 'y2_university', 'start_date', 'end_date']);
const STUDENT_COLUMNS = CONTRACT_IMPORT_COLUMNS.filter((c) => !CONTRACT_COLUMN_KEYS.has(c.key));

/** A student cell as it will be stored, for comparing two rows: an IBAN without its spaces, an e-mail without case. */
function studentCell(key: string, value: string): string {
  const text = value.trim();
  if (key === 'payment_bank_iban') return compactIban(text).toUpperCase();
  return key === 'email_address' ? text.toLowerCase() : text;
}

/**
 * Rows of one file that would change the same contract or student are refused after the first (the preview tries
 * each row on its own, so it could not tell): a second row with the same Application ID, a row whose e-mail an
 * earlier row gives to another person (other birth date or name), and a row of the same person that gives the
 * student other values than the earlier one (decision 044: the run works two rows at a time, so which of the two
 * would be stored last is chance). One person's two contracts in one file go on; an empty cell changes nothing.
 */
function refuseContractRepeats(rows: readonly ImportRow[]): ImportRow[] {
  const byApplication = refuseRepeats(
    rows,
    (row) => row.values.application_id ?? undefined,
    (earlier) => `Application ID: "${String(earlier.values.application_id)}" is also in ${earlier.reference}: one row per contract`,
  );
  const person = (row: ImportRow) =>
    [row.values.first_name, row.values.last_name, isoDateText(row.values.birth_date ?? null)].map((x) => String(x ?? '').toLowerCase()).join('|');
  const byEmail = refuseRepeats(
    byApplication,
    (row) => row.values.email_address?.toLowerCase(),
    (earlier, row) =>
      person(earlier) === person(row)
        ? undefined
        : `E-mail: ${String(row.values.email_address)} is also in ${earlier.reference}, for ${String(earlier.values.first_name)} ${String(earlier.values.last_name)}: give each student their own e-mail address`,
  );
  return refuseRepeats(byEmail, person, (earlier, row) => {
    const differ = STUDENT_COLUMNS.filter((c) => {
      const [a, b] = [earlier.values[c.key], row.values[c.key]];
      return a && b && studentCell(c.key, a) !== studentCell(c.key, b);
    });
    if (differ.length === 0) return undefined;
    return `${differ.map((c) => c.title).join(', ')}: ${String(row.values.first_name)} ${String(row.values.last_name)} is also in ${earlier.reference} with other values: give one person the same student data in every row`;
  });
}

/** The reference lists the template's choice columns offer, from the database. */
async function listValues(db: DbOrTx, kind: ListKind): Promise<string[]> {
  const l = LOOKUPS[kind];
  const rows = await db.select({ v: l.label }).from(l.table).orderBy(l.label).limit(5000);
  return rows.map((r) => String(r.v));
}

/**
 * The import template (issue 16): a sheet with the header row, data validation lists on the choice columns (fixed
 * lists inline, reference tables from a Lists sheet), and a sheet explaining each column with an example value.
 * The example is not a row of the data sheet: a template uploaded as downloaded created its sample student and
 * contract (decision 067).
 */
export async function importTemplate(db: DbOrTx, columns: readonly ImportColumn[], sheetName: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName);
  const lists = book.addWorksheet('Lists');
  sheet.columns = columns.map((c) => ({ header: c.title, key: c.key, width: Math.max(14, c.title.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  // The reference lists as this office has them: the examples name a program and universities that exist here.
  const stored = new Map<string, string[]>();
  for (const c of columns) if (c.list && !Array.isArray(c.list)) stored.set(c.key, await listValues(db, c.list as ListKind));
  const exampleOf = (c: ImportColumn) => {
    const values = stored.get(c.key);
    return values && c.example && !values.includes(c.example) ? (values[0] ?? c.example) : c.example;
  };
  let listCol = 0;
  for (const [i, c] of columns.entries()) {
    if (!c.list) continue;
    let formula: string;
    if (Array.isArray(c.list) && c.list.join(',').length < 250) {
      formula = `"${c.list.join(',')}"`;
    } else {
      const values = stored.get(c.key) ?? [...(c.list as readonly string[])];
      listCol += 1;
      const letter = lists.getColumn(listCol).letter;
      lists.getCell(1, listCol).value = c.title;
      values.forEach((v, r) => (lists.getCell(r + 2, listCol).value = v));
      formula = `Lists!$${letter}$2:$${letter}$${Math.max(2, values.length + 1)}`;
    }
    const letter = sheet.getColumn(i + 1).letter;
    // The validation covers the rows people fill; a value not in the list is only warned about (names may be typed).
    for (let r = 2; r <= 1000; r++) {
      sheet.getCell(`${letter}${r}`).dataValidation = {
        type: 'list',
        allowBlank: !c.required,
        formulae: [formula],
        showErrorMessage: true,
        errorStyle: 'warning',
        error: `Choose a value from the list (${c.title})`,
      };
    }
  }
  const help = book.addWorksheet('Explanation');
  help.columns = [
    { header: 'Column', key: 'title', width: 28 },
    { header: 'Required', key: 'required', width: 10 },
    { header: 'Example', key: 'example', width: 24 },
    { header: 'What goes in it', key: 'description', width: 90 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of columns) help.addRow({ title: c.title, required: c.required ? 'yes' : '', example: exampleOf(c), description: c.description });
  help.addRow({});
  help.addRow({ title: 'Matching', description: 'A row finds its contract by the application ID and its student by e-mail, or by first and last name and birth date: importing the same file twice creates nothing new.' });
  help.addRow({ title: 'Preview', description: 'An upload first shows what each row would do; nothing changes until the preview is confirmed. A refused row names the column and why.' });
  return Buffer.from(await book.xlsx.writeBuffer());
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Most contracts one Student_Agreements.zip takes. */
export const MAX_AGREEMENTS = 2000;

/**
 * The contract imports, the Student_Agreements.zip export and their routes (issue 16). The student service is
 * the students' own (its rules, audit and the bank-info hook), the contract service the contracts'.
 */
export function contractImports(ctx: AppContext, contractService: CrudService, studentService: CrudService): { actions: [string, ActionImpl][]; routes: Router } {
  const { importContracts, importBankinfo, importDreamApply, downloadStudentAgreements } = contractImportActions;
  const actions: [string, ActionImpl][] = [
    importAction(
      importContracts,
      async (_actor, _input, file) => {
        if (!file) throw new AppError('BAD_REQUEST', 'file: no file', { file: ['No file'] });
        const sheet = await readSheet(file.buffer, CONTRACT_IMPORT_COLUMNS);
        return { filename: file.filename, columns: CONTRACT_IMPORT_COLUMNS.map(({ key, title }) => ({ key, title })), rows: refuseContractRepeats(sheet.rows), notes: ignoredColumnsNote(sheet.ignored) };
      },
      (tx, actor, row) => importContractRow(tx, actor, row, contractService, studentService),
    ),
    importAction(
      importBankinfo,
      async (_actor, _input, file) => {
        if (!file) throw new AppError('BAD_REQUEST', 'file: no file', { file: ['No file'] });
        return readBankinfo(file);
      },
      (tx, actor, row) => importBankinfoRow(tx, actor, row, studentService),
    ),
    importAction(
      importDreamApply,
      (_actor, input) => readDreamApply(ctx, input),
      (tx, actor, row) => importDreamApplyRow(tx, actor, row, contractService, studentService),
    ),
    listAction(downloadStudentAgreements, async (db, _actor, input) => {
      const query = filterQueryOf(contractResource, input.filter);
      const ids = input.ids && input.ids.length > 0 ? input.ids : undefined;
      const chosen: { id: number; application_number: string; last_name: string; first_name: string }[] = [];
      for await (const [id, application_number, last_name, first_name] of contractService.iterate(query, ['id', 'application_number', 'last_name', 'first_name'], ids)) {
        chosen.push({ id: Number(id), application_number: String(application_number), last_name: String(last_name), first_name: String(first_name) });
        if (chosen.length > MAX_AGREEMENTS) throw new AppError('BAD_REQUEST', `At most ${MAX_AGREEMENTS} student agreements at once: choose fewer contracts`);
      }
      if (chosen.length === 0) throw new AppError('BAD_REQUEST', 'No contracts to make student agreements for');
      // The first PDF is made before a byte is answered: a template that cannot be rendered is a clear error, not a broken zip.
      const date = todayIn(ctx.env.APP_TIMEZONE);
      const render = async (id: number) => renderPdf({ db, env: ctx.env }, 'student_agreement_pdf', { ...(await contractTemplateData(db, id)), date });
      const first = await render(chosen[0]!.id);
      const names = new Set<string>();
      const nameOf = (c: (typeof chosen)[number]) => {
        // Slashes in a name are not folders: they become underscores before the name is made safe.
        const raw = `Student_Agreement_${c.application_number}_${c.last_name}_${c.first_name}`.replace(/[\s/\\]+|\.{2,}/g, '_');
        const base = sanitizeFilename(raw, `Student_Agreement_${c.id}`);
        let name = `${base}.pdf`;
        for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base}_${n}.pdf`;
        names.add(name.toLowerCase());
        return name;
      };
      return {
        eventType: 'export',
        message: `Exported Student_Agreements.zip (${chosen.length} contract${chosen.length === 1 ? '' : 's'})`,
        file: {
          filename: 'Student_Agreements.zip',
          contentType: 'application/zip',
          write: async (res) => {
            res.status(200);
            setAttachment(res, 'Student_Agreements.zip');
            res.type('application/zip');
            const zip = archiver('zip', { zlib: { level: 6 } });
            const done = new Promise<void>((resolve, reject) => {
              res.once('finish', resolve);
              res.once('close', resolve);
              zip.once('error', reject);
            });
            zip.pipe(res);
            try {
              zip.append(first, { name: nameOf(chosen[0]!) });
              for (const c of chosen.slice(1)) zip.append(await render(c.id), { name: nameOf(c) });
              await zip.finalize();
            } catch (err) {
              // Headers are out: the download is broken off, so it cannot pass for a complete zip.
              zip.abort();
              res.destroy();
              throw err;
            }
            await done;
          },
        },
      };
    }),
  ];

  const routes = Router();
  routes.use(dreamApplyConfigRouter(ctx));
  const template = (columns: readonly ImportColumn[], sheet: string, filename: string) => async (_req: unknown, res: Response) => {
    const content = await importTemplate(ctx.db, columns, sheet);
    setAttachment(res, filename);
    res.status(200).type(XLSX).send(content);
  };
  route(routes, 'get', '/contracts/import_template', template(CONTRACT_IMPORT_COLUMNS, 'Contracts', 'Contract_Import_Template.xlsx'));
  route(routes, 'get', '/contracts/import_bankinfo_template', template(BANKINFO_IMPORT_COLUMNS, 'Bank info', 'Bank_Info_Import_Template.xlsx'));
  route(routes, 'post', '/contracts/get_import_results', async (req, res) => {
    const body = parseInput(ImportResultsRequestSchema.strict(), req.body ?? {}, 'import results');
    const mod = { resource: contractResource, service: contractService, actions: new Map(actions) } as ResourceModule;
    await sendImportResults(ctx, mod, IMPORT_TYPES[body.type], body.filename, actorOf(req), res);
  });
  return { actions, routes };
}

