import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

/** A student with a contract and its invoice of € 1.234,56, numbered through the API. */
async function numberedInvoice(request: APIRequestContext, firstName: string, mailName: string) {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const student = { ...studentData(suffix, await countryId(request, 'Germany'), firstName), email_address: `${mailName}.${suffix}@example.org` };
  const studentId = await createRecord(request, 'students', student);
  const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `PAY-${suffix}`));
  const invoiceId = await createRecord(request, 'invoices', {
    contract_id: contractId,
    year: 1,
    semester: 0,
    description: 'Participation fee year 1',
    amount: 1234.56,
    planned_date: '2026-03-01',
    document_type_id: 5,
  });
  const token = await apiToken(request);
  const numbered = await request.post(`/api/v1.0/invoices/${invoiceId}/create_pdf`, { data: { invoice_date: '2026-03-05' }, headers: { Authorization: `Bearer ${token}` } });
  expect(numbered.status(), await numbered.text()).toBe(200);
  return { student, contractId, invoiceId, invoiceNumber: ((await numbered.json()) as { number: string }).number };
}

/**
 * Issue 14: from a numbered invoice a new payment starts with its presets (the invoice row's button links to
 * `/invoicepayment/new?invoice_id=…`), is saved, the contract's amounts follow at once, and the confirmation
 * sent from the payment screen is a row of the Outbox.
 */
test('a payment of a numbered invoice: presets, created by Save and not by Enter, contract amounts, confirmation in the Outbox', async ({ page, request }) => {
  const { student, contractId, invoiceId, invoiceNumber } = await numberedInvoice(request, 'Zoë', 'zoe');

  await login(page);
  await page.goto(`/#/invoicepayment/new?invoice_id=${invoiceId}`);
  await expect(page.getByText(`Payment of invoice ${invoiceNumber}`)).toBeVisible();
  await expect(page.getByLabel(/^Amount Paid/)).toHaveValue('€ 1.234,56');
  await expect(page.getByRole('combobox', { name: /^Contract/ })).not.toHaveValue('');
  await page.getByLabel(/^Commission/).fill('0,07');
  await expect(page.getByLabel(/^Net Amount/)).toHaveValue('€ 1.234,49');
  await page.getByLabel(/^Payment Date/).fill('10-03-2026');
  // Enter confirms the date typed; it does not create the payment, its presets filled, with a number (decision 068).
  await page.getByLabel(/^Payment Date/).press('Enter');
  await expect(page.getByLabel(/^Payment Date/)).toHaveValue('10-03-2026');
  await page.getByLabel(/^Commission/).press('Enter');
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(/\/invoicepayment\/new/);
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText('P2026-');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Invoice Payment\s*P2026-\d{5}/);
  const paymentNumber = (await page.getByLabel(/^Payment ID/).inputValue()).trim();
  const paymentUrl = page.url();
  await expect(page.getByLabel(/^Net Amount/)).toHaveValue('€ 1.234,49');

  // The contract's amounts follow at once.
  await page.goto(`/#/contract/${contractId}`);
  await expect(page.getByLabel(/^Paid amount/)).toHaveValue('€ 1.234,56');
  await expect(page.getByLabel(/^Amount to be paid/)).toHaveValue('€ 0,00');

  // The confirmation from the payment screen, then the Outbox.
  await page.goto('/#/invoicepayments');
  await expect(page.locator('table tbody tr').filter({ hasText: paymentNumber })).toContainText('€ 1.234,49');
  await page.goto(paymentUrl);
  await page.getByRole('button', { name: 'Send Email' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  const subject = `Payment ${paymentNumber} received: € 1.234,56 for invoice ${invoiceNumber}`;
  await expect(page.getByRole('status').filter({ hasText: `E-mail "${subject}"` })).toBeVisible();
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  const row = page.locator('table tbody tr').filter({ hasText: subject });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(String(student.email_address));
});

/**
 * Decision 051: an amount typed as the screens show it (`1.000,00`) is that amount, and the next payment of the
 * same invoice, started from its row again, starts from what is still open, not from what the screen read before.
 */
test('a second payment of an invoice starts from what the first left open; an amount typed as shown is that amount', async ({ page, request }) => {
  const { contractId, invoiceNumber } = await numberedInvoice(request, 'Mia', 'mia');

  await login(page);
  const invoices = `/#/invoices/numbered?contract_id=${contractId}`;
  await page.goto(invoices);
  await page.getByRole('link', { name: `New payment for invoice ${invoiceNumber}` }).click();
  await expect(page.getByLabel(/^Amount Paid/)).toHaveValue('€ 1.234,56');
  await page.getByLabel(/^Amount Paid/).fill('1.000,00');
  await page.getByLabel(/^Payment Date/).fill('10-03-2026');
  await page.getByLabel(/^Payment Date/).press('Tab');
  await expect(page.getByLabel(/^Amount Paid/)).toHaveValue('€ 1.000,00');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Invoice Payment\s*P2026-\d{5}/);
  await expect(page.getByLabel(/^Amount Paid/)).toHaveValue('€ 1.000,00');

  // The same row's button again, in the same tab: what is open now.
  await page.goto(invoices);
  await page.getByRole('link', { name: `New payment for invoice ${invoiceNumber}` }).click();
  await expect(page.getByText(`Payment of invoice ${invoiceNumber}`)).toContainText('€ 234,56 open');
  await expect(page.getByLabel(/^Amount Paid/)).toHaveValue('€ 234,56');
});
