import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, chooseOption, columnTexts, contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

/** Three contracts of one new student, in status Offer accepted; the suffix finds exactly them. */
async function threeContracts(request: APIRequestContext, suffix: string): Promise<number[]> {
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  const ids: number[] = [];
  for (const n of [1, 2, 3]) ids.push(await createRecord(request, 'contracts', contractData(refs, studentId, `BATCH${n}-${suffix}`)));
  return ids;
}

async function openContracts(page: Page, suffix: string, count: number) {
  await page.goto('/#/contracts');
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText(`1-${count} of ${count}`)).toBeVisible();
}

// Columns of the contract overview: 0 select, 1 application number, 2 student, 3 status, … 8 Contract Sent.
const STATUS = 3;
const CONTRACT_SENT = 8;

test('Change status on three contracts runs on the server: Finished with one error line, table refreshed, selection cleared, result downloaded', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  const [, refused] = await threeContracts(request, suffix);
  // One contract is enrolled already: it cannot go to Enrolled again.
  const token = await apiToken(request);
  const enrolled = await request.put(`/api/v1.0/contracts/${refused}/update_status`, { data: { contract_status_id: 3 }, headers: { Authorization: `Bearer ${token}` } });
  expect(enrolled.status()).toBe(200);
  const refusedNumber = (await enrolled.json()).application_number as string;

  await login(page);
  await openContracts(page, suffix, 3);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await expect(page.getByText('3 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Change status' }).click();
  const ask = page.getByRole('dialog', { name: 'Change status' });
  await chooseOption(page, ask.getByRole('combobox', { name: 'New status' }), 'Enrolled');
  await ask.getByRole('button', { name: 'Run' }).click();

  const run = page.getByRole('dialog', { name: 'Change status' });
  await expect(run.getByTestId('batch-status')).toHaveText('Finished: 2 of 3 done, 1 failed');
  await expect(run.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(run.getByRole('list', { name: 'Errors' }).getByRole('listitem')).toHaveText([
    `Error for ${refusedNumber}: A contract with status "Enrolled" cannot change to "Enrolled"`,
  ]);
  await expect(page.getByText('3 selected')).toHaveCount(0);
  await expect.poll(() => columnTexts(page, STATUS)).toEqual(['Enrolled', 'Enrolled', 'Enrolled']);

  const downloading = page.waitForEvent('download');
  await run.getByRole('button', { name: 'Download result' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Batch_\d+_Change_status\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const results = [2, 3, 4].map((n) => sheet.getRow(n).getCell(3).value);
  expect(results.sort()).toEqual(['Error', 'OK', 'OK']);
  expect(sheet.getRow(1).getCell(4).value).toBe('Message');

  // Closed, the run is found again under Batch runs in the top bar, and opens in the same dialog.
  const runId = /^Batch_(\d+)_/.exec(download.suggestedFilename())![1];
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(run).toHaveCount(0);
  await page.getByRole('button', { name: 'Batch runs' }).click();
  const mine = page.getByRole('dialog', { name: 'My batch runs' });
  await expect(mine.getByRole('row', { name: `Change status (run ${runId})` })).toContainText('Finished: 2 of 3 done, 1 failed');
  await mine.getByRole('button', { name: `Open run ${runId}` }).click();
  await expect(page.getByRole('dialog', { name: 'Change status' }).getByTestId('batch-status')).toHaveText('Finished: 2 of 3 done, 1 failed');
});

test('Mark contract sent works on one contract from its screen, and on a selection as a batch', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const [first] = await threeContracts(request, suffix);
  await login(page);

  await page.goto(`/#/contract/${first}`);
  const actions = page.getByRole('group', { name: 'Actions' });
  await actions.getByRole('button', { name: 'Mark contract sent' }).click();
  await expect(actions.getByRole('button', { name: 'Mark contract sent' })).toBeDisabled();
  const today = new Date().toLocaleDateString('en-GB', { timeZone: 'Europe/Berlin' }).replaceAll('/', '-');
  await expect(page.getByLabel(/^Contract sent date/)).toHaveValue(today);

  await openContracts(page, suffix, 3);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Mark contract sent' }).click();
  const run = page.getByRole('dialog', { name: 'Mark contract sent' });
  // The one marked on its screen is refused: it was sent already.
  await expect(run.getByTestId('batch-status')).toHaveText('Finished: 2 of 3 done, 1 failed');
  await expect(run.getByRole('list', { name: 'Errors' })).toContainText('The contract was already marked sent on');
  await run.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => columnTexts(page, CONTRACT_SENT)).toEqual([today, today, today]);
});
