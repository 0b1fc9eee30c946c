import { chromium } from '@playwright/test';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-dev-shm-usage','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run'] });
const p = await b.newPage({ viewport: { width: 1440, height: 900 } });
const base = 'http://127.0.0.1:3300';
await p.goto(base + '/#/login');
await p.getByLabel('Username').fill('admin');
await p.getByLabel('Password').fill('tour-admin-password-123');
await p.getByRole('button', { name: 'Login' }).click();
await p.getByRole('button', { name: 'Logout' }).waitFor();
const pages = process.argv.slice(2);
for (const [i, path] of pages.entries()) {
  await p.goto(base + '/#' + path);
  await p.waitForTimeout(1800);
  await p.screenshot({ path: `/tmp/tour-${i}.png`, fullPage: false });
}
await b.close();
