import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { apiToken, contractReferences, createAccount, login, uniqueSuffix, VALID_BIC, VALID_IBAN } from './helpers.js';

/** Reads an xlsx file's first sheet as rows of cell values. */
async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

test('contracts are imported from the Excel template through the browser: preview, confirm, results downloaded', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  await login(page);
  await page.goto('/#/contracts');

  // The template comes from the upload dialog; it is filled as a person would (names with diacritics, a bad IBAN).
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('menuitem', { name: 'Excel contracts' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Excel contracts' });
  const templateDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download the template' }).click();
  const template = await templateDownload;
  expect(template.suggestedFilename()).toBe('Contract_Import_Template.xlsx');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(await template.path())) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  const col = (title: string) => header.indexOf(title) + 1;
  const people = [
    { app: `E2E-${suffix}-1`, first: 'Zoë', last: `Ørsted ${suffix}`, iban: VALID_IBAN },
    { app: `E2E-${suffix}-2`, first: 'Ağça', last: `Çelik ${suffix}`, iban: 'DE89 3704 0044 0532 0130 01' },
  ];
  people.forEach((p, i) => {
    const r = i + 2;
    const set = (title: string, value: string) => (sheet.getCell(r, col(title)).value = value);
    set('Application ID', p.app);
    set('Round', '1');
    set('Intake', '2025');
    set('Scholarship', 'EU-FULL');
    set('Program', refs.programName);
    set('University Y1', refs.universityName);
    set('Start Date', '2025-09-01');
    set('First Name', p.first);
    set('Last Name', p.last);
    set('Birth Date', '2000-01-31');
    set('E-mail', `e2e.import.${suffix}.${i}@example.org`);
    set('Address', 'Hauptstraße 1');
    set('Zip', '10115');
    set('City', 'Berlin');
    set('Country', 'Germany');
    set('IBAN', p.iban);
    set('BIC', VALID_BIC);
  });
  const filename = `Import ${suffix}.xlsx`;

  const upload = dialog.getByRole('button', { name: 'Upload' });
  await expect(upload).toBeDisabled();
  await dialog.getByLabel('File').setInputFiles({
    name: filename,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await book.xlsx.writeBuffer()),
  });
  await expect(upload).toBeEnabled();
  await upload.click();

  const preview = page.getByRole('dialog', { name: 'Preview: Import Excel contracts' });
  await expect(preview.getByTestId('batch-status')).toHaveText('Nothing has been changed yet. 1 of 2 would be done; 1 refused.');
  const table = preview.getByRole('table', { name: 'Preview' });
  await expect(table).toContainText('Will create student and contract');
  await expect(table).toContainText('Error for row 3: IBAN: checksum wrong');
  await preview.getByRole('button', { name: 'Confirm' }).click();

  const run = page.getByRole('dialog', { name: 'Import Excel contracts' });
  // The row the preview refused stays in the import, refused (decision 040).
  await expect(run.getByTestId('batch-status')).toHaveText('Finished: 1 of 2 done, 1 failed');
  await expect(run.getByRole('list', { name: 'Errors' })).toContainText('Error for row 3: IBAN: checksum wrong');
  // Refused for its data, the row would be refused again: nothing to retry.
  await expect(run.getByRole('button', { name: 'Retry failed rows' })).toBeDisabled();
  const resultsDownload = page.waitForEvent('download');
  await run.getByRole('button', { name: 'Download results' }).click();
  const results = await resultsDownload;
  expect(results.suggestedFilename()).toBe(`Import_results_Import ${suffix}.xlsx`);
  const [resultHeader, ...lines] = await sheetRows(await readFile(await results.path()));
  expect(resultHeader!.slice(-2)).toEqual(['Result', 'Message']);
  expect(lines).toHaveLength(2);
  expect(lines[0]![col('First Name') - 1]).toBe('Zoë');
  expect(lines.map((l) => l.slice(-2))).toEqual([
    ['OK', 'Created student and contract'],
    ['Error', 'Error for row 3: IBAN: checksum wrong'],
  ]);
  await run.getByRole('button', { name: 'Done' }).click();

  // The imported contract is in the overview.
  await page.getByLabel('Quick filter').fill(`Ørsted ${suffix}`);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.locator('table tbody')).toContainText(`Zoë Ørsted ${suffix}`);
});

test('a User downloads the import template from the Import menu; a Reader may download it too (spec §6)', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const user = await createAccount(request, suffix, 3, 'Uma');
  const reader = await createAccount(request, suffix, 4, 'Rea');
  await login(page, user);
  await page.goto('/#/contracts');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('menuitem', { name: 'Bank info' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('dialog', { name: 'Import Bank info' }).getByRole('button', { name: 'Download the template' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Bank_Info_Import_Template.xlsx');
  const [header] = await sheetRows(await readFile(await download.path()));
  expect(header!.slice(0, 2)).toEqual(['Application Number', 'IBAN']);

  const token = await apiToken(request, reader);
  const res = await request.get('/api/v1.0/contracts/import_template', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  expect((await sheetRows(await res.body()))[0]![0]).toBe('Application ID');
});
