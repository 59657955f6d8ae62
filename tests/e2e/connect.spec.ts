// "Connect your client" on the front page and /llms.txt, as a newcomer meets them: at 390, 768 and
// 1280 px every client's guide opens (one at a time), every snippet carries this server's MCP URL, each
// Copy button puts exactly the snippet's text on the clipboard and says so, and every state is
// axe-clean without sideways scroll; Claude's and ChatGPT's guides warn that this localhost URL is out of
// their clouds' reach, and the section shows how to get a public https URL (a tunnel, then APP_URL).
// /llms.txt is plain text with this server's absolute URLs.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { clientGuides } from '../../lib/mcp/client-setup';
import { expectAxeClean, saveScreenshot } from './support/app';

const WIDTHS = [390, 768, 1280] as const;

async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width}`).toBeLessThanOrEqual(width);
}

for (const width of WIDTHS) {
  test(`connect section at ${width} px: each client opens alone, shows this server's URL, axe-clean`, async ({ page, baseURL }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const section = page.getByRole('region', { name: 'Connect your client' });
    await expect(section).toBeVisible();
    await expect(section.getByLabel('MCP server URL')).toHaveText(`${baseURL}/api/mcp`);

    for (const guide of clientGuides(`${baseURL}/api/mcp`)) {
      const details = section.locator(`details#connect-${guide.id}`);
      if (!(await details.evaluate((element: HTMLDetailsElement) => element.open))) await details.locator('summary').click();
      // One open at a time: the others closed as this one opened.
      await expect(section.locator('details[open]')).toHaveCount(1);
      await expect(details.getByRole('figure', { name: guide.snippet.label }).first().locator('pre')).toHaveText(guide.snippet.text);
      if (guide.other.snippet) await expect(details.locator('pre').nth(1)).toHaveText(guide.other.snippet.text);
      await expect(details).toContainText(guide.other.title);
      await noSidewaysScroll(page, width);
      await expectAxeClean(page);
    }
    await section.locator('details#connect-claude summary').click();
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, `connect-${width}`);
  });
}

test('the cloud clients warn that this server’s URL is on this computer, and the section says how to put it on a public https URL', async ({ page }) => {
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Connect your client' });
  // The tests' server is on localhost, which the providers' clouds cannot reach.
  for (const [id, provider] of [['claude', 'Anthropic'], ['chatgpt', 'OpenAI']] as const) {
    const details = section.locator(`details#connect-${id}`);
    if (!(await details.evaluate((element: HTMLDetailsElement) => element.open))) await details.locator('summary').click();
    await expect(details.locator('.connect-reach')).toHaveText(
      `Connects from ${provider}’s cloud, not from your computer: the URL must be public and https. This server’s URL is on this computer, which ${provider} cannot reach: put it on a public https URL first (see “From a provider’s cloud” below).`,
    );
  }
  const publicUrl = section.locator('#connect-public-url');
  await expect(publicUrl).toBeVisible();
  await expect(publicUrl).toHaveText('From a provider’s cloud: a public https URL');
  const steps = publicUrl.locator('xpath=following-sibling::p');
  await expect(steps.locator('code').filter({ hasText: /^cloudflared tunnel --url http:\/\/localhost:3000$/ })).toBeVisible();
  await expect(steps.locator('code').filter({ hasText: /^APP_URL=https:\/\/<name>\.trycloudflare\.com npm run demo$/ })).toBeVisible();
});

test('each Copy button copies exactly its snippet, names what it copies and says it did', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const section = page.getByRole('region', { name: 'Connect your client' });
  await section.getByRole('button', { name: 'Copy the MCP server URL' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/api/mcp`);

  for (const guide of clientGuides(`${baseURL}/api/mcp`)) {
    const details = section.locator(`details#connect-${guide.id}`);
    if (!(await details.evaluate((element: HTMLDetailsElement) => element.open))) await details.locator('summary').click();
    for (const snippet of [guide.snippet, guide.other.snippet].filter((s) => s !== undefined)) {
      const button = details.getByRole('button', { name: `Copy the ${snippet.copyName}`, exact: true });
      await button.click();
      expect(await page.evaluate(() => navigator.clipboard.readText()), snippet.copyName).toBe(snippet.text);
      // The outcome is a polite status beside the button; the button keeps its text.
      await expect(button.locator('xpath=following-sibling::*[@role="status"]')).toHaveText('Copied');
      await expect(button).toHaveText(`Copy the ${snippet.copyName}`);
    }
  }
  await expectAxeClean(page);
});

test('/llms.txt: plain text in the llms.txt format, with this server’s absolute URLs, linked from the front page', async ({ page, request, baseURL }) => {
  const response = await request.get('/llms.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
  const text = await response.text();
  expect(text.startsWith('# Metrics API\n\n> ')).toBe(true);
  const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
  expect(links.length).toBeGreaterThan(10);
  for (const link of links) expect(link.startsWith(`${baseURL}/`), link).toBe(true);
  expect(links).toContain(`${baseURL}/api/v1/openapi.json`);
  expect(links).toContain(`${baseURL}/api/mcp`);
  // The OpenAPI document it points to is there.
  expect((await request.get(`${baseURL}/api/v1/openapi.json`)).status()).toBe(200);

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'llms.txt' })).toHaveAttribute('href', '/llms.txt');
});
