import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN_PASSWORD } from '../playwright.config.js';

export const admin = { username: 'admin', password: ADMIN_PASSWORD };

export async function login(page: Page, user = admin): Promise<void> {
  await page.goto('/#/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** An API session for arranging data quickly; the journeys themselves go through the UI. */
export async function apiToken(request: APIRequestContext, user = admin): Promise<string> {
  const res = await request.post('/api/v1.0/auth/login', { data: user });
  expect(res.status()).toBe(200);
  return (await res.json()).token as string;
}

export async function createCountries(request: APIRequestContext, rows: Array<{ cntry_code: string; cntry_name: string }>) {
  const token = await apiToken(request);
  for (const row of rows) {
    const res = await request.post('/api/v1.0/countries', { data: row, headers: { Authorization: `Bearer ${token}` } });
    expect(res.status(), await res.text()).toBe(201);
  }
}

/** Three-letter codes no ISO alpha-2 seed uses: a fixed first letter and a counter. */
export function codes(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
}

/** The texts of one column of the overview table, top to bottom. */
export async function columnTexts(page: Page, column: number): Promise<string[]> {
  const rows = page.locator('table tbody tr');
  const count = await rows.count();
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((await rows.nth(i).locator('td').nth(column).innerText()).trim());
  return out;
}

/** Creates one record through the API (as the admin unless told otherwise) and returns its id. */
export async function createRecord(request: APIRequestContext, path: string, data: Record<string, unknown>, user = admin): Promise<number> {
  const token = await apiToken(request, user);
  const res = await request.post(`/api/v1.0/${path}`, { data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as number;
}

/** Updates one record through the API and returns the row it answers. */
export async function updateRecord(request: APIRequestContext, path: string, id: number, data: Record<string, unknown>, user = admin) {
  const token = await apiToken(request, user);
  const url = `/api/v1.0/${path}/${id}`;
  // As the web does: the version read is sent back in If-Match (a PUT without it is refused with a 428).
  const read = await request.get(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(read.status(), await read.text()).toBe(200);
  const { edit_timestamp: version } = (await read.json()) as { edit_timestamp: string };
  const res = await request.put(url, { data: { id, ...data }, headers: { Authorization: `Bearer ${token}`, 'If-Match': version } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** A short text no earlier run or test used: the journeys share one database. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36).padStart(2, '0')}`;
}

export async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
}

/** A valid German IBAN and BIC (the standard examples) for universities made by the journeys. */
export const VALID_IBAN = 'DE89 3704 0044 0532 0130 00';
export const VALID_BIC = 'COBADEFFXXX';

export function universityData(suffix: string): Record<string, unknown> {
  return {
    name: `E2E University ${suffix}`,
    shortname: `U-${suffix}`,
    payment_holder_name: `E2E Holder ${suffix}`,
    payment_holder_iban: VALID_IBAN,
    payment_holder_swift: VALID_BIC,
    payment_holder_address: 'Hauptstraße 1\n10115 Berlin',
    payment_bank_address: 'Commerzbank\n50667 Köln',
    payment_amount: 1000,
  };
}

/** The id of a seeded country, by its name. */
export async function countryId(request: APIRequestContext, name: string): Promise<number> {
  const token = await apiToken(request);
  const res = await request.get('/api/v1.0/countries', { params: { search: name }, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  const rows = (await res.json()).data as Array<{ id: number; cntry_name: string }>;
  const row = rows.find((r) => r.cntry_name === name);
  if (!row) throw new Error(`No country ${name}`);
  return row.id;
}

/** A student's fields for the API; the last name carries the suffix, so a quick filter finds only this run's. */
export function studentData(suffix: string, cntryId: number, first = 'Erika'): Record<string, unknown> {
  return {
    first_name: first,
    last_name: `Muster ${suffix}`,
    address: 'Hauptstraße 1',
    zip: '10115',
    city: 'Berlin',
    cntry_id: cntryId,
    birth_date: '2001-03-15',
    email_address: `${first.toLowerCase()}.${suffix}@example.org`,
  };
}

/** The reference data a contract needs (a program and a university of this run) and a seeded scholarship. */
export async function contractReferences(request: APIRequestContext, suffix: string) {
  const programId = await createRecord(request, 'programs', { name: `E2E Program ${suffix}`, shortname: `P-${suffix}` });
  const universityId = await createRecord(request, 'universities', universityData(suffix));
  return {
    programId,
    universityId,
    scholarshipId: 1,
    programName: `E2E Program ${suffix}`,
    universityName: `E2E University ${suffix}`,
    // As the choice lists label them: name and short name (decision 038).
    programChoice: `E2E Program ${suffix} (P-${suffix})`,
    universityChoice: `E2E University ${suffix} (U-${suffix})`,
  };
}

/** A contract's fields for the API (new contracts start in status 1, Offer accepted). */
export function contractData(
  refs: { programId: number; universityId: number; scholarshipId: number },
  studentId: number,
  applicationId: string,
): Record<string, unknown> {
  return {
    student_id: studentId,
    scholarship_id: refs.scholarshipId,
    program_id: refs.programId,
    intake: 2025,
    application_round: 1,
    application_id: applicationId,
    y1_university_id: refs.universityId,
    start_date: '2025-09-01',
    end_date: '2027-08-31',
  };
}

/** Picks an option of a select; a searchable one (a long choice list) is typed into to find it among many. */
export async function chooseOption(page: Page, combobox: Locator, option: string): Promise<void> {
  await combobox.click();
  if (await combobox.isEditable()) await combobox.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(combobox).toHaveValue(option);
}

/** A new active account of the given role (Developer 1, Administrator 2, User 3, Reader 4) that can log in. */
export async function createAccount(request: APIRequestContext, suffix: string, roleId: number, first = 'Ada') {
  const user = { username: `e2e.${roleId}.${suffix}`, password: `pw-${suffix}-long-enough` };
  await createRecord(request, 'users', {
    usr_login_name: user.username,
    usr_first_name: first,
    usr_last_name: `Role${roleId} ${suffix}`,
    usr_role_id: roleId,
    usr_active: true,
    usr_login_password: user.password,
  });
  return user;
}
