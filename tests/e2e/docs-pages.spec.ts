// The public pages a newcomer reads, where the walk-through found them wanting: the API reference says
// how to get a key and links to the keys page; at 390 px it never scrolls sideways, operations open or
// not; the error codes page has the site's header, keeps code as code, shows an example problem body
// for every code and explains its terms; the 404 page is the site's own, with a way home. Axe checks
// each page.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ERROR_CODE_NAMES } from '../../lib/contract/errors';
import { ADMIN, DEMO_PASSWORD, expectAxeClean, saveScreenshot } from './support/app';

async function rendered(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Metrics API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

// Each test opens its own page and depends on no other: they run on whichever workers are free, so the
// slow ones (the whole API reference rendered and checked) do not run one after another.
test.describe.configure({ mode: 'parallel' });

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

for (const width of [390, 1280] as const) {
  test(`error codes at ${width} px: the site's header, code as code, an example per code, plain words; axe-clean`, async ({ page, baseURL }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/docs/errors');
    const site = page.getByRole('navigation', { name: 'Site' });
    await expect(site.getByRole('link', { name: 'Metrics API' })).toHaveAttribute('href', '/');
    await expect(site.getByRole('link', { name: 'API reference' })).toBeVisible();
    await expect(site.getByRole('link', { name: 'Error codes' })).toHaveAttribute('aria-current', 'page');
    for (const code of ERROR_CODE_NAMES) {
      const section = page.locator(`section#${code}`);
      const example = JSON.parse((await section.getByRole('figure', { name: 'Example' }).locator('pre').textContent())!) as { type: string; code: string; status: number };
      expect(example).toMatchObject({ type: `${baseURL}/docs/errors#${code}`, code });
    }
    // Backticks in the registry's wording are code on the page, not stripped.
    await expect(page.locator('section#validation_failed p code', { hasText: 'errors[]' })).toBeVisible();
    await expect(page.locator('section#rate_limited p code', { hasText: 'Retry-After' })).toBeVisible();
    // A refused key is told what to do, whatever the reason it was refused.
    await expect(page.locator('section#unauthorized > p')).toHaveText(
      'The API key is missing, malformed, unknown, revoked or expired (a rotated key stops when its overlap ends), or it was sent somewhere other than the Authorization: Bearer header. What to do: send the key as Authorization: Bearer <key>; if it was rotated, use the key that replaced it; if it was revoked or lost, ask an organisation admin for a new one, made in Settings → API keys (/settings/api-keys).',
    );
    // Terms a customer would not know are explained in plain words.
    const main = page.getByRole('main');
    await expect(main).toContainText('the standard format for HTTP API errors');
    await expect(main).toContainText('an invisible control character, such as a tab or a line break');
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, `errors-${width}`, { fullPage: true });
  });
}

for (const width of [390, 1280] as const) {
  test(`the 404 page at ${width} px is the site's own: 404, a heading, a way home; axe-clean`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const response = await page.goto('/no-such-page');
    expect(response!.status()).toBe(404);
    await expect(page).toHaveTitle('Page not found · Metrics API');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByRole('main').getByRole('link', { name: 'Go to the front page' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, `not-found-${width}`, { fullPage: true });
    await page.getByRole('main').getByRole('link', { name: 'Go to the front page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}
