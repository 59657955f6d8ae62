// The settings pages at the widths where a walk-through found them cut off or unreadable (390, 768, 1024,
// 1280 and 1440 px), in Chromium against the real server, each width axe-checked: on the keys page every
// button and link of the table is wholly in view without the page scrolling sideways (Revoke was a sliver
// at every desktop width) and a long name is not a tower of words; a rotation's two keys are told apart
// (the retiring one says when it retires, the organisation's log names keys by prefix, to the second; a
// key's own page shows its status); the usage charts open on the latest day with text of a readable
// size, a request-log row shows every cell, and on a phone the log's caption is a line above its rows;
// the connected apps' table (Revoke) and recent tool calls, and an app's own page (its two charts and its
// request log), likewise. The screenshots of docs/images/ are taken here.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { closeDb } from '../../lib/db';
import { ADMIN, expectAxeClean, expectInViewSideways, query, saveScreenshot, signIn, userOrg } from './support/app';
import { callTools, connectRegisteredApp } from './support/connected-app';

const WIDTHS = [390, 768, 1024, 1280, 1440] as const;
/** The widths of docs/images/. */
const SCREENSHOT_WIDTHS: readonly number[] = [390, 1280];

// An axe run and a page load per width, on a machine shared with other builds.
test.describe.configure({ timeout: 240_000 });

// The connected app's grant is looked up through the app's own code, which opens the database.
test.afterAll(async () => {
  await closeDb();
});

/** How the pages write a moment to the second (UTC). */
const toTheSecond = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
/** How the chart labels a day. */
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

interface MintedKey {
  key: string;
  id: string;
  prefix: string;
}

async function keyRow(name: string, prefix?: string): Promise<{ id: string; prefix: string; retires_at: Date | null }> {
  const [row] = await query<{ id: string; prefix: string; retires_at: Date | null }>(
    'SELECT id, prefix, retires_at FROM api_keys WHERE name = $1 AND ($2::text IS NULL OR prefix = $2) ORDER BY created_at DESC LIMIT 1',
    [name, prefix ?? null],
  );
  return row!;
}

/** The key the show-once dialog shows for `name` (a new key or a successor), stored and closed; with its row. */
async function storedKey(page: Page, name: string): Promise<MintedKey> {
  const dialog = page.getByRole('dialog', { name: `Your new key “${name}”` });
  const key = await dialog.getByLabel('API key').inputValue();
  await dialog.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(dialog).toBeHidden();
  return { key, ...(await keyRow(name, key.slice(0, 12))) };
}

async function mintKey(page: Page, name: string, scopes: string[] = ['ads:read']): Promise<MintedKey> {
  await page.goto('/settings/api-keys');
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const scope of scopes) await page.getByRole('checkbox', { name: scope }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  return storedKey(page, name);
}

/** Rotates the key with an hour's overlap and returns its successor. */
async function rotate(page: Page, old: MintedKey, name: string): Promise<MintedKey> {
  await page.goto('/settings/api-keys');
  await page.locator(`tr[data-key-id="${old.id}"]`).getByRole('button', { name: `Rotate ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Rotate “${name}”?` });
  await dialog.getByRole('radio', { name: /^1 hour/ }).check();
  await dialog.getByRole('button', { name: 'Rotate key' }).click();
  return storedKey(page, name);
}

/**
 * Every usage chart of the page opens on its latest day (today), with that day and the axis beside it in
 * view, and its text is at least 12 px. Returns how many charts were checked.
 */
async function expectChartsOpenOnLatestDay(page: Page, where: string): Promise<number> {
  const charts = await page.locator('.chart-box').evaluateAll((boxes) =>
    boxes.map((box) => {
      const edge = box.getBoundingClientRect();
      const inBox = (element: Element) => {
        const at = element.getBoundingClientRect();
        return at.left >= edge.left - 0.5 && at.right <= edge.right + 0.5;
      };
      const svg = box.querySelector('svg')!;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return {
        name: box.getAttribute('aria-label'),
        lastDay: [...box.querySelectorAll('text.day')].at(-1)!.textContent,
        lastDayInView: inBox([...box.querySelectorAll('text.day')].at(-1)!),
        axisInView: [...box.querySelectorAll('.tick text')].every(inBox),
        textPx: Math.min(...[...box.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize) * scale)),
      };
    }),
  );
  for (const chart of charts) {
    const which = `${chart.name} on ${where}`;
    expect(chart.lastDay, `the latest day of ${which}`).toBe(shortDay.format(new Date()));
    expect(chart.lastDayInView, `the latest day in view of ${which}`).toBe(true);
    expect(chart.axisInView, `the axis in view of ${which}`).toBe(true);
    expect(chart.textPx, `the text of ${which}`).toBeGreaterThanOrEqual(12);
  }
  return charts.length;
}

/**
 * The request log's caption is a line above its rows, about as wide as the log's card: on a phone, where
 * the rows are cards, it was laid out as a narrow cell of its own.
 */
