// The settings pages' frame where the walk-through found it wanting: at 768 px the key list is one card
// per key with every Revoke button in view (the table was 888 px wide in a 434 px box); at 390 px a
// short page has no blank band under the navigation; every settings page links home and to the docs,
// and the public pages offer a signed-in person their settings rather than a sign-in; focus rings on
// fields and option cards are solid, at least 3:1 against the page.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, MEMBER, expectAxeClean, expectInViewSideways, saveScreenshot, signIn } from './support/app';

/** WCAG's contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = colour.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function createKey(page: Page, name: string): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
}

test('at 768 px the key list is one card per key: no sideways scroll in its box, every Revoke button in view', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  await createKey(page, 'Tablet key');
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto('/settings/api-keys');
  const box = page.locator('.table-box');
  const overflow = await box.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow, 'the key table fits its box').toBeLessThanOrEqual(0);
  expect(await expectInViewSideways(page, 'the Revoke buttons at 768 px', 'table button[aria-label^="Revoke "]')).toBeGreaterThan(0);
  // Each cell says what it is, as on a phone.
  await expect(page.locator('tr:has-text("Tablet key") td[data-label="Scopes"]')).toHaveCSS('display', 'grid');
  await expectAxeClean(page);
  await page.locator('tr:has-text("Tablet key")').scrollIntoViewIfNeeded();
  await saveScreenshot(page, testInfo, 'keys-768');
});

test('at 390 px a short settings page has no blank band under the navigation', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, MEMBER.email);
  for (const path of ['/settings/api-keys', '/settings/connected-apps']) {
    await page.goto(path);
    const nav = (await page.getByRole('navigation', { name: 'Settings' }).boundingBox())!;
    const lastLink = (await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').last().boundingBox())!;
    const main = (await page.getByRole('main').boundingBox())!;
    // The navigation is as tall as its links (plus its padding), and the page starts right under it.
    expect(nav.y + nav.height - (lastLink.y + lastLink.height), `${path}: space under the links`).toBeLessThanOrEqual(12);
    expect(Math.abs(main.y - (nav.y + nav.height)), `${path}: page under the navigation`).toBeLessThanOrEqual(1);
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, `settings-short-390${path.replaceAll('/', '-')}`);
  }
});

test('settings pages link home and to the docs; the public pages offer a signed-in person their settings', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');

  await signIn(page, ADMIN.email);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Metrics API' })).toHaveAttribute('href', '/');
  const nav = page.getByRole('navigation', { name: 'Settings' });
  for (const [name, href] of [['API reference', '/docs/api'], ['Connect a client', '/#connect'], ['Error codes', '/docs/errors']]) {
    await expect(nav.getByRole('link', { name: name! })).toHaveAttribute('href', href!);
  }
  await nav.getByRole('link', { name: 'Error codes' }).click();
  await expect(page).toHaveURL(/\/docs\/errors$/);
  for (const path of ['/', '/docs/errors']) {
    await page.goto(path);
    const site = page.getByRole('navigation', { name: 'Site' });
    await expect(site.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings/api-keys');
    await expect(site.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  }
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Go to settings' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
});

test('focus rings on fields and option cards are solid and at least 3:1 against the page', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  const name = page.getByLabel('Name', { exact: true });
  await name.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  const background = await page.locator('section.card').first().evaluate((element) => getComputedStyle(element).backgroundColor);
  const ring = await name.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
  });
  expect(ring.style).toBe('solid');
  expect(parseFloat(ring.width)).toBeGreaterThanOrEqual(2);
  expect(ring.color).not.toMatch(/rgba/);
  expect(contrast(ring.color, background)).toBeGreaterThanOrEqual(3);

  await page.keyboard.press('Tab');
  const option = page.locator('label.choice:has(input[value="ads:read"])');
  await expect(option.locator('input')).toBeFocused();
  const card = await option.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, color: style.outlineColor };
  });
  expect(card.style).toBe('solid');
  expect(card.color).not.toMatch(/rgba/);
  expect(contrast(card.color, background)).toBeGreaterThanOrEqual(3);
  await saveScreenshot(page, testInfo, 'focus-ring-option');
});
