// Browser tests on Debian's Chromium headless shell (/usr/bin/chromium-headless-shell, the package
// chromium-headless-shell: Chromium's own headless build, what Playwright runs for headless tests by
// default; no browser is ever downloaded). E2E_CHROMIUM=/usr/bin/chromium runs the full browser instead
// (it needs two fifths more time: round 14 in docs/performance). The global
// setup seeds a template database and makes sure the tests' production build (.next-test) is current;
// each worker then clones the database and starts a server of its own on a free port
// (tests/e2e/support/fixtures.ts), so workers never share sign-ins, keys or throttles.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  // A spec file's tests run in order in one worker; files are spread over the workers. One worker keeps
  // half a core busy (the rest is waiting on pages, the server and the database): four fill two cores.
  workers: 4,
  fullyParallel: false,
  forbidOnly: true,
  // A test that fails runs once more, recording a trace of that second run to diagnose it with
  // (`npx playwright show-trace test-results/e2e/…/trace.zip`); recording one for every test made the
  // stage two fifths slower. A test that passes only the second time still fails the run.
  retries: 1,
  failOnFlakyTests: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results/e2e',
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
