import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  admin,
  contractData,
  contractReferences,
  countryId,
  createRecord,
  login,
  logout,
  studentData,
  uniqueSuffix,
} from './helpers.js';

// One axe run over a full screen takes seconds on a busy machine, and these tests measure many screens each.
test.describe.configure({ timeout: 180_000 });

/** WCAG 2.1 A and AA plus axe's best practices: every rule axe has for them, none switched off. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Runs axe on the page as it is and fails (softly, so one run reports every screen) on each serious or critical
 * violation, naming rule, impact and the elements, so the cause shows in the test output.
 */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const found = grave.map(
    (v) =>
      `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.help}\n` +
      v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`).join('\n'),
  );
  expect.soft(found, `${screen}: axe found serious or critical violations:\n${found.join('\n')}`).toEqual([]);
}

/** Waits until an overview has drawn its rows (the range text is set and nothing is loading). */
async function overviewLoaded(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('range-text')).not.toBeEmpty();
  await expect(page.getByRole('table', { name: title })).toHaveAttribute('aria-busy', 'false');
}

/** Dialogs, drawers and menus are measured once their opening transition is over: half-faded text fails contrast. */
async function opened(popup: Locator): Promise<void> {
  await expect(popup).toBeVisible();
  // Transitions only: a spinner's endless animation never finishes.
  const page = popup.page();
  const running = () => page.evaluate<number>('document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).length');
  // Mantine starts a popup's transition a frame or a timer after the popup is in the page: "none running" right
  // then was once followed by axe reading the overlay mid-fade (contrast 1.07). None may run twice, 250 ms apart.
  await expect
    .poll(async () => {
      const before = await running();
      await page.waitForTimeout(250);
      return before + (await running());
    })
    .toBe(0);
}

test('the login page has no serious or critical axe violations', async ({ page }) => {
  await page.goto('/#/login');
  // Outside the app shell too, the screen's content is in a main landmark (axe rates its absence moderate only).
  await expect(page.getByRole('main').getByRole('button', { name: 'Login' })).toBeDisabled();
  await expectAccessible(page, 'login page (empty)');
  await page.getByLabel('Username').fill('somebody');
  await page.getByLabel('Password').fill('something');
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  await expectAccessible(page, 'login page (filled)');
});

test('the home page, its menus and a Coming soon page have no serious or critical axe violations', async ({ page }) => {
  await login(page);
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  await expectAccessible(page, 'home');

  await page.getByRole('button', { name: 'Manage' }).click();
  await expect(page.getByRole('menuitem', { name: 'Countries' })).toBeVisible();
  await opened(page.getByRole('menu'));
  await expectAccessible(page, 'home with the Manage menu open');
  await page.keyboard.press('Escape');

  await page.goto('/#/invoices/planned');
  await expect(page.getByRole('heading', { name: 'Planned Invoices' })).toBeVisible();
  await expectAccessible(page, 'Coming soon (planned invoices)');
});

test('every overview has no serious or critical axe violations', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  // Rows on every overview, so cells, links, edit buttons and checkboxes are measured too.
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  await createRecord(request, 'contracts', contractData(refs, studentId, `A11Y-${suffix}`));
  // 2000–2089: the milestones journey keeps to intakes 2091 and 2092 and quick-filters on "209".
  const intake = 2000 + Math.floor(Math.random() * 90);
  await createRecord(request, 'milestones', { intake, scholarship_id: 1, year: 1, milestone_date: '2025-10-01', milestone_amount: 500 });
  await createRecord(request, 'studentfees', { intake, scholarship_id: 2, registration_fee_amount: 100 });

  await login(page);
  const overviews: Array<[path: string, title: string]> = [
    ['/countries', 'Countries'],
    ['/programs', 'Programs'],
    ['/universities', 'Universities'],
    ['/studentfees', 'Student Fees'],
    ['/milestones', 'Milestones'],
    ['/users', 'Users'],
    ['/events', 'Log Events'],
    ['/students', 'Students'],
    ['/contracts', 'Contracts'],
  ];
  for (const [path, title] of overviews) {
    await test.step(title, async () => {
      await page.goto(`/#${path}`);
      await overviewLoaded(page, title);
      await expect(page.getByRole('table', { name: title }).locator('tbody tr').first()).not.toContainText('No Data Available');
      await expectAccessible(page, `${title} overview`);
    });
  }

  await test.step('Contracts with the advanced filter and a selection', async () => {
    await page.getByRole('checkbox', { name: 'Advanced' }).check();
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await expect(page.getByRole('button', { name: 'Batch', exact: true })).toBeVisible();
    await expectAccessible(page, 'Contracts overview with advanced filter and selection');
  });
});

