import { expect, test } from '@playwright/test';
import { admin, createRecord, login, uniqueSuffix } from './helpers.js';

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

test('a session that ends while a screen holds changes asks for the password over the screen: the typed text stays and is saved (decision 061)', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const programId = await createRecord(request, 'programs', { name: `E2E Program ${suffix}`, shortname: `P-${suffix}` });
  await login(page);
  await page.goto(`/#/program/${programId}?mode=edit`);
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toHaveValue(`E2E Program ${suffix}`);
  await name.fill(`E2E Program ${suffix} (typed before the session ended)`);

  // The session ends on the server, as at its expiry or a Logout in another tab (this browser's cookie).
  const ended = await page.request.post('/api/v1.0/auth/logout');
  expect(ended.ok()).toBe(true);

  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(dialog).toContainText('Log in again as admin to go on, then save them.');
  await expect(page).toHaveURL(/mode=edit$/);

  await dialog.getByLabel('Password').fill('not the password');
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/Wrong username or password/);

  await dialog.getByLabel('Password').fill(admin.password);
  await dialog.getByRole('button', { name: 'Log in' }).click();
  await expect(dialog).toBeHidden();
  await expect(name).toHaveValue(`E2E Program ${suffix} (typed before the session ended)`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`#/program/${programId}$`));

  // Saved: a reload reads it from the server.
  await page.reload();
  await expect(name).toHaveValue(`E2E Program ${suffix} (typed before the session ended)`);
});