async function expectLogCaptionAboveRows(page: Page, where: string): Promise<void> {
  const log = page.getByTestId('request-log');
  const card = (await page.locator('#request-log').boundingBox())!;
  const caption = (await log.locator('caption').boundingBox())!;
  const firstRow = (await log.locator('tbody tr').first().boundingBox())!;
  expect(caption.width, `the log's caption on ${where}, in a card ${card.width} px wide`).toBeGreaterThanOrEqual(0.9 * card.width);
  expect(caption.y + caption.height, `the bottom of the log's caption on ${where}`).toBeLessThanOrEqual(firstRow.y);
}

test('the keys page from 390 to 1440 px: every control of the table in view, long names in lines, a retiring key says when it retires', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  const longName = 'Quarterly reporting integration for the northern region accounts team and its partners';
  await mintKey(page, longName, ['ads:read', 'social:read', 'web:read', 'store:read']);
  const old = await mintKey(page, 'Rotating bot');
  const successor = await rotate(page, old, 'Rotating bot');
  const retiresAt = toTheSecond.format((await keyRow('Rotating bot', old.prefix)).retires_at!);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/settings/api-keys');
    const checked = await expectInViewSideways(page, `the key table at ${width} px`);
    // At least the three keys' links and buttons: Requests and usage, Rotate (not the retiring key's), Edit, Revoke.
    expect(checked, `controls at ${width} px`).toBeGreaterThanOrEqual(11);
    await expect(page.locator(`tr[data-key-id="${old.id}"]`).getByRole('button')).toHaveText(['Edit', 'Revoke']);
    // Two keys named alike: the retiring one says when it stops and what replaced it, never that it does not expire.
    await expect(page.locator(`tr[data-key-id="${old.id}"] td[data-label="Status"]`)).toHaveText(`RetiringRetires at ${retiresAt}, replaced by ${successor.prefix}…`);
    await expect(page.locator(`tr[data-key-id="${successor.id}"] td[data-label="Status"]`)).toHaveText('ActiveNever expires');
    await expect(page.locator(`tr[data-key-id="${successor.id}"] td[data-label="Name"]`)).toContainText(`rotated from ${old.prefix}…`);
    // The long name wraps in a few lines, not one word a line.
    const name = page.locator('.key-name', { hasText: longName });
    const lines = await name.evaluate((element) => {
      const text = document.createRange();
      text.selectNodeContents(element);
      return new Set([...text.getClientRects()].map((line) => Math.round(line.top))).size;
    });
    expect(lines, `lines of the long name at ${width} px`).toBeLessThanOrEqual(width === 390 ? 5 : 3);
    await expectAxeClean(page);
    if (SCREENSHOT_WIDTHS.includes(width)) {
      await page.getByRole('heading', { name: /^Keys/ }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, testInfo, `keys-${width}`);
    }
  }
});

