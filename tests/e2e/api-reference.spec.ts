// The API reference at /docs/api: Scalar renders /api/v1/openapi.json in the browser from our own
// origin (nothing fetched elsewhere, under the site's security headers), every operation of the
// document appears with its operationId, the examples of the document are shown, and our own part
// of the page is axe-clean. A problem's `type` link leads to its section of the errors page on the
// server that answered.
import type { AxeResults } from 'axe-core';
import type { Page, Response } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { axe, expectAxeClean, saveScreenshot } from './support/app';

// Each test opens its own page and depends on no other: they run on whichever workers are free, so the
// slow ones (the whole API reference rendered and checked) do not run one after another.
test.describe.configure({ mode: 'parallel' });

const WIDTHS = [390, 768, 1280];

/**
 * What axe finds in Scalar's own markup once every operation is rendered, none of it in our part of
 * the page, and none that its configuration, theme variables or a stylesheet can change (docs/api.md,
 * API reference): its operation headings skip a level, and its example-response regions share one name.
 */
const SCALAR_FINDINGS = ['heading-order', 'landmark-unique'];

const violations = (results: AxeResults) => results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

interface OpenApi {
  paths: Record<string, Record<string, { operationId: string; summary: string }>>;
}

async function documentOperations(page: Page): Promise<{ path: string; operationId: string; summary: string }[]> {
  const response = await page.request.get('/api/v1/openapi.json');
  expect(response.status()).toBe(200);
  const document = (await response.json()) as OpenApi;
  return Object.entries(document.paths).flatMap(([path, item]) => Object.values(item).map((operation) => ({ path, ...operation })));
}

