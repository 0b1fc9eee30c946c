import { expect, test } from '@playwright/test';
import { createRecord, login, logout, uniqueSuffix } from './helpers.js';

test('an administrator creates a Reader and sets the password; the Reader sees no write controls but can read', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const reader = { username: `reader-${suffix}`, password: `reader-password-${suffix}` };
  // Arranged with a request context of its own: the page's cookie stays the one its logins set.
  const programId = await createRecord(request, 'programs', { name: `E2E Program ${suffix}`, shortname: `P-${suffix}` });

  // The admin of the e2e database is a Developer: at least an Administrator.
  await login(page);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Advanced' })).toHaveCount(0);
  await page.getByRole('button', { name: 'New' }).click();
  await expect(page).toHaveURL(/#\/user\/new$/);

  const save = page.getByRole('button', { name: 'Save' });
  await page.getByLabel(/^Login/).fill(reader.username);
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill(`Reader ${suffix}`);
  await expect(page.getByRole('checkbox', { name: 'Active', exact: true })).toBeChecked();
  await expect(save).toBeDisabled();
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Reader', exact: true }).click();
  await expect(save).toBeEnabled();
  await save.click();

  await expect(page).toHaveURL(/#\/user\/\d+$/);
  await expect(page.getByLabel(/^Login/)).toHaveValue(reader.username);
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveValue('Reader');
  // Users are never deleted.
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  // Two different entries: the message, and nothing is changed.
  await page.getByRole('button', { name: 'Set Password' }).click();
  let dialog = page.getByRole('dialog', { name: 'Set Password' });
  await dialog.getByLabel('New password').fill(reader.password);
  await dialog.getByLabel('Repeat password').fill(`${reader.password}x`);
  await dialog.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Set Password' }).click();
  dialog = page.getByRole('dialog', { name: 'Set Password' });
  await dialog.getByLabel('New password').fill(reader.password);
  await dialog.getByLabel('Repeat password').fill(reader.password);
  await dialog.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password set' })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await logout(page);
  await login(page, reader);
  await expect(page.getByText(`Rita Reader ${suffix} (Reader)`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Manage' })).toHaveCount(0);

  await page.goto('/#/countries');
  await expect(page.getByText(/^1-\d+ of \d+$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await page.getByLabel('Quick filter').fill('Germany');
  await page.getByLabel('Quick filter').press('Enter');
  await page.getByRole('link', { name: 'DE', exact: true }).click();
  await expect(page).toHaveURL(/#\/country\/\d+$/);
  await expect(page.getByLabel('Name')).toHaveValue('Germany');
  await expect(page.getByLabel('Name')).not.toBeEditable();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Overview' })).toBeVisible();
  // ?mode=edit does not make a Reader an editor.
  await page.goto(`/#/program/${programId}?mode=edit`);
  await expect(page.getByLabel('Short Name')).toHaveValue(`P-${suffix}`);
  await expect(page.getByLabel('Short Name')).not.toBeEditable();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

  await page.goto('/#/programs');
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await page.getByRole('link', { name: `E2E Program ${suffix}` }).click();
  await expect(page).toHaveURL(new RegExp(`#/program/${programId}$`));
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`E2E Program ${suffix}`);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  await page.goto('/#/program/new');
  await expect(page.getByRole('alert').filter({ hasText: 'Not allowed' })).toContainText('You are not allowed to create a Program.');
});
