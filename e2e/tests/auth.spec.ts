import { expect, test } from '@playwright/test';
import { admin, login } from './helpers.js';

test('an anonymous visit goes to the login screen', async ({ page }) => {
  await page.goto('/#/countries');
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
});

test('a failed login clears both fields and shows no message', async ({ page }) => {
  await page.goto('/#/login');
  const username = page.getByLabel('Username');
  const password = page.getByLabel('Password');
  await username.fill('admin');
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
  await password.fill('wrong password');
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  await password.press('Enter');
  await expect(username).toHaveValue('');
  await expect(password).toHaveValue('');
  await expect(page).toHaveURL(/#\/login$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('login shows the top bar with name, role and version; the user stays logged in across reloads; logout', async ({ page }) => {
  await login(page);
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByText('System Administrator (Developer)')).toBeVisible();
  await expect(page.getByText('v2.0.51')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage' })).toBeVisible();

  await page.reload();
  await expect(page.getByText('System Administrator (Developer)')).toBeVisible();
  await page.goto('/#/login');
  await expect(page).toHaveURL(/#\/$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/login$/);
  await page.goto('/#/countries');
  await expect(page).toHaveURL(/#\/login$/);
  // The old session is gone on the server too.
  const me = await page.request.get('/api/v1.0/auth/me');
  expect(me.status()).toBe(401);
  expect(admin.username).toBe('admin');
});
