import { expect, test } from '@playwright/test';
import { chooseOption, columnTexts, createRecord, login } from './helpers.js';

// Columns of the milestone overview: 0 select, 1 intake, 2 scholarship, 3 year.
const SCHOLARSHIP = 2;
const YEAR = 3;

test('the advanced filter finds milestones by intake, scholarship type, scholarship and year', async ({ page, request }) => {
  // Intakes no other journey uses (the journeys share one database).
  await createRecord(request, 'milestones', { intake: 2091, scholarship_id: 1, year: 1, milestone_date: '2091-10-01' });
  await createRecord(request, 'milestones', { intake: 2091, scholarship_id: 2, year: 2, milestone_date: '2092-10-01' });
  await createRecord(request, 'milestones', { intake: 2092, scholarship_id: 1, year: 2, milestone_date: '2093-10-01' });

  await login(page);
  await page.goto('/#/milestones');
  await expect(page.getByRole('heading', { name: 'Milestones' })).toBeVisible();
  // The quick filter (intake as text) keeps to this journey's milestones; the advanced filters apply beside it.
  await page.getByLabel('Quick filter').fill('209');
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const filter = page.getByRole('form', { name: 'Advanced filter' });

  // Enter in a field applies the filter.
  await filter.getByLabel('Intake').fill('2091');
  await filter.getByLabel('Intake').press('Enter');
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  expect(await columnTexts(page, SCHOLARSHIP)).toEqual(['EU-FULL', 'EU-PART']);

  await chooseOption(page, filter.getByRole('combobox', { name: 'Year' }), '2');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, SCHOLARSHIP)).toEqual(['EU-PART']);

  // The type is a scholarship's type: EU-PART is a partial one.
  await chooseOption(page, filter.getByRole('combobox', { name: 'Scholarship type' }), 'Full scholarship');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No Data Available')).toBeVisible();

  await filter.getByLabel('Intake').fill('');
  await chooseOption(page, filter.getByRole('combobox', { name: 'Scholarship', exact: true }), 'EU-FULL');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, 1)).toEqual(['2092']);
  expect(await columnTexts(page, YEAR)).toEqual(['2']);

  await filter.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('1-3 of 3')).toBeVisible();
});
