import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;
export const ADMIN_PASSWORD = 'e2e-admin-password-123';

// The system Chromium (Debian's package); Playwright never downloads a browser here.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath,
      args: [
        ...(isRoot ? ['--no-sandbox'] : []),
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // The built app on a fresh embedded PostgreSQL (see server.mjs).
    command: 'node server.mjs',
    url: `${baseURL}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // Email settings, so mail actions queue their mails (decision 039 refuses them without); nothing listens on
    // that port, so the mails wait and then fail, which the journeys expect.
    env: { PORT: String(port), ADMIN_PASSWORD, LOG_LEVEL: 'error', SMTP_URL: 'smtp://127.0.0.1:2525?security=none&from=office@example.org' },
  },
});
