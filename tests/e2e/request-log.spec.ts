// A key's request log and the usage charts in Chromium against the real server: requests made with a
// key (200, 400, 401, 429) appear in its log, filtered by status class and endpoint, and found by
// their X-Request-Id; no credential is shown; members, and admins of another organisation, get the 404
// of a page that does not exist. Axe checks each state. The charts and the log at each width:
// settings-widths.spec.ts.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, expectAxeClean, MEMBER, OTHER_ORG_ADMIN, query, saveScreenshot, signIn, userOrg } from './support/app';
import { awayFromWindowEdge } from '../support/rate-limit-window';

// Several axe runs per test, on a machine shared with other builds.
test.describe.configure({ timeout: 240_000 });

/** Mints a key on the keys page and returns it with its id. */
async function mintKey(page: Page, name: string): Promise<{ key: string; id: string }> {
  await page.goto('/settings/api-keys');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByRole('dialog').getByLabel('API key').inputValue();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const [row] = await query<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', [name]);
  return { key, id: row!.id };
}

async function call(request: APIRequestContext, path: string, key: string): Promise<{ status: number; requestId: string }> {
  const response = await request.get(path, { headers: { Authorization: `Bearer ${key}` } });
  return { status: response.status(), requestId: response.headers()['x-request-id']! };
}

/** Waits until the log holds `count` requests of the key (a batch is written within a second). */
async function logged(keyId: string, count: number): Promise<void> {
  await expect.poll(async () => (await query('SELECT 1 FROM request_log WHERE api_key_id = $1', [keyId])).length).toBe(count);
}

function logRows(page: Page) {
  return page.getByTestId('request-log').locator('tbody tr');
}

