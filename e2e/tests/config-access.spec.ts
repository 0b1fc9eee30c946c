import { expect, test } from '@playwright/test';
import { apiToken, createAccount, login, logout, uniqueSuffix } from './helpers.js';

/**
 * The Configuration screen by role (issue 12 point 4): a Developer sees both tabs, an Administrator only
 * Templates, a User no /config at all — the menu hides it and the route (screen and API) refuses it.
 */
test('a Developer sees Templates and Email, an Administrator only Templates, a User no /config', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const administrator = await createAccount(request, suffix, 2, 'Ada');
  const user = await createAccount(request, suffix, 3, 'Bob');

  // The admin of the e2e database is a Developer.
  await login(page);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Configuration' }).click();
  await expect(page).toHaveURL(/#\/config$/);
  await expect(page.getByRole('heading', { name: 'Configuration' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Templates' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Email' })).toBeVisible();
  await logout(page);

  await login(page, administrator);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Configuration' }).click();
  await expect(page.getByRole('heading', { name: 'Configuration' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Templates' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Email' })).toHaveCount(0);
  await logout(page);

  await login(page, user);
  // The Manage menu (where Configuration lives) is an Administrator's.
  await expect(page.getByRole('button', { name: 'Manage' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Configuration' })).toHaveCount(0);
  await page.goto('/#/config');
  await expect(page.getByRole('alert').filter({ hasText: 'not allowed' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Configuration' })).toHaveCount(0);
  const token = await apiToken(request, user);
  expect((await request.get('/api/v1.0/config', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(403);
});
