// Settings → API keys in a real browser, against the real server: an admin mints a key restricted to
// two clients, copies it from the show-once dialog, uses it on /api/v1/clients, revokes it, and the
// next call is 401. Members are shown the "ask an admin" page and refused by the server.
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, MEMBER, query, saveScreenshot, serverActionFields, signIn, userOrg } from './support/app';

const KEY_PATTERN = /^mk_live_[A-Za-z0-9_-]{43}$/;

async function orgClients(orgId: string): Promise<{ id: string; name: string }[]> {
  return query('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name, id', [orgId]);
}

async function createKey(page: Page, input: { name: string; scopes: string[]; clients?: string[] }): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(input.name);
  for (const scope of input.scopes) await page.getByRole('checkbox', { name: scope }).check();
  if (input.clients) {
    await page.getByRole('radio', { name: 'Only these clients' }).check();
    const list = page.getByRole('group', { name: 'Clients the key may read' });
    for (const client of input.clients) await list.getByRole('checkbox', { name: client, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Create key' }).click();
}

test('an admin creates a restricted key, copies it, uses it, revokes it, and it stops working', async ({ page, context, request }, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const admin = await userOrg(ADMIN.email);
  const clients = await orgClients(admin.orgId);
  expect(clients.length).toBeGreaterThanOrEqual(3);
  const chosen = [clients[1]!, clients[2]!];

  await signIn(page, ADMIN.email);
  await createKey(page, { name: 'Reporting bot', scopes: ['ads:read', 'social:read'], clients: chosen.map((c) => c.name) });

  // The show-once dialog: the key, a copy button and the warning.
  const dialog = page.getByRole('dialog', { name: 'Your new key “Reporting bot”' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('It is shown only this once and cannot be shown again');
  const shown = await dialog.getByLabel('API key').inputValue();
  expect(shown).toMatch(KEY_PATTERN);
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(dialog.getByRole('status')).toHaveText('Key copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(shown);
  await saveScreenshot(page, testInfo, 'show-once-dialog');

  // The key reads exactly the chosen clients.
  const allowed = await request.get('/api/v1/clients', { headers: { Authorization: `Bearer ${copied}` } });
  expect(allowed.status()).toBe(200);
  const body = (await allowed.json()) as { data: { id: string; name: string }[] };
  const expected = [...chosen].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  expect(body.data.map((c) => ({ id: c.id, name: c.name }))).toEqual(expected.map((c) => ({ id: c.id, name: c.name })));

  // Stored: the hash, the prefix, the scopes and the restriction, with the admin as creator.
  const [stored] = await query<{ id: string; prefix: string; scopes: string[]; restricted_to_clients: boolean; created_by_id: string }>(
    'SELECT id, prefix, scopes, restricted_to_clients, created_by_id FROM api_keys WHERE org_id = $1 AND name = $2 AND hash = $3',
    [admin.orgId, 'Reporting bot', createHash('sha256').update(copied).digest('hex')],
  );
  expect(stored).toMatchObject({ prefix: copied.slice(0, 12), scopes: ['ads:read', 'social:read'], restricted_to_clients: true, created_by_id: admin.userId });

  await dialog.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(dialog).toBeHidden();

  // The list row and the activity entry.
  const row = page.locator(`tr[data-key-id="${stored!.id}"]`);
  await expect(row.locator('td[data-label="Name"]')).toHaveText(`Reporting bot${stored!.prefix}…Requests and usage`);
  await expect(row.locator('td[data-label="Scopes"]')).toHaveText('ads:readsocial:read');
  await expect(row.locator('td[data-label="Clients"]')).toHaveText(expected.map((c) => c.name).join(', '));
  await expect(row.locator('td[data-label="Created"]')).toContainText(`by ${admin.userName}`);
  await expect(row.locator('td[data-label="Last used"]')).toHaveText('NeverMCP tool calls: None');
  await expect(row.locator('td[data-label="Status"]')).toHaveText('ActiveNever expires');
  await expect(page.locator('.activity li').first()).toContainText(`${admin.userName} created the key Reporting bot (${stored!.prefix}…)`);
  await saveScreenshot(page, testInfo, 'api-key-list', { fullPage: true });

  // A reload never shows the key again, and the URL never carried it.
  expect(page.url()).not.toContain(copied);
  await page.reload();
  expect(await page.content()).not.toContain(copied);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Revoke, with confirmation.
  await row.getByRole('button', { name: 'Revoke Reporting bot' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “Reporting bot”?' });
  await expect(confirm).toContainText('refused with 401');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row.locator('td[data-label="Status"]')).toContainText(`Revoked`);
  await expect(row.locator('td[data-label="Status"]')).toContainText(`by ${admin.userName}`);
  await expect(page.locator('.activity li').first()).toContainText(`${admin.userName} revoked the key Reporting bot`);

  const events = await query<{ action: string; actor_id: string }>(
    "SELECT action, actor_id FROM audit_events WHERE target_type = 'api_key' AND target_id = $1 ORDER BY created_at",
    [stored!.id],
  );
  expect(events).toEqual([
    { action: 'api_key.created', actor_id: admin.userId },
    { action: 'api_key.revoked', actor_id: admin.userId },
  ]);

  const refused = await request.get('/api/v1/clients', { headers: { Authorization: `Bearer ${copied}` } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()['content-type']).toMatch(/^application\/problem\+json/);
  expect(await refused.json()).toMatchObject({ status: 401, code: 'unauthorized' });
});

test('the form explains each problem next to its field and keeps what was typed', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  await page.getByLabel('Name', { exact: true }).fill('Half-filled');
  await page.getByRole('radio', { name: 'Only these clients' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Choose at least one scope.')).toBeVisible();
  await expect(page.getByText('Choose at least one client, or allow all clients.')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Half-filled');
  await saveScreenshot(page, testInfo, 'create-form-errors');
});

test('the pages work on a narrow screen', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ADMIN.email);
  await createKey(page, { name: 'Phone-made key', scopes: ['web:read'] });
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.getByRole('heading', { name: /^Keys/ }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await saveScreenshot(page, testInfo, 'api-key-list-narrow');
});

test('a member sees "ask an admin", and the server refuses a member who posts the form anyway', async ({ browser }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  // The action fields are public: read them from an admin's page, as anyone with the build could.
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, ADMIN.email);
  const createFields = await serverActionFields(adminPage, 'form:has(#key-name)');

  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, MEMBER.email);
  await expect(memberPage.getByRole('heading', { name: 'Ask an admin for a key' })).toBeVisible();
  await expect(memberPage.getByText(admin.userName)).toBeVisible();
  await expect(memberPage.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await saveScreenshot(memberPage, testInfo, 'member-ask-an-admin');

  // Same origin, the member's own session and CSRF token: only the role check is left to refuse it.
  const before = await query('SELECT id FROM api_keys WHERE org_id = $1', [admin.orgId]);
  const status = await memberPage.evaluate(async (fields) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append('csrf_token', (document.querySelector('input[name="csrf_token"]') as HTMLInputElement).value);
    form.append('name', 'Member-made key');
    form.append('scopes', 'ads:read');
    form.append('clientAccess', 'all');
    return (await fetch('/settings/api-keys', { method: 'POST', body: form })).status;
  }, createFields);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(await query('SELECT id FROM api_keys WHERE org_id = $1', [admin.orgId])).toEqual(before);
  expect(await query("SELECT 1 FROM api_keys WHERE name = 'Member-made key'")).toHaveLength(0);
});