test('a student in read and edit mode and its delete confirmation have no serious or critical axe violations', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  await createRecord(request, 'contracts', contractData(refs, studentId, `A11Y-${suffix}`));

  await login(page);
  await page.goto(`/#/student/${studentId}`);
  await expect(page.getByLabel(/^Last Name/)).toHaveValue(`Muster ${suffix}`);
  await expect(page.getByRole('region', { name: 'Contracts of the student' }).getByRole('row')).not.toHaveCount(0);
  await expectAccessible(page, 'student (read)');

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel(/^Last Name/)).toBeEditable();
  await expectAccessible(page, 'student (edit)');

  // Field error messages and the disabled Save button.
  await page.getByLabel(/^Email Address/).fill('not-an-e-mail');
  await expect(page.getByText('Email address must be a valid e-mail address')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectAccessible(page, 'student (edit, with a field error)');

  // The green success alert.
  await page.getByLabel(/^Email Address/).fill(`a11y.${suffix}@example.org`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expectAccessible(page, 'student (saved, with the success alert)');

  // The History panel, open, with the update just saved and its change old → new.
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('cell', { name: `a11y.${suffix}@example.org`, exact: true })).toBeVisible();
  await opened(page.getByRole('region', { name: 'History' }));
  await expectAccessible(page, 'student History (open)');

  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Student' });
  await opened(dialog);
  await expectAccessible(page, 'student delete confirmation');
  await dialog.getByRole('button', { name: 'No' }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto('/#/student/new');
  await expect(page.getByRole('heading', { name: 'New Student' })).toBeVisible();
  await expectAccessible(page, 'new student');
});

test('a contract in read and edit mode, its Documents tab, Bulk Edit, the batch dialog and My batch runs have no serious or critical axe violations', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `A11Y-${suffix}`));
  // A document announced but not uploaded yet: its row has a disabled Download button.
  await createRecord(request, 'contract_files', { contract_id: contractId, filename: `a11y-${suffix}.pdf`, description: 'Pending' });

  await login(page);
  await page.goto(`/#/contract/${contractId}`);
  await expect(page.getByLabel(/^Application Number/)).toHaveValue(/^A\d{6}$/);
  await expect(page.getByRole('region', { name: 'Contract information' })).toBeVisible();
  await expectAccessible(page, 'contract (read)');

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel(/^Intake/)).toBeEditable();
  await expectAccessible(page, 'contract (edit)');
  await page.getByRole('button', { name: 'Undo Edit' }).click();

  await page.getByRole('tab', { name: 'Documents (1)' }).click();
  await expect(page.getByRole('table', { name: 'Documents' })).toContainText(`a11y-${suffix}.pdf`);
  await expectAccessible(page, 'contract Documents tab');

  await page.goto('/#/contracts');
  await overviewLoaded(page, 'Contracts');
  await page.getByLabel('Quick filter').fill(suffix);
  await page.getByLabel('Quick filter').press('Enter');
  await expect(page.getByTestId('range-text')).toHaveText('1-1 of 1');
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  await page.getByRole('button', { name: 'Batch', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Bulk Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk Edit' });
  await opened(dialog);
  await expectAccessible(page, 'contract Bulk Edit dialog');

  await dialog.getByLabel(/^Contract sent date/).fill('15-05-2025');
  await dialog.getByLabel(/^Contract sent date/).press('Escape');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('batch-status')).toHaveText('Finished: 1 of 1 done, 0 failed');
  await expectAccessible(page, 'the batch dialog, finished');
  await page.getByTestId('batch-status').locator('xpath=ancestor::*[@role="dialog"]').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('batch-status')).toHaveCount(0);
  await page.getByRole('button', { name: 'Batch runs' }).click();
  const runs = page.getByRole('dialog', { name: 'My batch runs' });
  await opened(runs);
  await expect(runs.getByRole('table', { name: 'My batch runs' })).toBeVisible();
  await expectAccessible(page, 'my batch runs');
});

