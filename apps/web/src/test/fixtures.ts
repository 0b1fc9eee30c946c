import { isSearchedChoiceList, paginate, type Choice, type EmailConfig, type SessionUser } from '@app/contracts';
import type { Answer, Answers } from './api-stub';

/** Small fixtures for the web tests: who is logged in, rows as the API answers them, and answers built from them. */

export const adminUser: SessionUser = {
  id: 1,
  usr_login_name: 'ada',
  usr_name: 'Ada Lovelace',
  usr_first_name: 'Ada',
  usr_last_name: 'Lovelace',
  usr_role_id: 2,
  userrole_name: 'Administrator',
  usr_active: true,
};

export const plainUser: SessionUser = {
  id: 3,
  usr_login_name: 'bob',
  usr_name: 'Bob User',
  usr_first_name: 'Bob',
  usr_last_name: 'User',
  usr_role_id: 3,
  userrole_name: 'User',
  usr_active: true,
};

export const readerUser: SessionUser = {
  id: 4,
  usr_login_name: 'rita',
  usr_name: 'Rita Reader',
  usr_first_name: 'Rita',
  usr_last_name: 'Reader',
  usr_role_id: 4,
  userrole_name: 'Reader',
  usr_active: true,
};

export const developerUser: SessionUser = { ...adminUser, id: 5, usr_name: 'Dev Eloper', usr_role_id: 1, userrole_name: 'Developer' };

/** The edit_timestamp of the fixture rows. */
export const SEEN = '2024-05-01T10:00:00.000Z';

export type Row = Record<string, unknown> & { id: number };

/** `GET /auth/me` for a logged-in user. */
export const session = (user: SessionUser = adminUser): Answers => ({ 'GET /auth/me': { body: { user } } });

/** Nobody logged in: `GET /auth/me` answers 401. */
export const noSession = (): Answers => ({ 'GET /auth/me': failure(401, 'Not logged in') });

/** A page of a list as the API answers it: these rows, with the range of `total` rows they are said to be. */
export function page(
  rows: readonly Row[],
  { total = rows.length, current = 1, perPage = 50, estimated = false, next, prev }: { total?: number; current?: number; perPage?: number; estimated?: boolean; next?: string; prev?: string } = {},
): Answer {
  const links = { pagination: paginate(total, current, perPage, estimated), ...(next && { next }), ...(prev && { prev }) };
  return { body: { data: rows, links } };
}

/** An error answer of the API (`{ message, errors }`). */
export function failure(status: number, message: string, errors?: Record<string, string[]>): Answer {
  return { status, body: errors ? { message, errors } : { message } };
}

/**
 * A choice list and its checksum (`GET /{name}/choice`, `GET /{name}/choice_checksum`); a list searched on the
 * server answers its search (`GET /{name}/choice/search`) with all of them, whatever the text.
 */
export function choiceList(name: string, choices: readonly Choice[], checksum = 'c1'): Answers {
  return {
    [`GET /${name}/choice_checksum`]: { body: { checksum } },
    [`GET /${name}/choice`]: { body: choices },
    ...(isSearchedChoiceList(name) && { [`GET /${name}/choice/search`]: { body: choices } }),
  } as Answers;
}

export const countryRows: Row[] = [
  { id: 1, cntry_code: 'DE', cntry_name: 'Germany', edit_timestamp: SEEN },
  { id: 2, cntry_code: 'FR', cntry_name: 'France', edit_timestamp: SEEN },
  { id: 3, cntry_code: 'NL', cntry_name: 'Netherlands', edit_timestamp: SEEN },
];

export const scholarships: Choice[] = [
  { id: 1, name: 'EMJM-A' },
  { id: 2, name: 'EMJM-B' },
  { id: 3, name: 'NAT-C' },
];

/** A student row as the API answers it; `overrides` change any field. */
export function studentRow(id: number, overrides: Partial<Row> = {}): Row {
  return {
    id,
    first_name: 'Mia',
    last_name: 'Schmidt',
    address: 'Hauptstraße 1',
    zip: '10115',
    city: 'Berlin',
    cntry_id: 1,
    cntry: 'Germany',
    birth_date: '2000-01-31',
    gender: 'Female',
    citizenship1_cntry_id: 2,
    citizenship1: 'France',
    citizenship2_cntry_id: null,
    phone: null,
    email_address: `student${id}@example.org`,
    passport_number: null,
    comments: null,
    registration_fee_payed: false,
    active_contract_id: null,
    payment_holder_first_name: null,
    payment_holder_last_name: null,
    payment_holder_address: null,
    payment_holder_zip_city: null,
    payment_holder_cntry_id: null,
    payment_bank_iban: null,
    payment_bank_swift: null,
    payment_bank_reference: null,
    payment_bank_name: null,
    payment_bank_address: null,
    payment_bank_zip_city: null,
    payment_bank_cntry_id: null,
    university_payment_reference: null,
    bankinfo_request_timestamp: null,
    bankinfo_request_user: null,
    bankinfo_update_timestamp: null,
    bankinfo_update_user: null,
    edit_timestamp: SEEN,
    ...overrides,
  };
}

/** A contract row as the API answers it (joined names included); `overrides` change any field. */
export function contractRow(id: number, overrides: Partial<Row> = {}): Row {
  return {
    id,
    application_number: `A${String(id).padStart(6, '0')}`,
    student_id: 1,
    student_name: 'José Müller',
    first_name: 'José',
    last_name: 'Müller',
    student_email: 'jose.mueller@example.org',
    contract_status_id: 1,
    contract_status_name: 'Offer accepted',
    contract_status_date: null,
    scholarship_id: 1,
    scholarship_code: 'EMJM-A',
    program_id: 1,
    program_shortname: 'DS',
    intake: 2024,
    application_round: 1,
    application_id: `APP-${id}`,
    da_application_id: null,
    da_offer_type_displayname: null,
    y1_university_id: 1,
    y2_university_id: null,
    year1_finished: false,
    year2_finished: false,
    active: true,
    start_date: '2024-09-01',
    end_date: '2026-08-31',
    expected_graduation_date: null,
    contract_sent_date: null,
    contract_signed_date: null,
    bankinfo_required: true,
    bankinfo_emailrequest_timestamp: null,
    bankinfo_updated_timestamp: null,
    pf_status_email_timestamp: null,
    check_universityfee_payment: true,
    instalments: false,
    number: null,
    comments: null,
    invoiced_amount: 0,
    payed_amount: 0,
    to_be_payed_amount: 0,
    planned_amount: 0,
    files: 0,
    edit_timestamp: SEEN,
    ...overrides,
  };
}

/** Email settings as `GET /config/email` answers them (a password is stored, never sent). */
export const emailConfig: EmailConfig = {
  smtp_servername: 'mail.example.org',
  smtp_port: 587,
  smtp_security: 'starttls',
  smtp_username: 'office',
  smtp_password_set: true,
  from_email_address: 'office@example.org',
  test_email_address: 'tester@example.org',
  edit_timestamp: '2024-05-01T10:00:00.000Z',
  reply_to_address: 'scholarships@example.org',
};
