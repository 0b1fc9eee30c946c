import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, chooseOption, columnTexts, contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix, VALID_BIC, VALID_IBAN } from './helpers.js';

/**
 * A student with bank data, a contract of intake 2039 (running 2039–2041: an allowance is paid only within the
 * contract's dates, decision 037) and three planned payments (two milestones, one allowance).
 */
async function arrange(request: APIRequestContext, suffix: string) {
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', {
    ...studentData(suffix, await countryId(request, 'Germany')),
    payment_bank_iban: VALID_IBAN,
    payment_bank_swift: VALID_BIC,
  });
  const contractId = await createRecord(request, 'contracts', { ...contractData(refs, studentId, `SP-${suffix}`), intake: 2039, start_date: '2039-09-01', end_date: '2041-08-31' });
  const payments = [
    { scholarship_payment_type_id: 1, amount: 1500.1, planned_date: '2039-10-01', period: 'Y1' },
    { scholarship_payment_type_id: 1, amount: 1250.25, planned_date: '2040-10-01', period: 'Y2' },
    { scholarship_payment_type_id: 3, amount: 300, planned_date: '2039-10-01', period: '2039-10' },
  ];
  for (const p of payments) await createRecord(request, 'scholarship_payments', { contract_id: contractId, ...p });
}

async function openView(page: Page, path: string, suffix: string, count: number) {
  await page.goto(`/#${path}`);
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText(`1-${count} of ${count}`)).toBeVisible();
}

const cents = (texts: string[]) => texts.reduce((s, t) => s + Number(t.replace(/[€\s.]/g, '').replace(',', '.')) * 100, 0);

test('Schedule Payments from the planned view with a preview, export from the numbered view: Payments.xlsx arrives and reads back; the scholarship overview shows the same sums; the file refused, its payments are reset at once', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  await arrange(request, suffix);
  await login(page);

  await openView(page, '/scholarshippayments/planned', suffix, 3);
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Schedule Payments' }).click();
  await page.getByRole('dialog', { name: 'Schedule Payments' }).getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Schedule Payments' });
  await expect(preview.getByTestId('batch-status')).toHaveText(/^Nothing has been changed yet\. 3 of 3 would be done, € 3\.050,35 in all; 0 refused\.$/);
  const totals = preview.getByRole('table', { name: 'Totals' });
  await expect(totals.getByRole('row')).toHaveText([/Type\s*Rows\s*Amount/, /Milestone\s*2\s*€ 2\.750,35/, /Monthly allowance\s*1\s*€ 300,00/]);
  await preview.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('dialog', { name: 'Schedule Payments' }).getByTestId('batch-status')).toHaveText(/^Finished: 3 of 3 done/);
  await page.getByRole('dialog', { name: 'Schedule Payments' }).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('No Data Available')).toBeVisible();

  await openView(page, '/scholarshippayments/numbered', suffix, 3);
  const numbers = await columnTexts(page, 1);
  for (const n of numbers) expect(n).toMatch(/^S\d{4}-\d{5}$/);
  await page.getByRole('button', { name: 'Export Payments' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('dialog', { name: 'Export Payments' }).getByRole('button', { name: 'Export Payments' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Payments.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).getCell(1).value).toBe('Number');
  const exported = [2, 3, 4].map((r) => String(sheet.getRow(r).getCell(1).value));
  expect(exported.sort()).toEqual([...numbers].sort());
  expect(sheet.getRow(5).getCell(1).value).toBeNull();
  expect([2, 3, 4].reduce((s, r) => s + Math.round(Number(sheet.getRow(r).getCell(6).value) * 100), 0)).toBe(305035);
  // Exported now: the overview reads its page again and the Exported column is filled.
  await expect.poll(async () => (await columnTexts(page, 9)).every((t) => t !== '')).toBe(true);

  // The scholarship overview, intake 2039: the figures and the views they open agree.
  await page.goto('/#/scholarshippayments/by_scholarship');
  await page.getByRole('combobox', { name: 'Intake' }).click();
  await page.getByRole('option', { name: '2039', exact: true }).click();
  const milestones = page.getByRole('link', { name: /: Numbered payments of .* 2039 Milestone$/ });
  await expect(milestones).toHaveText('2 · € 2.750,35');
  await expect(page.getByRole('link', { name: /: Exported payments of .* 2039 Monthly allowance$/ })).toHaveText('1 · € 300,00');
  await milestones.click();
  await expect(page.getByRole('heading', { name: 'Numbered Scholarship Payments' })).toBeVisible();
  await expect(page.getByText('1-2 of 2')).toBeVisible();
  expect(cents(await columnTexts(page, 6))).toBe(275035);

  // The bank refused the file: its payments, found by the Export filter, are reset at once (decision 056).
  const token = await apiToken(request);
  const exports = (await (await request.get('/api/v1.0/scholarship_payment_exports/choice', { headers: { Authorization: `Bearer ${token}` } })).json()) as { name: string }[];
  const ours = exports.find((e) => e.name.includes('· 3 payment(s) · € 3.050,35'))!.name;
  await openView(page, '/scholarshippayments/numbered', suffix, 3);
  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const filter = page.getByRole('form', { name: 'Advanced filter' });
  await chooseOption(page, filter.getByRole('combobox', { name: 'Export', exact: true }), ours);
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Reset Export' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset Export' });
  await expect(reset).toContainText('Only when the bank did not carry them out');
  await reset.getByRole('button', { name: 'Run' }).click();
  await expect(reset.getByTestId('batch-status')).toHaveText(/^Finished: 3 of 3 done/);
  await reset.getByRole('button', { name: 'Done' }).click();
  // No longer that export's: the filter finds none, and without it the three wait for the next export.
  await expect(page.getByText('No Data Available')).toBeVisible();
  await filter.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  expect(await columnTexts(page, 9)).toEqual(['', '', '']);
});
