import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { FILE_KINDS } from '../common/files.js';
import { ExportRequestSchema } from '../common/resource-actions.js';
import { GENDERS } from './student.js';

/**
 * The imports of the contract overview (spec §2, §7; issue 16) and the Student_Agreements.zip export. An import
 * is a list action whose work is done row by row as a batch run: the upload is read into rows, a preview (dry
 * run) shows what each row would do, and confirming the preview does it, each row in its own transaction.
 */

/** Where a column's allowed values come from: a fixed list, or a reference table (short name or name). */
export type ImportColumnList = readonly string[] | 'programs' | 'universities' | 'scholarships' | 'countries';

export interface ImportColumn {
  /** The row's key (the field it fills). */
  key: string;
  /** The header people use in the sheet. */
  title: string;
  /** Other headers that mean this column: the overviews' and exports' titles for the same field. */
  aliases?: readonly string[];
  required?: boolean;
  /** What goes in it (the explanation sheet of the template). */
  description: string;
  example: string;
  list?: ImportColumnList;
}

/** The columns of the contract import template, in its order. */
export const CONTRACT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { key: 'application_id', title: 'Application ID', required: true, description: 'The application ID: a second import finds the contract again by it.', example: 'APP-2021-0001' },
  { key: 'application_round', title: 'Round', required: true, description: 'Application round, 0 to 5.', example: '1', list: ['0', '1', '2', '3', '4', '5'] },
  { key: 'intake', title: 'Intake', required: true, description: 'Intake year, e.g. 2021.', example: '2021' },
  { key: 'scholarship', title: 'Scholarship', required: true, description: 'Scholarship code.', example: 'EU-FULL', list: 'scholarships' },
  { key: 'program', title: 'Program', required: true, description: 'Program short name or name.', example: 'MSC-A', list: 'programs' },
  { key: 'y1_university', title: 'University Y1', aliases: ['Y1 University'], required: true, description: 'University of year 1: short name or name.', example: 'UNI-A', list: 'universities' },
  { key: 'y2_university', title: 'University Y2', aliases: ['Y2 University'], description: 'University of year 2: short name or name (may be empty).', example: 'UNI-B', list: 'universities' },
  { key: 'start_date', title: 'Start Date', required: true, description: 'Start of the contract (a date cell or YYYY-MM-DD / DD-MM-YYYY).', example: '2021-09-01' },
  { key: 'end_date', title: 'End Date', description: 'End of the contract; empty: start date + 2 years − 1 day, as the screen fills it.', example: '' },
  { key: 'first_name', title: 'First Name', required: true, description: "Student's first name.", example: 'Zoë' },
  { key: 'last_name', title: 'Last Name', required: true, description: "Student's last name.", example: 'Müller-Łukasiewicz' },
  { key: 'birth_date', title: 'Birth Date', required: true, description: 'Date of birth. With first and last name it finds the student when the e-mail does not.', example: '1998-04-12' },
  { key: 'gender', title: 'Gender', description: 'Male, Female or Non-Binary.', example: 'Female', list: GENDERS },
  { key: 'email_address', title: 'E-mail', aliases: ['Email Address', 'E-mail Address'], required: true, description: "Student's e-mail address: finds the student again.", example: 'zoe.mueller@example.org' },
  { key: 'address', title: 'Address', aliases: ['Street Address'], required: true, description: 'Street and number.', example: 'Hauptstraße 5' },
  { key: 'zip', title: 'Zip', aliases: ['Postal Code', 'Postcode', 'Zip Code'], required: true, description: 'Postal code.', example: '10115' },
  { key: 'city', title: 'City', required: true, description: 'City.', example: 'Berlin' },
  { key: 'country', title: 'Country', required: true, description: 'Country of the address: code or name.', example: 'DE', list: 'countries' },
  { key: 'citizenship', title: 'Citizenship', aliases: ['Citizenship 1'], description: 'Country of citizenship: code or name.', example: 'DE', list: 'countries' },
  { key: 'phone', title: 'Phone', description: 'Phone number.', example: '+49 30 1234567' },
  { key: 'passport_number', title: 'Passport', aliases: ['Passport Number'], description: 'Passport number.', example: 'C01X00T47' },
  { key: 'payment_bank_iban', title: 'IBAN', description: 'IBAN (checked).', example: 'DE89370400440532013000' },
  { key: 'payment_bank_swift', title: 'BIC', aliases: ['SWIFT', 'BIC / SWIFT'], description: 'BIC / SWIFT (checked).', example: 'COBADEFFXXX' },
  { key: 'payment_bank_reference', title: 'Bank Reference', description: 'A reference the bank needs on each transfer to the account, if it needs one: sent with every payment.', example: '' },
  { key: 'payment_bank_name', title: 'Bank Name', description: 'Name of the bank.', example: 'Commerzbank' },
  { key: 'payment_bank_address', title: 'Bank Address', description: 'Address of the bank.', example: 'Kaiserplatz' },
  { key: 'payment_bank_zip_city', title: 'Bank Zip City', description: 'Postal code and city of the bank.', example: '60311 Frankfurt' },
  { key: 'payment_bank_country', title: 'Bank Country', description: 'Country of the bank: code or name.', example: 'DE', list: 'countries' },
  { key: 'payment_holder_first_name', title: 'Payment Holder First Name', description: 'Account holder, when not the student.', example: '' },
  { key: 'payment_holder_last_name', title: 'Payment Holder Last Name', description: 'Account holder, when not the student.', example: '' },
  { key: 'payment_holder_address', title: 'Payment Holder Address', description: "Account holder's address.", example: '' },
  { key: 'payment_holder_zip_city', title: 'Payment Holder Zip City', description: "Account holder's postal code and city.", example: '' },
  { key: 'payment_holder_country', title: 'Payment Holder Country', description: "Account holder's country: code or name.", example: '', list: 'countries' },
];

