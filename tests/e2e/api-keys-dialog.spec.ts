// The API keys page where the walk-through found it wanting: "Discard" on a new key revokes it (and
// the dialog says so), a copied key closes without asking, the new row stands out, a field's message
// goes once the field is changed, a long name is not cut silently, and a revocation shows that it is
// under way. Axe checks each new state.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, expectAxeClean, query, saveScreenshot, signIn, userOrg } from './support/app';

async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  return page.getByRole('dialog', { name: `Your new key “${name}”` }).getByLabel('API key').inputValue();
}

async function keyNamed(name: string): Promise<{ id: string; revoked_at: Date | null; revoked_by_id: string | null }> {
  const [key] = await query<{ id: string; revoked_at: Date | null; revoked_by_id: string | null }>('SELECT id, revoked_at, revoked_by_id FROM api_keys WHERE name = $1', [name]);
  return key!;
}

for (const width of [390, 1280] as const) {
  test(`at ${width} px, discarding a new key revokes it, says so first, and records it as a revocation`, async ({ page, request }, testInfo) => {
    const admin = await userOrg(ADMIN.email);
    const name = `Discarded at ${width}`;
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, ADMIN.email);
    const key = await createKey(page, name);
    const dialog = page.getByRole('dialog', { name: `Your new key “${name}”` });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    const ask = dialog.getByRole('group', { name: 'Discard the key?' });
    await expect(ask).toHaveAccessibleDescription(
      'Discarding revokes the key at once: nothing can use it, and it cannot be shown again. If you have stored it, go back and choose “I have stored the key”.',
    );
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, `discard-key-${width}`);

    await ask.getByRole('button', { name: 'Discard and revoke' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const stored = await keyNamed(name);
    expect(stored.revoked_at).not.toBeNull();
    expect(stored.revoked_by_id).toBe(admin.userId);
    expect(await query("SELECT 1 FROM audit_events WHERE action = 'api_key.revoked' AND target_id = $1 AND actor_id = $2", [stored.id, admin.userId])).toHaveLength(1);
    // Focus lands on the row's status, which says so; the key is refused from now on.
    const status = page.locator(`#key-status-${stored.id}`);
    await expect(status).toContainText('Revoked');
    await expect(status).toBeFocused();
    expect((await request.get('/api/v1/me', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(401);
    await expectAxeClean(page);
  });
}

test('after Copy, Esc closes at once and the key stays active; the new row is marked and focused', async ({ page, context, request }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMIN.email);
  const key = await createKey(page, 'Copied then closed');
  const dialog = page.getByRole('dialog', { name: 'Your new key “Copied then closed”' });
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Key copied to the clipboard.');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const stored = await keyNamed('Copied then closed');
  expect(stored.revoked_at).toBeNull();
  expect((await request.get('/api/v1/me', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);

  const row = page.locator(`tr[data-key-id="${stored.id}"]`);
  await expect(page.locator(`#key-${stored.id}`)).toBeFocused();
  const marked = await row.evaluate((element) => getComputedStyle(element).backgroundColor);
  const other = await page.locator(`tr[data-key-id]:not([data-key-id="${stored.id}"])`).first().evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(marked).not.toBe(other);
  expect(marked).not.toBe('rgba(0, 0, 0, 0)');
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'new-key-row');
});

test('a field’s message goes as soon as the field is changed; the next answer brings the current ones', async ({ page }) => {
  await signIn(page, ADMIN.email);
  await page.getByLabel('Name', { exact: true }).fill('Scopes later');
  await page.getByRole('button', { name: 'Create key' }).click();
  const scopesError = page.locator('#key-scopes-error');
  await expect(scopesError).toHaveText('Choose at least one scope.');
  await expect(page.getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription(/Choose at least one scope\.$/);
  await page.getByRole('checkbox', { name: 'web:read' }).check();
  await expect(scopesError).toHaveCount(0);
  // Only the scopes' own hint is left.
  await expect(page.getByRole('group', { name: 'Scopes' })).toHaveAccessibleDescription(
    'The REST API serves every scope. The MCP server reads ads and organic social data only: with Website or Store alone, its tools list the clients and describe the metrics, and the others answer 403.',
  );
  await expectAxeClean(page);

  // Unticked again and sent: the message is back, from the server.
  await page.getByRole('checkbox', { name: 'web:read' }).uncheck();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(scopesError).toHaveText('Choose at least one scope.');
});

test('a name over the limit is kept whole and refused with a message, not cut short', async ({ page }) => {
  await signIn(page, ADMIN.email);
  const field = page.getByLabel('Name', { exact: true });
  await expect(page.locator('#key-name-hint')).toContainText('At most 100 characters.');
  const long = `Pasted-name-${'y'.repeat(120)}`;
  await field.fill(long);
  await expect(field).toHaveValue(long);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-name-error')).toHaveText('At most 100 characters.');
  await expect(field).toHaveValue(long);
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expectAxeClean(page);
  expect(await query('SELECT 1 FROM api_keys WHERE name LIKE $1', ['Pasted-name-%'])).toEqual([]);
});

test('a revocation under way says so and cannot be sent twice', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  await createKey(page, 'Slow revoke');
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const { id } = await keyNamed('Slow revoke');

  // The revocation's post is held until the page has been looked at.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/settings/api-keys', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Revoke Slow revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “Slow revoke”?' });
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  const busy = dialog.getByRole('button', { name: 'Revoking…' });
  await expect(busy).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'revoke-in-flight');
  release();
  await expect(page.locator(`#key-status-${id}`)).toContainText('Revoked');
  await expect(page.locator(`#key-status-${id}`)).toBeFocused();
});
