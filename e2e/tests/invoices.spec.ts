import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiToken, contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

/**
 * Issue 13: a contract's invoices from planning to e-mail, through the screens. Plan the invoices on the contract,
 * number them with the batch Create Invoice (preview, then Confirm → Finished), open a PDF, make a credit note,
 * send the invoice e-mail and find it in the Outbox, and read the contract's amounts.
 */
test("a contract's invoices: plan, Create Invoice with preview, PDF, credit note, e-mail in the Outbox, contract amounts", async ({ page, request }) => {
  const suffix = uniqueSuffix();
  // An intake of its own: the fee row of intake and scholarship is this journey's.
  const intake = 2060 + Math.floor(Math.random() * 40);
  const refs = await contractReferences(request, suffix);
  await createRecord(request, 'studentfees', {
    intake,
    scholarship_id: refs.scholarshipId,
    registration_fee_amount: 150,
    participationfee1_amount: 4500.5,
    participationfee2_amount: 4500,
  });
  const student = { ...studentData(suffix, await countryId(request, 'Germany'), 'Zoë'), email_address: `zoe.${suffix}@example.org` };
  const studentId = await createRecord(request, 'students', student);
  const contractId = await createRecord(request, 'contracts', { ...contractData(refs, studentId, `INV-${suffix}`), intake });

  await login(page);
  await page.goto(`/#/contract/${contractId}`);
  const applicationNumber = await page.getByLabel(/^Application Number/).inputValue();
  expect(applicationNumber).not.toBe('');

  // Plan invoices: the registration fee and the participation fees of years 1 and 2.
  await page.getByRole('button', { name: 'Plan invoices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Planned 3 invoice(s) over € 9.150,50' })).toBeVisible();
  // The screen reads the contract again after the action (changesRecord): no reload by hand.
  await expect(page.getByLabel(/^Planned amount/)).toHaveValue('€ 9.150,50');

  // The contract's planned invoices, through its link; Create Invoice on all three, previewed first.
  await page.getByRole('navigation', { name: 'Overviews of this contract' }).getByRole('link', { name: 'Planned invoices' }).click();
  await expect(page.getByRole('heading', { name: 'Planned Invoices' })).toBeVisible();
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Create Invoice' }).click();
  // Asked first, then previewed (decision 042): nothing is numbered until Confirm.
  await page.getByRole('dialog', { name: 'Create Invoice' }).getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview: Create Invoice' });
  await expect(preview.getByTestId('batch-status')).toHaveText('Nothing has been changed yet. 3 of 3 would be done, € 9.150,50 in all; 0 refused.');
  await preview.getByRole('button', { name: 'Confirm' }).click();
  const run = page.getByRole('dialog', { name: 'Create Invoice' });
  await expect(run.getByTestId('batch-status')).toHaveText('Finished: 3 of 3 done, 0 failed');
  await run.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('No Data Available')).toBeVisible();

  // The numbered participation fee of year 1: its stored PDF.
  const token = await apiToken(request);
  const list = await request.get('/api/v1.0/invoices', { params: { numbered: 'true', contract_id: contractId, document_type_id: 5 }, headers: { Authorization: `Bearer ${token}` } });
  const fee = ((await list.json()).data as { id: number; number: string; year: number }[]).find((r) => r.year === 1)!;
  await page.goto(`/#/invoices/numbered?contract_id=${contractId}`);
  await expect(page.getByText('1-3 of 3')).toBeVisible();
  await expect(page.getByRole('link', { name: `New payment for invoice ${fee.number}` })).toBeVisible();
  // 16 columns at 1280 px: the row's buttons stay on screen (a sticky column), the page never scrolls sideways.
  await expect(page.getByRole('link', { name: `New payment for invoice ${fee.number}` })).toBeInViewport();
  expect(await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth)).toBeLessThanOrEqual(0);
  await page.goto(`/#/invoice/numbered/${fee.id}`);
  await expect(page.getByLabel('Number', { exact: true })).toHaveValue(fee.number);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Invoice_${fee.number}.pdf`);
  const saved = await readFile((await download.path())!);
  expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Issue 18 point 6: the same bytes create_pdf stored.
  const stored = await request.post(`/api/v1.0/invoices/${fee.id}/download_pdf`, { headers: { Authorization: `Bearer ${token}` } });
  expect(Buffer.compare(saved, await stored.body())).toBe(0);

  // Send the invoice e-mail: its own button, beside Send Reminder (disabled until the invoice is due).
  await expect(page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Send Reminder' })).toBeDisabled();
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Send Email' }).click();
  await page.getByRole('dialog', { name: 'Send Email' }).getByRole('button', { name: 'Yes' }).click();
  const subject = `Invoice ${fee.number} for contract ${applicationNumber}`;
  await expect(page.getByRole('status').filter({ hasText: `E-mail "${subject}" to Zoë Muster ${suffix} <${String(student.email_address)}> queued` })).toBeVisible();

  // A credit note of € 100,50 on it.
  await page.getByRole('button', { name: 'Create Credit Note' }).click();
  const ask = page.getByRole('dialog', { name: 'Create Credit Note' });
  await ask.getByLabel(/^Amount/).fill('100,50');
  await ask.getByLabel(/^Description/).fill('Semester abroad shortened');
  await ask.getByRole('button', { name: 'Create Credit Note' }).click();
  await expect(page).toHaveURL(/#\/invoice\/creditnote\/\d+$/);
  await expect(page.getByLabel('Number', { exact: true })).toHaveValue(`CN-${fee.number}`);

  // The Outbox has the invoice mail (queued, or failed: the e2e server has no SMTP server).
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  const mail = page.locator('table tbody tr').filter({ hasText: subject });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText(String(student.email_address));
  await expect(mail).toContainText(/Queued|Failed|Sending/);

  // The contract's amounts: 9.150,50 invoiced less the credit of 100,50; nothing planned any more.
  await page.goto(`/#/contract/${contractId}`);
  await expect(page.getByLabel(/^Invoiced amount/)).toHaveValue('€ 9.050,00');
  await expect(page.getByLabel(/^Amount to be paid/)).toHaveValue('€ 9.050,00');
  await expect(page.getByLabel(/^Paid amount/)).toHaveValue('€ 0,00');
  await expect(page.getByLabel(/^Planned amount/)).toHaveValue('€ 0,00');
});