test('a key’s usage page and the organisation’s log from 390 to 1440 px: the charts open on the latest day, a log row shows every cell; a rotation’s keys are told apart', async ({ page, request }, testInfo) => {
  await signIn(page, ADMIN.email);
  const name = 'Dashboard sync';
  const old = await mintKey(page, name);
  const call = async (key: string, path = '/api/v1/me') => (await request.get(path, { headers: { Authorization: `Bearer ${key}` } })).headers()['x-request-id']!;
  await call(old.key);
  await call(old.key, '/api/v1/ads/overview?from=2026-13-01&to=2026-06-30');
  const successor = await rotate(page, old, name);
  const successorRequest = await call(successor.key);
  await expect.poll(async () => (await query('SELECT 1 FROM request_log WHERE api_key_id IN ($1, $2)', [old.id, successor.id])).length).toBe(3);
  const today = new Date().toISOString().slice(0, 10);

  // The old key's own page says it is retiring and what replaced it.
  await page.goto(`/settings/api-keys/${old.id}`);
  const retiresAt = toTheSecond.format((await keyRow(name, old.prefix)).retires_at!);
  await expect(page.locator('#key-status')).toHaveText(`RetiringRetires at ${retiresAt}, replaced by ${successor.prefix}… Its successor’s page`);
  // A request of the successor, looked for on the old key's page, is pointed to the organisation's log, and found there.
  await page.getByLabel('Request id').fill(successorRequest);
  await page.getByLabel('Request id').press('Enter');
  await expect(page.getByRole('status')).toHaveText(
    `No logged request has the id “${successorRequest}”. It may have been made with another key or app (a rotated key’s predecessor, for one): look for it in the organisation’s log.`,
  );
  await page.getByRole('link', { name: 'look for it in the organisation’s log' }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/usage\\?id=${successorRequest}#request-log$`));
  const [logged] = await query<{ created_at: Date }>('SELECT created_at FROM request_log WHERE request_id = $1', [successorRequest]);
  await expect(page.locator(`tr[data-request-id="${successorRequest}"] td[data-label="Time"]`)).toHaveText(toTheSecond.format(logged!.created_at));
  await expect(page.locator(`tr[data-request-id="${successorRequest}"] td[data-label="Key or app"]`)).toHaveText(`${name} ${successor.prefix}…`);
  // The organisation's log names each of the two keys by its prefix.
  await page.goto('/settings/usage');
  const callers = page.getByTestId('request-log').locator('tbody tr td[data-label="Key or app"]');
  await expect(callers.filter({ hasText: name })).toHaveText([`${name} ${successor.prefix}…`, `${name} ${old.prefix}…`, `${name} ${old.prefix}…`]);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [`/settings/api-keys/${old.id}`, '/settings/usage']) {
      await page.goto(path);
      const where = `${path} at ${width} px`;
      await expectInViewSideways(page, where);
      // The filter's fields stay inside their card.
      const card = (await page.locator('#request-log').boundingBox())!;
      for (const field of await page.locator('#request-log form :is(input, select, button)').all()) {
        const at = (await field.boundingBox())!;
        expect(at.x + at.width, `${await field.getAttribute('name') ?? 'Filter'} of ${where}`).toBeLessThanOrEqual(card.x + card.width - 16);
      }
      // A row of the log shows every cell, whatever the width (cards on a phone).
      expect(await expectInViewSideways(page, `a log row of ${where}`, '[data-testid="request-log"] tbody tr:first-child td')).toBe(path === '/settings/usage' ? 8 : 7);
      expect(await expectChartsOpenOnLatestDay(page, where), `charts on ${where}`).toBe(1);
      if (width === 390) await expectLogCaptionAboveRows(page, where);
      await expectAxeClean(page);
      if (SCREENSHOT_WIDTHS.includes(width)) {
        if (path === '/settings/usage') {
          await page.locator('#request-log').evaluate((section) => section.scrollIntoView({ block: 'start' }));
          await saveScreenshot(page, testInfo, `request-log-${width}`);
        } else {
          await saveScreenshot(page, testInfo, `key-usage-${width}`);
        }
      }
    }
  }

  // The old key's numbers: today one success and one 400, as the table and the summary say.
  await page.goto(`/settings/api-keys/${old.id}`);
  await expect(page.getByRole('figure', { name: 'Last 30 days (UTC): 2 requests' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Requests / })).toHaveAccessibleName(
    new RegExp(`^Requests with the key ${name} per day from \\d{4}-\\d\\d-\\d\\d to ${today}: 2 in all \\(1 2xx, 1 4xx\\); the busiest day was ${today} with 2\\.$`),
  );
  await page.getByText('The numbers per day as a table').click();
  await expect(page.getByTestId('usage-table').locator('tbody tr')).toHaveCount(30);
  await expect(page.getByTestId('usage-table').locator('tbody tr').last()).toHaveText([today, '1', '0', '1', '0', '0', '2'].join(''));
  const endpoints = page.getByTestId('usage-endpoints').locator('tbody tr');
  await expect(endpoints).toHaveText([['/api/v1/ads/overview', '1', '0', '0', '1', '0', '0'].join(''), ['/api/v1/me', '1', '1', '0', '0', '0', '0'].join('')]);
});

test('the connected apps and an app’s own page from 390 to 1440 px: every control of the tables in view, the charts open on the latest day', async ({ page, baseURL }) => {
  const app = await connectRegisteredApp(baseURL!, await userOrg(ADMIN.email), 'Weekly report assistant');
  await callTools(baseURL!, app.token, app.grantId, ['list_clients', 'describe_metrics']);
  // The app's requests per day and its request log are read from the log's rows.
  await expect.poll(async () => (await query('SELECT 1 FROM request_log WHERE grant_id = $1 AND tool IS NOT NULL', [app.grantId])).length).toBe(2);
  await signIn(page, ADMIN.email);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/settings/connected-apps');
    const list = `/settings/connected-apps at ${width} px`;
    // The app's link and its Revoke at least.
    expect(await expectInViewSideways(page, `the apps table of ${list}`), `controls of ${list}`).toBeGreaterThanOrEqual(2);
    await expect(page.locator(`tr[data-grant-id="${app.grantId}"]`).getByRole('button')).toHaveText(['Revoke']);
    // A row of the recent tool calls shows every cell.
    const calls = '[aria-labelledby="calls-title"] tbody tr:first-child td';
    expect(await expectInViewSideways(page, `a tool-call row of ${list}`, calls)).toBe(6);
    await expectAxeClean(page);

    await page.goto(`/settings/connected-apps/${app.grantId}`);
    const own = `the app’s page at ${width} px`;
    await expectInViewSideways(page, own);
    expect(await expectInViewSideways(page, `a log row of ${own}`, '[data-testid="request-log"] tbody tr:first-child td')).toBe(7);
    // Its tool calls per day and its requests per day.
    expect(await expectChartsOpenOnLatestDay(page, own), `charts on ${own}`).toBe(2);
    if (width === 390) await expectLogCaptionAboveRows(page, own);
    await expectAxeClean(page);
  }
});
