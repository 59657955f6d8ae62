// Browser tests on Debian's Chromium (/usr/bin/chromium; no browser is ever downloaded). The global
// setup creates a fresh database, seeds it, builds the app into .next-e2e and starts it on port 3105.
import { defineConfig } from '@playwright/test';

/** E2E_PORT lets two checkouts run their browser tests side by side. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3105);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  // One server and one database: tests that sign in and mint keys run one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results/e2e',
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
