import { expect, type APIRequestContext, type Page } from '@playwright/test';
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
  const res = await request.put(`/api/v1.0/${path}/${id}`, { data: { id, ...data }, headers: { Authorization: `Bearer ${token}` } });
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