/** Waits until Scalar has rendered the document: its title, from the document's `info.title`. */
async function rendered(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Metrics API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

async function openReference(page: Page): Promise<Response[]> {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  await page.goto('/docs/api');
  await rendered(page);
  return responses;
}

/**
 * Scalar renders the sections of operations lazily, as they scroll into view: scroll through the
 * whole page, a screen at a time, until the operationId badge of every operation has been rendered.
 */
async function renderAll(page: Page, operationIds: string[]): Promise<void> {
  const rendered = () =>
    page.locator('section.section[id*="/GET/"] .badge').evaluateAll((badges) => [...new Set(badges.map((b) => b.textContent?.trim() ?? ''))]);
  for (let step = 0; step < 400; step += 1) {
    const seen = await rendered();
    if (operationIds.every((id) => seen.includes(id))) return;
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(60);
  }
  expect((await rendered()).sort(), 'every operation rendered').toEqual([...operationIds].sort());
}

test('renders every operation of the OpenAPI document, with its examples', async ({ page, baseURL }) => {
  // Scrolling the whole reference, then axe over its ~12,000 rendered elements, take a while: well
  // over a minute beside three other workers on the two-core machine.
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const operations = await documentOperations(page);
  expect(operations.length).toBeGreaterThanOrEqual(12);
  const responses = await openReference(page);

  // Scalar fetched the document from this origin, and nothing from anywhere else.
  expect(responses.some((r) => new URL(r.url()).pathname === '/api/v1/openapi.json' && r.status() === 200)).toBe(true);
  expect(responses.filter((r) => new URL(r.url()).origin !== baseURL).map((r) => r.url())).toEqual([]);
  expect(responses.filter((r) => r.status() >= 400).map((r) => `${r.status()} ${r.url()}`)).toEqual([]);

  // The sidebar lists every operation, by its summary.
  await expect(page.locator('li[data-sidebar-id*="/GET/"]')).toHaveCount(operations.length);
  for (const operation of operations) {
    await expect(page.locator(`li[data-sidebar-id$="/GET${operation.path}"]`), operation.operationId).toContainText(operation.summary);
  }

  // Every operation's section, one each, with its operationId.
  await renderAll(page, operations.map((o) => o.operationId));
  const sections = page.locator('section.section[id*="/GET/"]');
  const badges = await sections.locator('.badge').allTextContents();
  const shown = badges.map((b) => b.trim()).filter((b) => operations.some((o) => o.operationId === b));
  expect(shown.sort()).toEqual(operations.map((o) => o.operationId).sort());
  for (const operation of operations) {
    const section = page.locator(`section.section[id$="/GET${operation.path}"]`);
    await expect(section, operation.operationId).toHaveCount(1);
    await expect(section).toHaveAttribute('label', operation.summary);
  }

  // The document's examples are shown: a request example's values and a response example's.
  const overview = page.locator('section.section[id$="/GET/ads/overview"]');
  await expect(overview).toContainText('2026-06-01');
  await expect(overview).toContainText('"timezone"');
  await expect(overview).toContainText('Asia/Kolkata');

  // Everything rendered: axe finds nothing but Scalar's known findings, and nothing in our part.
  const results = await axe(page).analyze();
  expect(results.violations.map((v) => v.id).filter((id) => !SCALAR_FINDINGS.includes(id))).toEqual([]);
  for (const violation of results.violations) {
    for (const node of violation.nodes) expect(node.target.join(' '), violation.id).not.toContain('site-');
  }
});

for (const width of WIDTHS) {
  test(`API reference at ${width} px: renders under the security headers, our part axe-clean`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const response = await page.goto('/docs/api');
    expect(response!.status()).toBe(200);
    // The headers every page carries (next.config.ts); the renderer needs no more than they allow.
    expect(response!.headers()['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(response!.headers()['x-frame-options']).toBe('DENY');
    await rendered(page);
    expect(errors).toEqual([]);

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no horizontal scroll').toBeLessThanOrEqual(0);

    // Our own part of the page (the header and its navigation), and the whole page as first rendered:
    // Scalar's colours are ours there (globals.css), so its introduction and sidebar pass too.
    const ours = await axe(page).include('.site-header').analyze();
    expect(violations(ours)).toEqual([]);
    expect(violations(await axe(page).analyze())).toEqual([]);
    await saveScreenshot(page, testInfo, `api-reference-${width}`);
  });
}

// A phone, the narrowest width with Scalar's sidebar, and a wide screen: each load of the renderer and axe
// over it take some 12 s here, and the other widths lay the operation out as one of these does.
test('with an operation open, at 390, 1024 and 1440 px: no critical axe finding, its authentication badge and popover wholly in view', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const operation = page.locator('section.section[id$="/GET/ads/overview"]');
  for (const width of [390, 1024, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await openReference(page);
    // The sidebar opens the operation where it is shown; on narrower screens Scalar hides it behind a menu, and the operation is scrolled to.
    if (width >= 1024) await page.locator('li[data-sidebar-id$="/GET/ads/overview"]').click();
    for (let step = 0; step < 100 && (await operation.locator('.security-requirement-badge').count()) === 0; step += 1) await page.mouse.wheel(0, 900);
    const badge = operation.getByRole('button', { name: 'Auth Required' });
    await badge.scrollIntoViewIfNeeded();
    await expect(badge).toHaveText('Auth Required');
    const results = await axe(page).analyze();
    expect(violations({ ...results, violations: results.violations.filter((violation) => violation.impact === 'critical') }), `critical findings at ${width} px`).toEqual([]);
    await badge.click();
    const popover = page.getByRole('dialog').filter({ hasText: 'Authentication required' });
    await expect(popover).toContainText('Authentication requiredbearerAuthHTTP bearer');
    for (const [what, element] of [['badge', badge], ['popover', popover]] as const) {
      const at = (await element.boundingBox())!;
      expect(at.x, `${what} at ${width} px`).toBeGreaterThanOrEqual(0);
      expect(at.x + at.width, `${what} at ${width} px`).toBeLessThanOrEqual(width);
      expect(at.y, `${what} at ${width} px`).toBeGreaterThanOrEqual(0);
      expect(at.y + at.height, `${what} at ${width} px`).toBeLessThanOrEqual(900);
    }
    if (width === 390) await saveScreenshot(page, testInfo, 'api-reference-operation-390');
  }
});

test('when the renderer cannot load, the page says so and links to the OpenAPI document', async ({ page }) => {
  await page.route('**/docs/api/scalar.js', (route) => route.abort('connectionfailed'));
  await page.goto('/docs/api');
  const alert = page.locator('#content').getByRole('alert');
  await expect(alert).toContainText('The API reference could not be loaded.');
  await expect(alert.getByRole('link', { name: '/api/v1/openapi.json' })).toHaveAttribute('href', '/api/v1/openapi.json');
  await expectAxeClean(page);
});

test('a problem’s type link opens its section of the errors page on this server', async ({ page, request, baseURL }) => {
  const answer = await request.get('/api/v1/me');
  expect(answer.status()).toBe(401);
  const problem = (await answer.json()) as { type: string; code: string };
  expect(problem.type).toBe(`${baseURL}/docs/errors#${problem.code}`);
  await page.goto(problem.type);
  await expect(page.locator(`section#${problem.code}`)).toBeVisible();
  await expect(page.locator(`section#${problem.code}`)).toContainText('401');

  // The examples in the document link the same way.
  const document = (await (await request.get('/api/v1/openapi.json')).json()) as {
    components: { responses: Record<string, { content: Record<string, { example: { type: string } }> }> };
  };
  for (const [code, response] of Object.entries(document.components.responses)) {
    expect(response.content['application/problem+json']!.example.type).toBe(`${baseURL}/docs/errors#${code}`);
  }
});
