import { expect, test } from '@playwright/test';
import { codes, columnTexts, createCountries, login, updateRecord } from './helpers.js';

test.beforeEach(async ({ page }) => {
  await login(page);
});

test('create, edit and delete a country through the screens', async ({ page }) => {
  await page.goto('/#/countries');
  await expect(page.getByRole('heading', { name: 'Countries' })).toBeVisible();
  await page.getByRole('button', { name: 'New' }).click();
  await expect(page).toHaveURL(/#\/country\/new/);
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Code').fill('QZX');
  await page.getByLabel('Name').fill('Quizland');
  await expect(save).toBeEnabled();
  await save.click();

  // After saving, the saved record is shown read-only at its own id.
  await expect(page).toHaveURL(/#\/country\/\d+$/);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Quizland');
  await expect(page.getByLabel('Name')).not.toBeEditable();

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/mode=edit/);
  await page.getByLabel('Name').fill('Quizland Renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Quizland Renamed');

  await page.getByRole('button', { name: 'Overview' }).click();
  await expect(page).toHaveURL(/#\/countries/);
  await page.getByLabel('Quick filter').fill('Quizland');
  await expect(page.getByRole('cell', { name: 'Quizland Renamed' })).toBeVisible();
  await page.getByRole('cell', { name: 'Quizland Renamed' }).click();
  await expect(page).toHaveURL(/#\/country\/\d+$/);

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to delete this Country?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/#\/countries/);
  await page.getByLabel('Quick filter').fill('Quizland');
  await expect(page.getByText('No Data Available')).toBeVisible();
});

test('the quick filter applies after typing stops, and its clear button restores the list', async ({ page }) => {
  await createCountries(page.request, [
    { cntry_code: 'QFA', cntry_name: 'Filterable Alpha' },
    { cntry_code: 'QFB', cntry_name: 'Filterable Beta' },
  ]);
  await page.goto('/#/countries');
  await expect(page.getByText(/^1-50 of \d+$/)).toBeVisible();
  await page.getByLabel('Quick filter').pressSequentially('filterable', { delay: 30 });
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  expect(await columnTexts(page, 2)).toEqual(['Filterable Alpha', 'Filterable Beta']);
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(page.getByLabel('Quick filter')).toHaveValue('');
  await expect(page.getByText(/^1-50 of \d+$/)).toBeVisible();
});

test('clicking a header sorts by it; shift-click adds a second key', async ({ page }) => {
  await createCountries(page.request, [
    { cntry_code: 'MXA', cntry_name: 'Multisort One' },
    { cntry_code: 'MXC', cntry_name: 'Multisort One' },
    { cntry_code: 'MXB', cntry_name: 'Multisort Two' },
  ]);
  await page.goto('/#/countries');
  await page.getByLabel('Quick filter').fill('Multisort');
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-3 of 3')).toBeVisible();

  // By code, descending: click twice.
  const codeHeader = page.getByRole('button', { name: /^Code/ });
  const nameHeader = page.getByRole('button', { name: /^Name/ });
  await codeHeader.click();
  await expect.poll(() => columnTexts(page, 1)).toEqual(['MXA', 'MXB', 'MXC']);
  await codeHeader.click();
  await expect.poll(() => columnTexts(page, 1)).toEqual(['MXC', 'MXB', 'MXA']);

  // Name ascending first, then code descending as the second key.
  await nameHeader.click();
  await codeHeader.click({ modifiers: ['Shift'] });
  await codeHeader.click({ modifiers: ['Shift'] });
  await expect.poll(() => columnTexts(page, 1)).toEqual(['MXC', 'MXA', 'MXB']);
  await expect(page.locator('th[aria-sort="ascending"]')).toHaveCount(1);
  await expect(page.locator('th[aria-sort="descending"]')).toHaveCount(1);
});

test('pages through 120 rows with the right range text', async ({ page }) => {
  await createCountries(
    page.request,
    codes('W', 120).map((code, i) => ({ cntry_code: code, cntry_name: `Pagewalk ${String(i + 1).padStart(3, '0')}` })),
  );
  await page.goto('/#/countries');
  await page.getByLabel('Quick filter').fill('Pagewalk');
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-50 of 120')).toBeVisible();
  await expect(page.locator('table tbody tr')).toHaveCount(50);
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('51-100 of 120')).toBeVisible();
  expect((await columnTexts(page, 2))[0]).toBe('Pagewalk 051');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('101-120 of 120')).toBeVisible();
  await expect(page.locator('table tbody tr')).toHaveCount(20);
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(page.getByText('51-100 of 120')).toBeVisible();

  // The page is remembered with the filter when coming back.
  await page.getByRole('link', { name: 'Scholarship Office' }).click();
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Countries' }).click();
  await expect(page.getByText('51-100 of 120')).toBeVisible();
  expect((await columnTexts(page, 2))[0]).toBe('Pagewalk 051');
});

test('the filter, sort and page are remembered after navigating away and back', async ({ page }) => {
  await createCountries(page.request, [
    { cntry_code: 'RMA', cntry_name: 'Rememberme A' },
    { cntry_code: 'RMB', cntry_name: 'Rememberme B' },
  ]);
  await page.goto('/#/countries');
  await page.getByLabel('Quick filter').fill('Rememberme');
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  // Name is the default (ascending) key: one click turns it descending.
  await expect.poll(() => columnTexts(page, 2)).toEqual(['Rememberme A', 'Rememberme B']);
  await page.getByRole('button', { name: /^Name/ }).click();
  await expect.poll(() => columnTexts(page, 2)).toEqual(['Rememberme B', 'Rememberme A']);

  await page.getByRole('link', { name: 'Scholarship Office' }).click();
  await expect(page).toHaveURL(/#\/$/);
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Countries' }).click();
  await expect(page.getByLabel('Quick filter')).toHaveValue('Rememberme');
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  await expect.poll(() => columnTexts(page, 2)).toEqual(['Rememberme B', 'Rememberme A']);
});

test('saving over a change made since the screen opened is refused with the server’s message; the typed value stays', async ({ page }) => {
  await createCountries(page.request, [{ cntry_code: 'SLX', cntry_name: 'Staleland' }]);
  await page.goto('/#/countries');
  await page.getByLabel('Quick filter').fill('Staleland');
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  await page.getByRole('row', { name: /Staleland/ }).getByRole('button', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/#\/country\/\d+\?mode=edit$/);
  const id = Number(/country\/(\d+)/.exec(page.url())![1]);

  // Someone else saves the country while this screen has it open.
  await updateRecord(page.request, 'countries', id, { cntry_name: 'Staleland (renamed elsewhere)' });

  await page.getByLabel('Name').fill('Staleland (mine)');
  await page.getByRole('button', { name: 'Save' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'This Country was changed by' });
  await expect(alert).toHaveText(/^This Country was changed by System Administrator at \d{2}-\d{2}-\d{4} \d{2}:\d{2} after you opened it\./);
  await expect(page).toHaveURL(/mode=edit$/);
  await expect(page.getByLabel('Name')).toHaveValue('Staleland (mine)');
  // It stays until dismissed.
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);

  // What was saved is the other change.
  await page.getByRole('button', { name: 'Undo Edit' }).click();
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue('Staleland (renamed elsewhere)');
});

test('a new country with a code already used is refused with the server’s message', async ({ page }) => {
  await createCountries(page.request, [{ cntry_code: 'DPX', cntry_name: 'Duplicatia' }]);
  await page.goto('/#/country/new');
  await page.getByLabel('Code').fill('dpx');
  await page.getByLabel('Name').fill('Duplicatia Again');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'A Country with this Code already exists' })).toBeVisible();
  await expect(page).toHaveURL(/#\/country\/new$/);
  await expect(page.getByLabel('Name')).toHaveValue('Duplicatia Again');
});
