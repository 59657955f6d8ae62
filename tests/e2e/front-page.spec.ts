// The front page as a newcomer meets it: at phone, tablet and desktop widths, nothing on its load
// answers 400 or more (a Next.js prefetch of the OpenAPI route once did) and nothing is fetched from
// another origin; it is axe-clean, every link on it answers 200, it shows the MCP URL of this server
// (from APP_URL at start, not at build), and its favicon is served.
import type { Page, Response } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { expectAxeClean, saveScreenshot } from './support/app';

const WIDTHS = [390, 768, 1280];

/** The links the page must offer, by their accessible name. */
const EXPECTED_LINKS: Record<string, string> = {
  'Sign in': '/login',
  'API reference': '/docs/api',
  'OpenAPI document': '/api/v1/openapi.json',
  'Error codes': '/docs/errors',
  'Settings → API keys': '/settings/api-keys',
  'Settings → Connected apps': '/settings/connected-apps',
};

/** Loads `path` and returns every response of the load (prefetches included), once the network is idle. */
async function load(page: Page, path: string): Promise<Response[]> {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // Next.js prefetches visible links when the browser is idle: give it the time to, then wait again.
  await page.waitForTimeout(1000);
  await page.waitForLoadState('networkidle');
  return responses;
}

const summary = (responses: Response[]) => responses.map((r) => `${r.status()} ${r.request().method()} ${r.url()}`);

for (const width of WIDTHS) {
  test(`front page at ${width} px: no failed or foreign request on load, axe-clean, no sideways scroll`, async ({ page, baseURL }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const responses = await load(page, '/');

    expect(responses.length).toBeGreaterThan(1);
    expect(summary(responses.filter((r) => r.status() >= 400))).toEqual([]);
    expect(summary(responses.filter((r) => new URL(r.url()).origin !== baseURL))).toEqual([]);
    // The OpenAPI route is not prefetched (Next.js would ask for it as a page, and be refused).
    expect(summary(responses.filter((r) => new URL(r.url()).pathname === '/api/v1/openapi.json'))).toEqual([]);

    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no horizontal scroll').toBeLessThanOrEqual(0);

    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, `front-page-${width}`, { fullPage: true });
  });
}

test('front page: says what the service is and shows this server’s MCP URL', async ({ page, baseURL }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  for (const text of ['REST API', 'MCP server', 'OAuth', 'API key', 'Ads', 'Organic social', 'Web analytics', 'Search console', 'Store']) {
    await expect(main).toContainText(text);
  }
  await expect(main).toContainText('Read-only');
  // APP_URL of the running server (the browser tests start it with APP_URL = their base URL).
  await expect(page.getByLabel('MCP server URL')).toHaveText(`${baseURL}/api/mcp`);
  // A first call to copy, and what the MCP server reads.
  await expect(page.getByRole('figure', { name: 'First call' }).locator('pre')).toHaveText(`curl -H "Authorization: Bearer <key>" ${baseURL}/api/v1/me`);
  await expect(page.locator('#mcp-title + p')).toContainText('It reads ads and organic social data: web analytics, search console and store data are on the REST API only.');
});

test('front page: every link is present and answers 200', async ({ page, request }) => {
  await page.goto('/');
  for (const [name, href] of Object.entries(EXPECTED_LINKS)) {
    await expect(page.getByRole('link', { name, exact: true }).first(), name).toHaveAttribute('href', href);
  }
  const hrefs = await page.locator('a[href]').evaluateAll((links) => [...new Set(links.map((a) => (a as HTMLAnchorElement).href))]);
  expect(hrefs.length).toBeGreaterThanOrEqual(Object.keys(EXPECTED_LINKS).length);
  for (const href of hrefs) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
  }
});

test('front page: the OpenAPI link opens the document itself', async ({ page }) => {
  await page.goto('/');
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/openapi.json'),
    page.getByRole('link', { name: 'OpenAPI document' }).click(),
  ]);
  expect(response.status()).toBe(200);
  expect(new URL(response.url()).search).toBe('');
  expect((await response.json()).openapi).toBe('3.1.0');
});

test('favicon: declared by every page and served', async ({ page, request }) => {
  for (const path of ['/', '/docs/api', '/docs/errors', '/login']) {
    await page.goto(path);
    const href = await page.locator('link[rel="icon"]').first().getAttribute('href');
    expect(href, path).toBeTruthy();
    const response = await request.get(new URL(href!, page.url()).toString());
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type']).toContain('image/svg+xml');
    expect(await response.text()).toContain('<svg');
  }
});
