// The API keys page under real use, in Chromium against the real server: long names and client lists
// at 390, 768 and 1280 px, the show-once dialog (discard confirmation, copy, curl example; discarding
// itself is in api-keys-dialog.spec.ts), expiry presets and a refused past day, where focus goes after
// each action, the revoke dialog by keyboard, a key minted by `npm run key:create`, a demoted admin's
// 403, and the filter. Axe checks each state.
import { spawnSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { expect, test } from './support/fixtures';
import { ADMIN, expectAxeClean, query, saveScreenshot, signIn, userOrg } from './support/app';

const WIDTHS = [390, 768, 1280] as const;

async function fillKey(page: Page, name: string, scope = 'ads:read'): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: scope }).check();
}

async function keyIdNamed(name: string): Promise<string> {
  const [key] = await query<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', [name]);
  return key!.id;
}

test('long names and long client lists wrap: no page scroll at 390, 768 or 1280 px, the table scrolls in its own box', async ({ page }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const clients = await query<{ id: string; name: string }>('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name', [admin.orgId]);
  const longName = `Quarterly-reporting-integration-for-${'x'.repeat(60)}`;
  expect(longName.length).toBeLessThanOrEqual(100);
  await signIn(page, ADMIN.email);
  await fillKey(page, longName);
  await page.getByRole('radio', { name: 'Only these clients' }).check();
  const list = page.getByRole('group', { name: 'Clients the key may read' });
  for (const client of clients) await list.getByRole('checkbox', { name: client.name, exact: true }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/settings/api-keys');
    const row = page.locator(`tr[data-key-id="${await keyIdNamed(longName)}"]`);
    await expect(row.locator('td[data-label="Clients"]')).toHaveText(clients.map((c) => c.name).join(', '));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width}`).toBeLessThanOrEqual(width);
    // The table never reaches past its card: it fits, or scrolls inside its own box.
    const [box, card] = await Promise.all([page.locator('.table-box').boundingBox(), page.locator('section:has(.table-box)').boundingBox()]);
    expect(box!.x + box!.width, `table box at ${width}`).toBeLessThanOrEqual(card!.x + card!.width);
    await expectAxeClean(page);
    await row.scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, `keys-long-names-${width}`);
  }
});

test('the show-once key: Esc and Close ask before discarding it, copy says so, and the curl example works', async ({ page, context, request, baseURL }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN.email);
  await fillKey(page, 'Dialog key');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new key “Dialog key”' });
  const keyField = dialog.getByLabel('API key');
  // Focus lands on the result: the key itself, selected for copying.
  await expect(keyField).toBeFocused();
  const key = await keyField.inputValue();

  // Before anything is copied, Esc asks, inside the dialog; Esc again (or "Back to the key") returns to the key.
  await page.keyboard.press('Escape');
  const ask = dialog.getByRole('group', { name: 'Discard the key?' });
  await expect(ask).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Back to the key' })).toBeFocused();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'show-once-confirm-discard');
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(keyField).toHaveValue(key);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.getByRole('button', { name: 'Back to the key' }).click();
  await expect(keyField).toBeFocused();

  const command = `curl -H "Authorization: Bearer ${key}" ${baseURL}/api/v1/me`;
  await expect(dialog.locator('pre')).toHaveText(command);
  await dialog.getByRole('button', { name: 'Copy the command' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Command copied to the clipboard.');
  await expect(dialog.getByRole('status')).toHaveAttribute('aria-live', 'polite');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Key copied to the clipboard.');
  await expect(dialog.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  // The command's request, as printed, answers with the key's own description.
  const me = await request.get(`${baseURL}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { data: { key: { name: string } } }).data.key.name).toBe('Dialog key');
  await expectAxeClean(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page, testInfo, `show-once-${width}`);
  }

  // Copied: Close leaves at once (nothing to ask), the key stays active; focus lands on the new key's row.
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator(`#key-${await keyIdNamed('Dialog key')}`)).toBeFocused();
  expect(await page.content()).not.toContain(key);
  expect((await request.get(`${baseURL}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
});

test('expiry: presets, a picker that starts today, and a past day refused by the action with focus on it', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  const today = new Date().toISOString().slice(0, 10);
  for (const label of ['Never', '30 days', '90 days', '365 days', 'On a day']) await expect(page.getByRole('radio', { name: label })).toBeVisible();

  await fillKey(page, 'Ninety days');
  await page.getByRole('radio', { name: '90 days' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const [stored] = await query<{ expires_at: Date }>("SELECT expires_at FROM api_keys WHERE name = 'Ninety days'");
  const lastDay = new Date(Date.parse(`${today}T00:00:00Z`) + 90 * 86_400_000).toISOString().slice(0, 10);
  expect(stored!.expires_at.toISOString()).toBe(`${lastDay}T23:59:59.999Z`);

  await fillKey(page, 'From the past');
  await page.getByRole('radio', { name: 'On a day' }).check();
  const day = page.getByLabel('Last day');
  await expect(day).toHaveAttribute('min', today);
  await saveScreenshot(page, testInfo, 'expiry-on-a-day');
  // Past the picker's `min`, as a script or a crafted post would.
  await day.evaluate((input: HTMLInputElement) => {
    input.removeAttribute('min');
    input.value = '2020-01-31';
  });
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-expires-error')).toHaveText('Choose today or a later day.');
  await expect(page.getByRole('radio', { name: 'On a day' })).toBeFocused();
  await expectAxeClean(page);
  expect(await query("SELECT 1 FROM api_keys WHERE name = 'From the past'")).toEqual([]);
});

test('the form states the data-use rule before its Create key button', async ({ page }) => {
  await signIn(page, ADMIN.email);
  const rule = page.locator('form #data-use');
  await expect(rule).toHaveText(`Use of the data. ${DATA_USE_RULE} Whoever holds the key is bound by this.`);
  await expect(page.locator('form #data-use ~ div').getByRole('button', { name: 'Create key' })).toBeVisible();
});

test('the form says what the MCP server reads, and warns while only Website or Store is checked', async ({ page }) => {
  await signIn(page, ADMIN.email);
  const scopes = page.getByRole('group', { name: 'Scopes' });
  await expect(scopes).toHaveAccessibleDescription(
    'The REST API serves every scope. The MCP server reads ads and organic social data only: with Website or Store alone, its tools list the clients and describe the metrics, and the others answer 403.',
  );
  const warning = scopes.locator('.mcp-scopes-notice');
  await expect(warning).toBeHidden();
  await page.getByRole('checkbox', { name: 'web:read' }).check();
  await page.getByRole('checkbox', { name: 'store:read' }).check();
  await expect(warning).toHaveText(
    'Through MCP this key can only list the clients and describe the metrics (the MCP server reads ads and organic social): use it with the REST API, or add Ads or Organic social.',
  );
  await expectAxeClean(page);
  await page.getByRole('checkbox', { name: 'social:read' }).check();
  await expect(warning).toBeHidden();
});

test('a failed submit focuses the first field in error', async ({ page }) => {
  await signIn(page, ADMIN.email);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByLabel('Name', { exact: true }).evaluate((input: HTMLInputElement) => input.removeAttribute('required'));
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-name-error')).toHaveText('Give the key a name.');
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();

  await page.getByLabel('Name', { exact: true }).fill('No scope');
  await page.getByRole('checkbox', { name: 'ads:read' }).uncheck();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-scopes-error')).toHaveText('Choose at least one scope.');
  await expect(page.getByRole('checkbox', { name: 'ads:read' })).toBeFocused();
});

test('the revoke dialog by keyboard: focus stays inside, Esc cancels back to the button, and focus lands on the result', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  await fillKey(page, 'Keyboard revoke');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const keyId = await keyIdNamed('Keyboard revoke');
  const opener = page.getByRole('button', { name: 'Revoke Keyboard revoke' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Revoke “Keyboard revoke”?' });
  await expect(confirm).toBeVisible();
  // The modal dialog holds focus: tabbing goes round its own buttons only.
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    expect(await confirm.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  // Left-aligned text inside the actions cell, which is right-aligned.
  expect(await confirm.evaluate((dialog) => getComputedStyle(dialog).textAlign)).toBe('left');
  await expectAxeClean(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page, testInfo, `revoke-dialog-${width}`);
  }
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId])).toEqual([{ revoked_at: null }]);

  await page.keyboard.press('Enter');
  await confirm.getByRole('button', { name: 'Revoke key' }).focus();
  await page.keyboard.press('Enter');
  const status = page.locator(`#key-status-${keyId}`);
  await expect(status).toContainText('Revoked');
  await expect(status).toBeFocused();
});

test('a key minted by `npm run key:create` is shown as created from the command line, in the list and the Activity', async ({ page }, testInfo) => {
  const [org] = await query<{ slug: string }>("SELECT o.slug FROM organizations o JOIN memberships m ON m.org_id = o.id JOIN users u ON u.id = m.user_id WHERE u.email = $1", [ADMIN.email]);
  const cli = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/key-create.ts', '--org', org!.slug, '--scopes', 'ads:read', '--name', 'Made at the terminal'], {
    encoding: 'utf8',
    env: process.env,
  });
  expect(cli.status, cli.stderr).toBe(0);
  const [key] = await query<{ id: string; prefix: string; created_via: string; created_by_id: string | null }>(
    "SELECT id, prefix, created_via, created_by_id FROM api_keys WHERE name = 'Made at the terminal'",
  );
  expect(key).toMatchObject({ created_via: 'cli', created_by_id: null });

  await signIn(page, ADMIN.email);
  const row = page.locator(`tr[data-key-id="${key!.id}"]`);
  await expect(row.locator('td[data-label="Created"] .by')).toHaveText('from the command line');
  await expect(page.locator('.activity li').filter({ hasText: 'Made at the terminal' })).toContainText(
    `The key Made at the terminal (${key!.prefix}…) was created from the command line`,
  );
  await expectAxeClean(page);
  await page.locator('.activity').scrollIntoViewIfNeeded();
  await saveScreenshot(page, testInfo, 'activity-with-cli-key');
});

