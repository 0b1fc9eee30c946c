import { expect, test, type Page } from '@playwright/test';
import { STATUS_ACTIONS } from '@app/contracts';
import { chooseOption, contractReferences, login, uniqueSuffix, VALID_BIC, VALID_IBAN } from './helpers.js';

/** No status change is a button of its own: they are the items of the one Change status menu, which stays in place. */
const STATUS_LABELS = new RegExp(`^(${STATUS_ACTIONS.map((a) => a.label).join('|')})$`);
const statusMenu = (page: Page) => page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Change status' });

/** The status changes the menu offers now, in order; the menu is closed again. */
async function expectStatusActions(page: Page, labels: string[]) {
  await expect(page.getByRole('group', { name: 'Actions' }).getByRole('button').filter({ hasText: STATUS_LABELS })).toHaveCount(0);
  await statusMenu(page).click();
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(labels);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
}

test('a student with bank details and a contract are created through the screens; the contract walks through its statuses', async ({
  page,
  request,
}) => {
  const suffix = uniqueSuffix();
  const lastName = `Journey ${suffix}`;
  const refs = await contractReferences(request, suffix);

  await login(page);
  let studentUrl = '';

  await test.step('create the student with bank details', async () => {
    await page.getByRole('button', { name: 'Students' }).click();
    await page.getByRole('menuitem', { name: 'Students Overview' }).click();
    await expect(page.getByRole('heading', { name: 'Students' })).toBeVisible();
    await page.getByRole('button', { name: 'New' }).click();
    await expect(page).toHaveURL(/#\/student\/new$/);

    await page.getByLabel(/^First Name/).fill('Erika');
    await page.getByLabel(/^Last Name/).fill(lastName);
    await page.getByLabel(/^Birth Date/).fill('15-03-2001');
    await page.getByLabel(/^Birth Date/).press('Escape');
    await page.getByLabel(/^Email Address/).fill(`erika.${suffix}@example.org`);
    await page.getByLabel(/^Street Address/).fill('Hauptstraße 1');
    await page.getByLabel(/^Postal Code/).fill('10115');
    await page.getByLabel(/^City/).fill('Berlin');
    await chooseOption(page, page.getByRole('combobox', { name: /^Country/ }), 'Germany');
    await chooseOption(page, page.getByRole('combobox', { name: 'Gender' }), 'Female');

    // A wrong IBAN is refused on its field before anything is sent.
    await page.getByLabel(/^IBAN/).fill('DE00 3704 0044 0532 0130 00');
    await expect(page.getByText('IBAN is not a valid IBAN')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await page.getByLabel(/^IBAN/).fill(VALID_IBAN);
    await page.getByLabel(/^BIC/).fill(VALID_BIC);
    await page.getByLabel('Payment holder first name').fill('Erika');
    await page.getByLabel('Payment holder last name').fill(lastName);
    await page.getByLabel('Bank name').fill('Commerzbank');
    await expect(page.getByText('IBAN is not a valid IBAN')).toHaveCount(0);

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/#\/student\/\d+$/);
    studentUrl = page.url();
    await expect(page.getByLabel(/^IBAN/)).toHaveValue('DE89 3704 0044 0532 0130 00');
    await expect(page.getByLabel(/^IBAN/)).not.toBeEditable();
    await expect(page.getByLabel(/^BIC/)).toHaveValue(VALID_BIC);
    await expect(page.getByRole('region', { name: 'Contracts of the student' })).toContainText('No contracts yet.');
  });

  await test.step('create a contract for the student; the start date fills the end date', async () => {
    await page.getByRole('region', { name: 'Contracts of the student' }).getByRole('button', { name: 'New contract' }).click();
    await expect(page).toHaveURL(/#\/contract\/new\?student_id=\d+$/);
    await expect(page.getByRole('combobox', { name: /^Student/ })).toHaveValue(`${lastName}, Erika`);
    await expect(page.getByRole('checkbox', { name: 'Active', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Bank info required' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Instalments' })).not.toBeChecked();

    await chooseOption(page, page.getByRole('combobox', { name: /^Scholarship/ }), 'EU-FULL');
    await chooseOption(page, page.getByRole('combobox', { name: /^Program/ }), refs.programChoice);
    await chooseOption(page, page.getByRole('combobox', { name: /^University Y1/ }), refs.universityChoice);
    await page.getByLabel(/^Intake/).fill('2025');
    await page.getByRole('combobox', { name: /^Round/ }).click();
    await page.getByRole('option', { name: '2', exact: true }).click();
    await page.getByLabel(/^Application ID/).fill(`APP-${suffix}`);

    await expect(page.getByLabel(/^End date/)).toHaveValue('');
    await page.getByLabel(/^Start date/).fill('01-09-2025');
    await page.getByLabel(/^Start date/).press('Escape');
    await expect(page.getByLabel(/^End date/)).toHaveValue('31-08-2027');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/#\/contract\/\d+$/);
    await expect(page.getByLabel(/^Application Number/)).toHaveValue(/^A\d{6}$/);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Offer accepted');
    await expect(page.getByLabel(/^Start date/)).toHaveValue('01-09-2025');
    await expect(page.getByLabel(/^End date/)).toHaveValue('31-08-2027');
    await expect(page.getByRole('tab', { name: 'Documents (0)' })).toBeVisible();
  });

  await test.step('walk the contract through its statuses, seeing only the valid actions each time', async () => {
    const status = page.getByLabel('Status', { exact: true });
    const steps: Array<{ click: string; status: string; actions: string[] }> = [
      { click: 'Reject Offer', status: 'Offer rejected', actions: ['Accept Offer', 'Enrole', 'Drop-out'] },
      { click: 'Accept Offer', status: 'Offer accepted', actions: ['Reject Offer', 'Enrole'] },
      { click: 'Enrole', status: 'Enrolled', actions: ['Reject Offer', 'Take a break', 'Graduate', 'Drop-out'] },
      { click: 'Take a break', status: 'On a break', actions: ['Enrole', 'Drop-out'] },
      { click: 'Enrole', status: 'Enrolled', actions: ['Reject Offer', 'Take a break', 'Graduate', 'Drop-out'] },
      { click: 'Graduate', status: 'Graduated', actions: ['Drop-out'] },
    ];
    await expectStatusActions(page, ['Reject Offer', 'Enrole']);
    for (const step of steps) {
      await statusMenu(page).click();
      await page.getByRole('menu').getByRole('menuitem', { name: step.click, exact: true }).click();
      await expect(status).toHaveValue(step.status);
      // Each change says so in a green alert naming the contract.
      await expect(page.getByRole('status').filter({ hasText: `${step.click}: done for Contract` }).first()).toBeVisible();
      await expectStatusActions(page, step.actions);
    }
    // The status date is today's.
    await expect(page.getByLabel(/^Status date/)).not.toHaveValue('');
  });

  await test.step('the contract links to its student, and the student back to the contract', async () => {
    const applicationNumber = await page.getByLabel(/^Application Number/).inputValue();
    await page.getByRole('region', { name: 'Contract information' }).getByRole('link', { name: `Erika ${lastName}` }).click();
    expect(page.url()).toBe(studentUrl);
    await expect(page.getByLabel(/^Last Name/)).toHaveValue(lastName);
    const contracts = page.getByRole('region', { name: 'Contracts of the student' });
    await expect(contracts.getByRole('row', { name: new RegExp(applicationNumber) })).toContainText('Graduated');
    // The first contract became the student's active one.
    await page.getByRole('region', { name: 'Student information' }).getByRole('link', { name: applicationNumber }).click();
    await expect(page).toHaveURL(/#\/contract\/\d+$/);
    await expect(page.getByLabel(/^Application Number/)).toHaveValue(applicationNumber);
  });
});
