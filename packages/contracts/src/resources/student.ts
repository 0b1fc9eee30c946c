import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { email, isoDate, text, optionalBic, optionalIban, optionalRef, optionalMultilineText, optionalText, requiredRef, requiredText } from '../common/fields.js';

export const GENDERS = ['Male', 'Female', 'Non-Binary'] as const;

const nullableText = z.string().nullable();
const nullableId = z.number().int().nullable();

export const StudentSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  address: z.string(),
  zip: z.string(),
  city: z.string(),
  cntry_id: z.number().int(),
  cntry: z.string(),
  birth_date: z.string(),
  gender: z.enum(GENDERS).nullable(),
  citizenship1_cntry_id: nullableId,
  citizenship1: nullableText,
  citizenship2_cntry_id: nullableId,
  phone: nullableText,
  email_address: z.string(),
  passport_number: nullableText,
  comments: nullableText,
  registration_fee_payed: z.boolean(),
  active_contract_id: nullableId,
  payment_holder_first_name: nullableText,
  payment_holder_last_name: nullableText,
  payment_holder_address: nullableText,
  payment_holder_zip_city: nullableText,
  payment_holder_cntry_id: nullableId,
  payment_bank_iban: nullableText,
  payment_bank_swift: nullableText,
  payment_bank_reference: nullableText,
  payment_bank_name: nullableText,
  payment_bank_address: nullableText,
  payment_bank_zip_city: nullableText,
  payment_bank_cntry_id: nullableId,
  university_payment_reference: nullableText,
  bankinfo_request_timestamp: nullableText,
  bankinfo_request_user: nullableText,
  bankinfo_update_timestamp: nullableText,
  bankinfo_update_user: nullableText,
  edit_timestamp: z.string().nullable(),
});

const fields = {
  first_name: requiredText('First name', 100),
  last_name: requiredText('Last name', 100),
  address: requiredText('Address', 300),
  zip: requiredText('Postal code', 20),
  city: requiredText('City', 100),
  cntry_id: requiredRef('Country'),
  birth_date: isoDate('Birth date'),
  gender: z.preprocess((v) => (v === '' ? null : v), z.enum(GENDERS, { error: 'Gender must be Male, Female or Non-Binary' }).nullish()),
  citizenship1_cntry_id: optionalRef('Citizenship 1'),
  citizenship2_cntry_id: optionalRef('Citizenship 2'),
  phone: optionalText('Phone', 50),
  email_address: email('Email address'),
  passport_number: optionalText('Passport number', 50),
  comments: optionalMultilineText('Comments'),
  payment_holder_first_name: optionalText('Payment holder first name', 100),
  payment_holder_last_name: optionalText('Payment holder last name', 100),
  payment_holder_address: optionalText('Payment holder address', 300),
  payment_holder_zip_city: optionalText('Payment holder postal code and city', 150),
  payment_holder_cntry_id: optionalRef('Payment holder country'),
  payment_bank_iban: optionalIban('IBAN'),
  payment_bank_swift: optionalBic('BIC / SWIFT'),
  payment_bank_reference: optionalText('Bank reference', 100),
  payment_bank_name: optionalText('Bank name', 200),
  payment_bank_address: optionalText('Bank address', 300),
  payment_bank_zip_city: optionalText('Bank postal code and city', 150),
  payment_bank_cntry_id: optionalRef('Bank country'),
  university_payment_reference: optionalText('University payment reference', 100),
};

/** A student's bank details: setting or changing any of them is a bank-info update (spec §3). */
export const STUDENT_BANK_FIELDS = [
  'payment_holder_first_name', 'payment_holder_last_name', 'payment_holder_address', 'payment_holder_zip_city',
  'payment_holder_cntry_id', 'payment_bank_iban', 'payment_bank_swift', 'payment_bank_reference', 'payment_bank_name',
  'payment_bank_address', 'payment_bank_zip_city', 'payment_bank_cntry_id',
] as const satisfies readonly (keyof typeof fields)[];

export const StudentCreateSchema = z.object(fields);
export const StudentUpdateSchema = StudentCreateSchema.partial().extend({ id: z.number().int().positive() });

const before = (label: string) => isoDate(label).optional();

export const StudentFilterSchema = z.object({
  name: text('name').trim().max(200, 'name must be at most 200 characters').optional(),
  email_address: text('email_address').trim().max(200, 'email_address must be at most 200 characters').optional(),
  address: text('address').trim().max(300, 'address must be at most 300 characters').optional(),
  bankinfo_requested_before: before('bankinfo_requested_before'),
  bankinfo_updated_before: before('bankinfo_updated_before'),
});

export type Student = z.infer<typeof StudentSchema>;

export const studentResource = defineResource({
  key: 'student',
  title: 'Student',
  titlePlural: 'Students',
  apiPath: 'students',
  routes: { overview: '/students', detail: '/student' },
  schema: StudentSchema,
  createSchema: StudentCreateSchema,
  updateSchema: StudentUpdateSchema,
  filterSchema: StudentFilterSchema,
  sortable: ['first_name', 'last_name', 'citizenship1', 'address', 'zip', 'city', 'cntry', 'birth_date', 'email_address', 'edit_timestamp'],
  defaultSort: [{ field: 'last_name', direction: 'asc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: ['first_name', 'last_name'],
  historyLink: 'student_id',
  maskedFields: ['payment_bank_iban'],
  columns: [
    { field: 'first_name', title: 'First Name' },
    { field: 'last_name', title: 'Last Name' },
    { field: 'citizenship1', title: 'Citizenship 1' },
    { field: 'address', title: 'Street Address', width: 210 },
    { field: 'zip', title: 'Postal Code', width: 100 },
    { field: 'city', title: 'City' },
    { field: 'cntry', title: 'Country' },
    { field: 'birth_date', title: 'Birth Date', format: 'date', overview: false },
    { field: 'email_address', title: 'Email Address', width: 210, overview: false },
    { field: 'payment_bank_iban', title: 'IBAN', width: 210, overview: false },
    { field: 'bankinfo_request_timestamp', title: 'Bank Info Requested', format: 'datetime', overview: false },
    { field: 'bankinfo_update_timestamp', title: 'Bank Info Updated', format: 'datetime', overview: false },
    { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  ],
  export: { filename: 'Students.xlsx', sheet: 'Students', label: 'Export Selection' },
});
