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
