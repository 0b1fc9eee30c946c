import { expect, test } from '@playwright/test';
import { contractData, contractReferences, countryId, createRecord, login, studentData, uniqueSuffix } from './helpers.js';

/**
 * Issue 12 point 5: a bank-info request sent from the contract screen is a row of the Outbox at once (queued,
 * or failed without an SMTP server: the e2e server has none), addressed to the student, and the contract's
 * E-mails tab lists it.
 */
test('sending a bank-info request from the contract screen shows the mail in the Outbox', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const student = { ...studentData(suffix, await countryId(request, 'Germany'), 'Łukasz'), email_address: `lukasz.${suffix}@example.org` };
  const studentId = await createRecord(request, 'students', student);
  const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `MAIL-${suffix}`));

  await login(page);
  await page.goto(`/#/contract/${contractId}`);
  const applicationNumber = await page.getByLabel(/^Application Number/).inputValue();
  expect(applicationNumber).not.toBe('');
  await page.getByRole('button', { name: 'Send bank info request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send bank info request' });
  await expect(dialog).toContainText("the e-mail goes to the student's address");
  await dialog.getByRole('button', { name: 'Yes' }).click();
  const subject = `Your bank details for contract ${applicationNumber}`;
  await expect(page.getByRole('status').filter({ hasText: `E-mail "${subject}" to Łukasz Muster ${suffix} <${String(student.email_address)}> queued` })).toBeVisible();

  // The contract's own list of mails.
  await page.getByRole('tab', { name: 'E-mails' }).click();
  const mails = page.getByRole('table', { name: 'E-mails' });
  await expect(mails.getByRole('row', { name: new RegExp(subject) }).getByRole('cell').first()).toHaveText(`Łukasz Muster ${suffix} <${String(student.email_address)}>`);

  // The Outbox.
  await page.getByRole('button', { name: 'Manage' }).click();
  await page.getByRole('menuitem', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  const row = page.locator('table tbody tr').filter({ hasText: subject });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(String(student.email_address));
  await expect(row).toContainText(/Queued|Failed/);
});
