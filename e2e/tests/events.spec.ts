import { expect, test } from '@playwright/test';
import {
  apiToken,
  chooseOption,
  columnTexts,
  countryId,
  createRecord,
  login,
  studentData,
  uniqueSuffix,
  universityData,
  updateRecord,
} from './helpers.js';

test('the event log lists a university update, a user creation, a password change and a login, newest first, with their users', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  const reader = { username: `evlog-${suffix}`, password: `evlog-password-${suffix}` };
  const universityId = await createRecord(request, 'universities', universityData(suffix));

  // In this order, so newest first is the reverse.
  await updateRecord(request, 'universities', universityId, { name: `E2E University ${suffix} renamed` });
  const userId = await createRecord(request, 'users', {
    usr_login_name: reader.username,
    usr_first_name: 'Eve',
    usr_last_name: `Log ${suffix}`,
    usr_role_id: 4,
    usr_active: true,
  });
  await updateRecord(request, 'users', userId, { usr_login_password: reader.password });
  await apiToken(request, reader);

  await login(page);
  await page.goto('/#/events');
  await expect(page.getByRole('heading', { name: 'Log Events' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.locator('th[aria-sort="descending"]')).toHaveText(/^Time/);

  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-5 of 5')).toBeVisible();
  expect(await columnTexts(page, 2)).toEqual(['Login', 'Password change', 'Create', 'Update', 'Create']);
  const messages = await columnTexts(page, 3);
  expect(messages[0]).toBe(`Login of "${reader.username}"`);
  expect(messages[1]).toBe(`Password of User "${reader.username}" changed`);
  expect(messages[2]).toBe(`Created User "${reader.username}"`);
  expect(messages[3]).toContain(`Updated University "U-${suffix}"`);
  expect(messages[4]).toBe(`Created University "U-${suffix}"`);
  expect(await columnTexts(page, 6)).toEqual([`Eve Log ${suffix}`, ...Array(4).fill('System Administrator')]);
  const times = await columnTexts(page, 1);
  expect(times.every((t) => /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/.test(t))).toBe(true);

  // The rows open nothing.
  await page.getByRole('cell', { name: `Login of "${reader.username}"` }).click();
  await expect(page).toHaveURL(/#\/events$/);

  // Advanced filter: the new user's events only, by user and type.
  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const filter = page.getByRole('form', { name: 'Advanced filter' });
  await filter.getByRole('combobox', { name: 'User' }).click();
  await filter.getByRole('combobox', { name: 'User' }).fill(`Eve Log ${suffix}`);
  await page.getByRole('option', { name: `Eve Log ${suffix}` }).click();
  await filter.getByRole('combobox', { name: 'User' }).press('Enter');
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, 3)).toEqual([`Login of "${reader.username}"`]);

  // A date range that ends before today leaves nothing.
  await filter.getByLabel('Event Time to').fill('01-01-2000');
  await filter.getByLabel('Event Time to').press('Enter');
  await expect(page.getByText('No Data Available')).toBeVisible();
  await filter.getByLabel('Event Time to').press('Escape');
  await filter.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('1-5 of 5')).toBeVisible();
});

test('the event log is filtered by student: the student’s own events only', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  await updateRecord(request, 'students', studentId, { city: 'Hamburg' });

  await login(page);
  await page.goto('/#/events');
  await expect(page.getByText(/^1-\d+ of \d+$/)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const filter = page.getByRole('form', { name: 'Advanced filter' });
  await chooseOption(page, filter.getByRole('combobox', { name: 'Student' }), `Muster ${suffix}, Erika`);
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  expect(await columnTexts(page, 2)).toEqual(['Update', 'Create']);
  expect(await columnTexts(page, 4)).toEqual([`Erika Muster ${suffix}`, `Erika Muster ${suffix}`]);
});