test('an admin demoted while the page is open is refused with 403 when creating a key, is told why, and nothing is made', async ({ page }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  await fillKey(page, 'After demotion');
  await query("UPDATE memberships SET role = 'member' WHERE user_id = $1 AND org_id = $2", [admin.userId, admin.orgId]);
  try {
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/settings/api-keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect((await answered).status()).toBe(403);
    // The page comes back as a member sees it: why, and whom to ask. No error page, no 500.
    await expect(page.getByRole('heading', { name: 'Ask an admin for a key' })).toBeVisible();
    await expect(page.getByText('Only admins of Demo Agency can create and revoke API keys.')).toBeVisible();
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, 'demoted-admin-refused');
  } finally {
    await query("UPDATE memberships SET role = 'admin' WHERE user_id = $1 AND org_id = $2", [admin.userId, admin.orgId]);
  }
  expect(await query("SELECT 1 FROM api_keys WHERE name = 'After demotion'")).toEqual([]);
});

test('the filter narrows the list by name, scope or status, and says when nothing matches', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  for (const [name, scope] of [['Filter alpha', 'ads:read'], ['Filter beta', 'store:read']] as const) {
    await fillKey(page, name, scope);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'I have stored the key' }).click();
  }
  const total = (await query<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE org_id = $1', [(await userOrg(ADMIN.email)).orgId]))[0]!.n;
  const search = page.getByRole('search');
  await search.getByLabel('Filter keys').fill('filter store');
  await search.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys\?q=filter\+store$/);
  await expect(page.locator('.key-table tbody tr')).toHaveCount(1);
  await expect(page.locator('.key-table .key-name')).toHaveText('Filter beta');
  await expect(page.getByRole('heading', { name: /^Keys/ })).toHaveText(`Keys 1 of ${total}`);
  await expectAxeClean(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('heading', { name: /^Keys/ }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, `keys-filtered-${width}`);
  }

  await search.getByLabel('Filter keys').fill('no such key anywhere');
  await search.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No key matches “no such key anywhere”.')).toBeVisible();
  await page.getByRole('link', { name: 'Show all keys' }).click();
  await expect(page.locator('.key-table tbody tr')).toHaveCount(Number(total));
});