test('a key’s request log: filter by status class and endpoint, find a request by its X-Request-Id, no credential shown', async ({ page, request }, testInfo) => {
  await signIn(page, ADMIN.email);
  const { key, id } = await mintKey(page, `Log key ${Date.now()}`);
  // The key's requests below fall in one window: the 61st is refused, whatever the clock.
  await awayFromWindowEdge(20_000);
  const ok = await call(request, '/api/v1/me', key);
  const invalid = await call(request, '/api/v1/ads/overview?from=2026-13-01&to=2026-06-30', key);
  const misplaced = await call(request, `/api/v1/me?api_key=${key}`, key);
  expect([ok.status, invalid.status, misplaced.status]).toEqual([200, 400, 401]);
  // Spend the rest of the key's window (60 a minute): the next request is refused 429.
  let sent = 3;
  let limited = { status: 0, requestId: '' };
  while (limited.status !== 429 && sent < 70) {
    limited = await call(request, '/api/v1/me', key);
    sent += 1;
  }
  expect(limited.status).toBe(429);
  await logged(id, sent);

  // From the keys list, the key's own page.
  await page.goto('/settings/api-keys');
  await page.locator(`tr[data-key-id="${id}"]`).getByRole('link', { name: /Requests and usage/ }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/api-keys/${id}$`));
  await expect(logRows(page)).toHaveCount(50);
  await expect(logRows(page).first()).toHaveAttribute('data-request-id', limited.requestId);
  expect(await page.content()).not.toContain(key);
  await expectAxeClean(page);

  // 429 only.
  await page.getByLabel('Status', { exact: true }).selectOption('429');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=429/);
  await expect(logRows(page)).toHaveCount(1);
  await expect(logRows(page).first()).toHaveAttribute('data-request-id', limited.requestId);
  await expect(logRows(page).first()).toContainText('Limited');
  await expectAxeClean(page);

  // The other 4xx, as the chart's legend has them (429 apart): the 400 and the 401, newest first; the 401's key in the query is not shown.
  await expect(page.getByLabel('Status', { exact: true }).locator('option')).toHaveText(['Any status', '2xx success', '3xx not modified', '4xx refused (other than 429)', '429 rate limited', '5xx server error']);
  await expect(page.getByRole('list', { name: 'Status classes' }).getByRole('listitem')).toHaveText(['2xx success', '3xx not modified', '4xx refused (other than 429)', '429 rate limited', '5xx server error']);
  await page.getByLabel('Status', { exact: true }).selectOption('4xx');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(logRows(page)).toHaveCount(2);
  expect(await logRows(page).evaluateAll((rows) => rows.map((row) => row.getAttribute('data-request-id')))).toEqual([misplaced.requestId, invalid.requestId]);
  await expect(logRows(page).first()).toContainText('GET /api/v1/me?api_key=REDACTED');
  await expect(logRows(page).first()).toContainText('401');
  await saveScreenshot(page, testInfo, 'request-log-4xx');

  // An endpoint: the ads overview's one request, the 400.
  await page.getByLabel('Status', { exact: true }).selectOption('');
  await page.getByLabel('Endpoint or tool').selectOption('/api/v1/ads/overview');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(logRows(page)).toHaveCount(1);
  await expect(logRows(page).first()).toContainText('GET /api/v1/ads/overview?from=2026-13-01&to=2026-06-30');
  await expectAxeClean(page);

  // The X-Request-Id of the 200, pasted into the search box.
  await page.getByLabel('Endpoint or tool').selectOption('');
  await page.getByLabel('Request id').fill(ok.requestId);
  await page.getByLabel('Request id').press('Enter');
  await expect(logRows(page)).toHaveCount(1);
  await expect(logRows(page).first()).toHaveAttribute('data-request-id', ok.requestId);
  await expect(logRows(page).first()).toContainText('59 left');
  await expectAxeClean(page);
  // An id no request has.
  await page.getByLabel('Request id').fill('00000000-0000-4000-8000-000000000000');
  await page.getByLabel('Request id').press('Enter');
  await expect(page.getByRole('status')).toHaveText(
    'No logged request has the id “00000000-0000-4000-8000-000000000000”. It may have been made with another key or app (a rotated key’s predecessor, for one): look for it in the organisation’s log.',
  );
  await expectAxeClean(page);

  // Older pages: the 51st request and on.
  await page.getByRole('link', { name: 'Show every request' }).click();
  await page.getByRole('link', { name: 'Older requests' }).click();
  await expect(logRows(page)).toHaveCount(sent - 50);
  await expect(logRows(page).last()).toHaveAttribute('data-request-id', ok.requestId);
  await expectAxeClean(page);
  // And back: the newer page is the newest, which has no newer one.
  await expect(page.getByRole('navigation', { name: 'Request log pages' }).getByRole('link')).toHaveText(['Newest requests', 'Newer requests']);
  await page.getByRole('link', { name: 'Newer requests' }).click();
  await expect(logRows(page)).toHaveCount(50);
  await expect(logRows(page).first()).toHaveAttribute('data-request-id', limited.requestId);
  await expect(page.getByRole('navigation', { name: 'Request log pages' }).getByRole('link')).toHaveText(['Older requests']);
});

test('members, and admins of another organisation, get the 404 of a key’s page; a member asking for Usage is told it is for admins', async ({ browser }) => {
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, ADMIN.email);
  const { id } = await mintKey(adminPage, `Hidden key ${Date.now()}`);
  // The page an address under /settings that does not exist answers, as the same person sees it.
  const missingPage = async (page: Page) => {
    const probe = await page.context().newPage();
    const response = await probe.goto('/settings/no-such-page');
    expect(response!.status()).toBe(404);
    const text = await probe.getByRole('main').innerText();
    await probe.close();
    return text;
  };
  const notAPage = async (page: Page, path: string) => {
    const response = await page.goto(path);
    expect(response!.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    expect(await page.getByRole('main').innerText(), path).toBe(await missingPage(page));
    await expect(page.getByTestId('request-log')).toHaveCount(0);
  };

  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, MEMBER.email);
  await expect(memberPage.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Usage' })).toHaveCount(0);
  await notAPage(memberPage, `/settings/api-keys/${id}`);
  // Usage, which a member may have heard of, says who can see it rather than that it does not exist.
  const member = await userOrg(MEMBER.email);
  const [org] = await query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [member.orgId]);
  const admins = await query<{ name: string; email: string }>(
    "SELECT u.name, u.email FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.org_id = $1 AND m.role = 'admin' ORDER BY m.created_at",
    [member.orgId],
  );
  expect((await memberPage.goto('/settings/usage'))!.status()).toBe(200);
  const notice = memberPage.getByRole('region', { name: 'Usage is for admins' });
  await expect(notice.locator('p')).toHaveText(
    `Only admins of ${org!.name} can see the requests made with its keys and connected apps. Ask one of them for what you need from it; the apps you connected yourself are under Connected apps.`,
  );
  await expect(notice.getByRole('listitem')).toHaveText(admins.map((admin) => `${admin.name} · ${admin.email}`));
  await expect(memberPage.getByTestId('request-log')).toHaveCount(0);
  await expectAxeClean(memberPage);

  const otherPage = await (await browser.newContext()).newPage();
  await signIn(otherPage, OTHER_ORG_ADMIN.email);
  await notAPage(otherPage, `/settings/api-keys/${id}`);
  await notAPage(otherPage, '/settings/api-keys/not-a-key-id');
  // The same admin's own usage page opens, and shows nothing of the other organisation's key.
  await otherPage.goto('/settings/usage');
  await expect(otherPage.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
});
