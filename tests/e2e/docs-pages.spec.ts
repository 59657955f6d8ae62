// The public pages a newcomer reads, where the walk-through found them wanting: the API reference says
// how to get a key and links to the keys page; at 390 px it never scrolls sideways, operations open or
// not.
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, expectAxeClean, saveScreenshot } from './support/app';

async function rendered(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Metrics API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test('the API reference says how to get a key, and its link leads to the keys page through the sign-in', async ({ page }, testInfo) => {
  await page.goto('/docs/api');
  await rendered(page);
  const link = page.getByRole('link', { name: 'Settings → API keys' }).first();
  await expect(link).toHaveAttribute('href', '/settings/api-keys');
  await expect(page.getByText('an admin of your organisation creates one in the dashboard', { exact: false }).first()).toBeVisible();
  // As first rendered, the whole page is axe-clean (api-reference.spec.ts: Scalar's own findings come later).
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'api-reference-get-a-key');
  await link.click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fapi-keys$/);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('heading', { name: 'Create a key' })).toBeVisible();
});

test('at 390 px the API reference never scrolls sideways, through every operation and with one opened', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/docs/api');
  await rendered(page);
  // Scalar's bar at the top names the operation in view; a long name once widened the page to 505 px.
  const overview = page.locator('section.section[id$="/GET/ads/overview"]');
  for (let step = 0; step < 400 && (await overview.count()) === 0; step += 1) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(60);
    expect(await pageWidth(page), `page width after ${step + 1} screens`).toBeLessThanOrEqual(390);
  }
  await overview.scrollIntoViewIfNeeded();
  await overview.getByRole('button', { name: /^200/ }).first().click();
  await expect(overview.getByRole('button', { name: /^200/ }).first()).toHaveAttribute('aria-expanded', 'true');
  expect(await pageWidth(page), 'with the operation’s answer open').toBeLessThanOrEqual(390);
  await saveScreenshot(page, testInfo, 'api-reference-operation-390');
  for (let step = 0; step < 60; step += 1) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(60);
    expect(await pageWidth(page), `page width ${step + 1} screens further`).toBeLessThanOrEqual(390);
  }
});
