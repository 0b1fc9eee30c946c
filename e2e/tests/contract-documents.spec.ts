import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

test('a document is uploaded to a contract, counted in its tab, downloaded under its name, and deleted', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `DOC-${suffix}`));
  const filename = `passport-${suffix}.txt`;
  const content = `Passport copy of run ${suffix}\nÄÖÜ äöü ß`;

  await login(page);
  await page.goto(`/#/contract/${contractId}`);
  await page.getByRole('tab', { name: 'Documents (0)' }).click();
  const upload = page.getByRole('form', { name: 'Upload document' });
  await expect(upload.getByRole('button', { name: 'Upload' })).toBeDisabled();
  await expect(upload.getByRole('combobox', { name: /^Type/ })).toHaveValue('Contract');
  await upload.getByRole('combobox', { name: /^Type/ }).click();
  await page.getByRole('option', { name: 'Passport copy', exact: true }).click();
  await upload.getByLabel(/^Description/).fill('Front page');
  await upload.getByLabel('File').setInputFiles({ name: filename, mimeType: 'text/plain', buffer: Buffer.from(content, 'utf8') });
  await expect(upload.getByRole('button', { name: 'Upload' })).toBeEnabled();
  await upload.getByRole('button', { name: 'Upload' }).click();

  await expect(page.getByRole('tab', { name: 'Documents (1)' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `Uploaded ${filename}` })).toBeVisible();
  const row = page.getByRole('table', { name: 'Documents' }).getByRole('row', { name: new RegExp(filename) });
  await expect(row.getByRole('cell')).toHaveText([filename, 'Passport copy', 'Front page', /^\d+ B$/, /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/, /Download/]);
  await expect(upload.getByRole('button', { name: 'Upload' })).toBeDisabled();

  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(filename);
  expect(await readFile(await download.path(), 'utf8')).toBe(content);

  // The count stays current on the General tab too, after a reload.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Documents (1)' })).toBeVisible();
  await page.getByRole('tab', { name: 'Documents (1)' }).click();
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Are you sure you want to delete this Document?');
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByRole('tab', { name: 'Documents (0)' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Documents' })).toContainText('No Data Available');
});
