import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, chooseOption, columnTexts, contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

/**
 * Issue 18 point 1: the contracts overview filtered by "Open" shows only the contracts with an open invoice.
 * Three contracts of one new student: the first has a numbered invoice (open: nothing paid), the second only a
 * planned one, the third none.
 */
async function arrange(request: APIRequestContext, suffix: string) {
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  const ids = [
    await createRecord(request, 'contracts', contractData(refs, studentId, `OPEN1-${suffix}`)),
    await createRecord(request, 'contracts', contractData(refs, studentId, `OPEN2-${suffix}`)),
    await createRecord(request, 'contracts', contractData(refs, studentId, `OPEN3-${suffix}`)),
  ];
  const invoice = (contractId: number) => ({ contract_id: contractId, year: 1, semester: 0, description: 'Participation fee year 1', amount: 1250.5, planned_date: '2025-09-01', document_type_id: 5 });
  const numbered = await createRecord(request, 'invoices', invoice(ids[0]!));
  await createRecord(request, 'invoices', invoice(ids[1]!));
  const token = await apiToken(request);
  const res = await request.post(`/api/v1.0/invoices/${numbered}/create_pdf`, { data: {}, headers: { Authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  const numbers = await Promise.all(
    ids.map(async (id) => ((await (await request.get(`/api/v1.0/contracts/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { application_number: string }).application_number),
  );
  return numbers;
}

// Columns of the contract overview: 0 select, 1 application number.
const APPLICATION_NUMBER = 1;

test('the contracts overview filtered by Open shows only the contracts with an open invoice', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const [withOpen, plannedOnly, without] = await arrange(request, suffix);

  await login(page);
  await page.getByRole('button', { name: 'Students' }).click();
  await page.getByRole('menuitem', { name: 'Contracts Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Contracts' })).toBeVisible();
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  expect((await columnTexts(page, APPLICATION_NUMBER)).sort()).toEqual([withOpen, plannedOnly, without].sort());

  await page.getByRole('checkbox', { name: 'Advanced' }).check();
  const form = page.getByRole('form', { name: 'Advanced filter' });
  await chooseOption(page, form.getByRole('combobox', { name: /^Open/ }), 'Yes');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, APPLICATION_NUMBER)).toEqual([withOpen]);

  // "No": a contract with an invoice that is not open (the planned one); the contract without invoices has none.
  await chooseOption(page, form.getByRole('combobox', { name: /^Open/ }), 'No');
  await form.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('1-1 of 1')).toBeVisible();
  expect(await columnTexts(page, APPLICATION_NUMBER)).toEqual([plannedOnly]);
});