test('at 390 px the top bar fits, and a burger opens the navigation with the Students menu and Logout', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // As login() does, but Logout is in the drawer here.
  await page.goto('/#/login');
  await page.getByLabel('Username').fill(admin.username);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();

  // The root element's client width is the viewport's.
  const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
  expect(overflow, 'the page is wider than the screen').toBeLessThanOrEqual(0);
  // The menus are behind the burger, not squeezed off the right edge.
  await expect(page.getByRole('button', { name: 'Students' })).toBeHidden();

  const burger = page.getByRole('button', { name: 'Open navigation' });
  await burger.click();
  const navigation = page.getByRole('dialog', { name: 'Navigation' });
  await opened(navigation);
  await expect(navigation).toContainText(/\(Developer\)/);
  await expect(navigation).toContainText('v2.0.51');
  await expectAccessible(page, 'navigation drawer at 390 px');

  const students = navigation.getByRole('group', { name: 'Students' });
  await expect(students.getByRole('link')).toHaveText(['Students Overview', 'Contracts Overview']);
  await students.getByRole('link', { name: 'Contracts Overview' }).click();
  await expect(navigation).toHaveCount(0);
  await overviewLoaded(page, 'Contracts');

  await burger.click();
  await opened(navigation);
  await students.getByRole('link', { name: 'Students Overview' }).click();
  // The drawer has its own header while it closes: measure the top bar once it is gone.
  await expect(navigation).toHaveCount(0);
  await overviewLoaded(page, 'Students');
  // A wide table scrolls sideways in its own box (decision 042): neither the page nor the top bar does.
  const header = page.locator('header');
  expect(await header.evaluate((h) => h.scrollWidth - h.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth), 'the overview is wider than the screen').toBeLessThanOrEqual(0);
  const table = page.getByTestId('overview-scroll');
  expect(await table.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeGreaterThan(0);

  await burger.click();
  await opened(navigation);
  await logout(page);
});

test('at 390 px a student with a contract and the contract itself fit the screen: their tables scroll in their own box', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const refs = await contractReferences(request, suffix);
  const studentId = await createRecord(request, 'students', studentData(suffix, await countryId(request, 'Germany')));
  const contractId = await createRecord(request, 'contracts', contractData(refs, studentId, `PHONE-${suffix}`));
  await createRecord(request, 'contract_files', { contract_id: contractId, filename: `phone-${suffix}.pdf`, description: 'Pending' });
  // Logged in at the default width (Logout is in the drawer at 390 px), then the phone.
  await login(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const pageOverflow = () => page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);

  await page.goto(`/#/student/${studentId}`);
  await expect(page.getByRole('table', { name: 'Contracts' }).getByRole('link')).toHaveCount(1);
  expect(await pageOverflow(), 'the student screen is wider than the phone').toBeLessThanOrEqual(0);

  await page.goto(`/#/contract/${contractId}`);
  await page.getByRole('tab', { name: /^Documents/ }).click();
  await expect(page.getByRole('table', { name: 'Documents' })).toContainText(`phone-${suffix}.pdf`);
  expect(await pageOverflow(), 'the contract screen is wider than the phone').toBeLessThanOrEqual(0);
});

test('from 1200 px the whole top bar fits in one row without a burger', async ({ page }) => {
  // Mantine's lg breakpoint: the narrowest width that shows the menus in the bar.
  await page.setViewportSize({ width: 1200, height: 800 });
  await login(page);
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeHidden();
  for (const menu of ['Manage', 'Students', 'Invoicing', 'Payments']) await expect(page.getByRole('button', { name: menu })).toBeVisible();
  await expect(page.getByTestId('session-user')).toBeVisible();
  await expect(page.getByText('v2.0.51')).toBeVisible();
  const header = page.locator('header');
  expect(await header.evaluate((h) => h.scrollWidth - h.clientWidth)).toBeLessThanOrEqual(0);
});
