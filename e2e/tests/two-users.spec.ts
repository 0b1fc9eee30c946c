import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, contractData, contractReferences, countryId, createAccount, createRecord, login, logout, studentData, uniqueSuffix } from './helpers.js';

/**
 * Decision 060: the app used by two staff users at once — two tabs of one browser (one cookie), two browsers (two
 * sessions). Whatever the other does in between, a screen never acts in someone else's name, never loses what was
 * typed without saying so, and never deletes a version of a record it did not show.
 */

/** A record as the server has it now, read with an API session of its own (not the browser's cookie). */
async function readRecord(request: APIRequestContext, path: string, id: number) {
  const token = await apiToken(request);
  const res = await request.get(`/api/v1.0/${path}/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status(), body: (res.ok() ? await res.json() : {}) as Record<string, unknown> };
}

test.describe('two users at once', () => {
  test('a tab whose browser has since logged in as someone else (another tab) is refused: the typed value stays, nothing is saved', async ({ context, request }) => {
    const suffix = uniqueSuffix();
    const programId = await createRecord(request, 'programs', { name: `E2E Program ${suffix}`, shortname: `P-${suffix}` });
    const other = await createAccount(request, suffix, 2, 'Yara');
    const otherName = `Yara Role2 ${suffix}`;

    // Tab A: the admin, editing the program's name.
    const tabA = await context.newPage();
    await login(tabA);
    await tabA.goto(`/#/program/${programId}?mode=edit`);
    const name = tabA.getByRole('textbox', { name: 'Name', exact: true });
    await expect(name).toHaveValue(`E2E Program ${suffix}`);
    await name.fill(`E2E Program ${suffix} (typed in tab A)`);

    // Tab B of the same browser (the same cookie): logout, and login as another user.
    const tabB = await context.newPage();
    await tabB.goto('/#/');
    await logout(tabB);
    await login(tabB, other);
    await expect(tabB.getByText(new RegExp(`^${otherName} \\(`))).toBeVisible();

    // Tab A still shows the admin: its Save would be made in Yara's name, and is refused.
    await tabA.getByRole('button', { name: 'Save' }).click();
    // The red toast (it has a Dismiss button).
    const toast = tabA.getByRole('alert').filter({ hasText: 'You are logged in as', has: tabA.getByRole('button', { name: 'Dismiss' }) });
    await expect(toast).toHaveText(
      `You are logged in as ${otherName} now (in another tab or window of this browser), not as the user this page shows. Nothing was changed: reload the page to go on as ${otherName}.`,
    );
    await expect(tabA).toHaveURL(/mode=edit$/);
    await expect(name).toHaveValue(`E2E Program ${suffix} (typed in tab A)`);
    await expect(tabA.getByRole('button', { name: 'Save' })).toBeVisible();

    // Nothing was saved: the server has the name as it was.
    const stored = await readRecord(request, 'programs', programId);
    expect(stored.status).toBe(200);
    expect(stored.body.name).toBe(`E2E Program ${suffix}`);
    // And Tab B (Yara) reads it so too.
    await tabB.goto(`/#/program/${programId}`);
    await expect(tabB.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`E2E Program ${suffix}`);
  });

  test('a planned invoice numbered by someone else while it is edited: the typed text stays, a yellow box says so and links to the numbered invoice', async ({ page, browser, request }) => {
    const suffix = uniqueSuffix();
    const refs = await contractReferences(request, suffix);
    const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
    const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `TWO-${suffix}`));
    const invoiceId = await createRecord(request, 'invoices', {
      contract_id: contractId,
      year: 1,
      semester: 0,
      description: 'Participation fee year 1',
      amount: 1250.5,
      planned_date: '2026-03-01',
      document_type_id: 5,
    });
    const other = await createAccount(request, suffix, 3, 'Yara');
    const otherName = `Yara Role3 ${suffix}`;

    // A: the admin, typing in the planned invoice's description.
    await login(page);
    await page.goto(`/#/invoice/planned/${invoiceId}?mode=edit`);
    const description = page.getByLabel(/^Description/);
    await expect(description).toHaveValue('Participation fee year 1');
    const typed = 'Participation fee year 1 (with the late fee agreed on the phone)';
    await description.fill(typed);

    // B, in a browser of its own: Yara numbers it (Create PDF).
    const contextB = await browser.newContext();
    try {
      const pageB = await contextB.newPage();
      await login(pageB, other);
      await pageB.goto(`/#/invoice/planned/${invoiceId}`);
      await expect(pageB.getByLabel(/^Description/)).toHaveValue('Participation fee year 1');
      await pageB.getByRole('button', { name: 'Create PDF' }).click();
      await pageB.getByRole('dialog', { name: 'Create PDF' }).getByRole('button', { name: 'Yes' }).click();
      await expect(pageB).toHaveURL(new RegExp(`#/invoice/numbered/${invoiceId}`));
    } finally {
      await contextB.close();
    }
    const numbered = await readRecord(request, 'invoices', invoiceId);
    const number = String(numbered.body.number);
    expect(number).toMatch(/^\d{4}-\d{5}$/);

    // A saves: refused, and the screen stays with the typed text.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This Invoice was changed by' })).toHaveText(
      new RegExp(`^This Invoice was changed by ${otherName} at \\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2} after you opened it\\.`),
    );
    const notice = page.getByRole('status', { name: 'This Planned Invoice is now a Numbered Invoice' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('your changes are not saved');
    await expect(page).toHaveURL(new RegExp(`#/invoice/planned/${invoiceId}\\?mode=edit$`));
    await expect(description).toHaveValue(typed);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await expect(save).toHaveAccessibleDescription(/Description can no longer be changed/);
    // Nothing of A's was saved.
    expect((await readRecord(request, 'invoices', invoiceId)).body.description).toBe('Participation fee year 1');

    // The link goes to the numbered invoice, after the question about the unsaved text.
    await notice.getByRole('link', { name: 'Open the Numbered Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page).toHaveURL(new RegExp(`#/invoice/numbered/${invoiceId}\\?mode=edit$`));
    // It shows the numbered invoice as it is: its number, and its description as stored (the typed text was left).
    await expect(page.getByLabel('Number', { exact: true })).toHaveValue(number);
    await expect(page.getByLabel(/^Description/)).toHaveValue('Participation fee year 1');
  });

  test('deleting a record someone else changed since it was opened is refused: it stays, and the screen shows the change', async ({ page, browser, request }) => {
    const suffix = uniqueSuffix();
    const programId = await createRecord(request, 'programs', { name: `E2E Program ${suffix}`, shortname: `P-${suffix}` });
    const other = await createAccount(request, suffix, 2, 'Yara');
    const otherName = `Yara Role2 ${suffix}`;

    // A: the admin, the program open read-only.
    await login(page);
    await page.goto(`/#/program/${programId}`);
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await expect(name).toHaveValue(`E2E Program ${suffix}`);
    await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();

    // B, in a browser of its own: Yara renames it.
    const contextB = await browser.newContext();
    try {
      const pageB = await contextB.newPage();
      await login(pageB, other);
      await pageB.goto(`/#/program/${programId}?mode=edit`);
      const nameB = pageB.getByRole('textbox', { name: 'Name', exact: true });
      await expect(nameB).toHaveValue(`E2E Program ${suffix}`);
      await nameB.fill(`E2E Program ${suffix} (renamed by B)`);
      await pageB.getByRole('button', { name: 'Save' }).click();
      await expect(pageB.getByRole('button', { name: 'Edit' })).toBeVisible();
      await expect(nameB).toHaveValue(`E2E Program ${suffix} (renamed by B)`);
    } finally {
      await contextB.close();
    }

    // A deletes the version it shows: refused.
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Are you sure you want to delete this Program?')).toBeVisible();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This Program was changed by' })).toHaveText(
      new RegExp(`^This Program was changed by ${otherName} at \\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2} after you opened it\\. Reload it to see the changes\\.`),
    );
    // The record is still there, and A's screen shows it as it is now.
    await expect(page).toHaveURL(new RegExp(`#/program/${programId}$`));
    await expect(name).toHaveValue(`E2E Program ${suffix} (renamed by B)`);
    const stored = await readRecord(request, 'programs', programId);
    expect(stored.status).toBe(200);
    expect(stored.body.name).toBe(`E2E Program ${suffix} (renamed by B)`);
  });
});