/** The columns of a bank-info sheet: the student is found by the contract's application number. */
export const BANKINFO_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { key: 'application_number', title: 'Application Number', required: true, description: "The contract's application number (or its application ID).", example: 'A000001' },
  ...CONTRACT_IMPORT_COLUMNS.filter((c) => c.key.startsWith('payment_')),
];

/** The import kinds `get_import_results` knows, and the action of each. */
export const IMPORT_TYPES = { contracts: 'import', bankinfo: 'import_bankinfo' } as const;

/** Largest import file (the upload cap of decision 008). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

const previewFirst = 'First a preview: what each row would do, and which rows are refused and why. Nothing changes until you confirm.';

export const importContracts = defineAction({
  name: 'import',
  label: 'Excel contracts',
  scope: 'list',
  input: z.object({}),
  result: 'batch',
  level: 'user',
  preview: true,
  confirm: previewFirst,
  upload: { field: 'file', maxBytes: IMPORT_MAX_BYTES, types: [FILE_KINDS.xlsx] },
  failureText: 'uploading file',
});

export const importBankinfo = defineAction({
  name: 'import_bankinfo',
  label: 'Bank info',
  scope: 'list',
  input: z.object({}),
  result: 'batch',
  level: 'user',
  preview: true,
  confirm: previewFirst,
  upload: { field: 'file', maxBytes: IMPORT_MAX_BYTES, types: [FILE_KINDS.xlsx, FILE_KINDS.zip] },
  failureText: 'uploading file',
});

/** Spec §9: default academic year 2021, updates in the last 0 days (0: all). */
export const DreamApplyImportSchema = z.object({
  academic_year: z
    .number({ error: 'academic_year must be a year' })
    .int('academic_year must be a year')
    .min(2000, 'academic_year must be 2000 to 2100')
    .max(2100, 'academic_year must be 2000 to 2100')
    .default(2021),
  updates_in_last_days: z
    .number({ error: 'updates_in_last_days must be a number of days' })
    .int('updates_in_last_days must be a whole number of days')
    .min(0, 'updates_in_last_days must be 0 or more')
    .max(3650, 'updates_in_last_days must be at most 3650')
    .default(0),
});

export const importDreamApply = defineAction({
  name: 'import_dream_apply',
  label: 'DreamApply',
  scope: 'list',
  input: DreamApplyImportSchema,
  fields: [
    { name: 'academic_year', label: 'Academic year', kind: 'number' },
    { name: 'updates_in_last_days', label: 'Updates in last days', kind: 'number', description: '0: every application' },
  ],
  result: 'batch',
  level: 'user',
  preview: true,
  confirm: previewFirst,
  failureText: 'importing from DreamApply',
});

/** One student-agreement PDF per contract of the selection or the filter, in Student_Agreements.zip. */
export const downloadStudentAgreements = defineAction({
  name: 'download_student_agreements',
  label: 'Student agreements',
  scope: 'list',
  input: ExportRequestSchema,
  result: 'file',
  level: 'reader',
  filename: 'Student_Agreements.zip',
  failureText: 'creating pdf',
});

/** `POST /contracts/get_import_results`. */
export const ImportResultsRequestSchema = z.object({
  filename: z.string({ error: 'filename is required' }).trim().min(1, 'filename is required').max(255, 'filename must be at most 255 characters'),
  type: z.enum(['contracts', 'bankinfo'], { error: 'type must be contracts or bankinfo' }),
});

/** The answer of an upload to an import: the spec's `{filename}` and the preview run to follow. */
export interface ImportStarted {
  filename: string;
  run_id: number;
}

/** Whether a list action is one of the imports (drawn in the Import menu, not as a button). */
export const isImportAction = (name: string) => name === 'import' || name === 'import_bankinfo' || name === 'import_dream_apply';

export const contractImportActions = { importContracts, importBankinfo, importDreamApply, downloadStudentAgreements };

/** The DreamApply settings as `GET /config/dream_apply` answers them: the key never, only whether one is set. */
export const DreamApplyConfigSchema = z.object({
  base_url: z.string(),
  api_key_set: z.boolean(),
  edit_timestamp: z.string(),
});
export type DreamApplyConfig = z.infer<typeof DreamApplyConfigSchema>;

/** `PUT /config/dream_apply`: the base URL (http or https) and, when given, a new key (empty or absent keeps the stored one). */
export const DreamApplyConfigUpdateSchema = z
  .object({
    base_url: z
      .string({ error: 'Base URL is required' })
      .trim()
      .max(300, 'Base URL must be at most 300 characters')
      .pipe(z.url({ protocol: /^https?$/, error: 'Base URL must be an http or https URL' })),
    api_key: z.string().max(500, 'API key must be at most 500 characters').nullish(),
  })
  .strict();
