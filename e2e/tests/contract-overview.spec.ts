import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  apiToken,
  chooseOption,
  columnTexts,
  contractData,
  contractReferences,
  countryId,
  createAccount,
  createRecord,
  login,
  studentData,
  uniqueSuffix,
} from './helpers.js';

/** Two contracts of one new student; the suffix in the student's name finds exactly them. */
async function twoContracts(request: APIRequestContext, suffix: string): Promise<number[]> {
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  return [
    await createRecord(request, 'contracts', contractData(refs, studentId, `BULK1-${suffix}`)),
    await createRecord(request, 'contracts', contractData(refs, studentId, `BULK2-${suffix}`)),
  ];
}

// Columns of the contract overview: 0 select, 1 application number, … 8 Contract Sent.
const CONTRACT_SENT = 8;

test('an administrator bulk edits two contracts and sees the changed values', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const [firstId] = await twoContracts(request, suffix);

  const administrator = await createAccount(request, suffix, 2, 'Grace');
  await login(page, administrator);
  await expect(page.getByText(/\(Administrator\)$/)).toBeVisible();
  await page.getByRole('button', { name: 'Students' }).click();
  await page.getByRole('menuitem', { name: 'Contracts Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Contracts' })).toBeVisible();
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  expect(await columnTexts(page, CONTRACT_SENT)).toEqual(['', '']);

  // Only with a selection.
  await expect(page.getByRole('button', { name: 'Batch', exact: true })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Bulk Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk Edit' });
  await expect(dialog.getByRole('combobox', { name: 'Year 1 finished' })).toHaveValue('');
  // Spec §5: nothing changed, nothing to send.
  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await dialog.getByLabel(/^Contract sent date/).fill('15-05-2025');
  await dialog.getByLabel(/^Contract sent date/).press('Escape');
  await dialog.getByRole('combobox', { name: 'Year 1 finished' }).click();
  await page.getByRole('option', { name: 'Yes', exact: true }).click();
  await dialog.getByRole('button', { name: 'Apply' }).click();

  // The batch dialog follows the run on the server to its end.
  const run = page.getByRole('dialog', { name: 'Bulk Edit' });
  await expect(run.getByText('Finished: 2 of 2 done, 0 failed')).toBeVisible();
  await expect(page.getByText('2 selected')).toHaveCount(0);
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(run).toHaveCount(0);
  await expect.poll(() => columnTexts(page, CONTRACT_SENT)).toEqual(['15-05-2025', '15-05-2025']);

  await page.goto(`/#/contract/${firstId}`);
  await expect(page.getByLabel(/^Contract sent date/)).toHaveValue('15-05-2025');
  await expect(page.getByRole('checkbox', { name: 'Year 1 finished' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Year 2 finished' })).not.toBeChecked();
});

test('Export report downloads Contracts.xlsx of the current filter', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  await twoContracts(request, suffix);

  await login(page);
  await page.goto('/#/contracts');
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-2 of 2')).toBeVisible();

  const exported = page.waitForRequest((r) => r.url().endsWith('/api/v1.0/contracts/download_report') && r.method() === 'POST');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report' }).click();
  expect((await exported).postDataJSON()).toEqual({ filter: { search: suffix, sort: 'last_name|asc' } });
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Contracts.xlsx');
  const bytes = await readFile(await download.path());
  // An xlsx is a zip archive.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(bytes.length).toBeGreaterThan(1000);
});

test('the advanced filter narrows the contracts to the chosen status, active and instalments, and Reset widens them again', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const [, secondId] = await twoContracts(request, suffix);
  const token = await apiToken(request);
  const enrolled = await request.put(`/api/v1.0/contracts/${secondId}/update_status`, {
    data: { contract_status_id: 3 },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(enrolled.status(), await enrolled.text()).toBe(200);
  const applicationNumber = (await enrolled.json()).application_number as string;

  await login(page);
  await page.goto('/#/contracts');
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-2 of 2')).toBeVisible();

  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const filter = page.getByRole('form', { name: 'Advanced filter' });
  await chooseOption(page, filter.getByRole('combobox', { name: 'Status' }), 'Enrolled');
  await chooseOption(page, filter.getByRole('combobox', { name: 'Active' }), 'Yes');
  await chooseOption(page, filter.getByRole('combobox', { name: 'Instalments' }), 'No');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, 1)).toEqual([applicationNumber]);
  expect(await columnTexts(page, 3)).toEqual(['Enrolled']);

  // Nothing of this run is a contract with instalments.
  await chooseOption(page, filter.getByRole('combobox', { name: 'Instalments' }), 'Yes');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No Data Available')).toBeVisible();

  await filter.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('1-2 of 2')).toBeVisible();
});
