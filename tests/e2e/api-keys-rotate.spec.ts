// Rotating, renaming and sudo mode on Settings → API keys, in a real browser against the real server:
// a rotated key keeps working through its overlap and is refused 401 after it (the overlap's end is
// moved in the database rather than waited for); a key is renamed and given a note; creating,
// rotating and revoking ask for the password again once the session's sign-in is older than
// SUDO_MAX_AGE_MINUTES (made so by moving authenticated_at back), and the server refuses without it.
import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { INVALID_KEY_DETAIL } from '@/lib/contract/errors';
import { expect, test } from './support/fixtures';
import { ADMIN, DEMO_PASSWORD, expectAxeClean, query, saveScreenshot, serverActionFields, signIn, userOrg } from './support/app';

const KEY_PATTERN = /^mk_live_[A-Za-z0-9_-]{43}$/;
/** How the page writes a moment it gives to the second (UTC). */
const toTheSecond = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: `Your new key “${name}”` });
  const key = await dialog.getByLabel('API key').inputValue();
  expect(key).toMatch(KEY_PATTERN);
  await dialog.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(dialog).toBeHidden();
  return key;
}

async function keyRow(key: string): Promise<{ id: string; prefix: string; name: string; note: string | null; retires_at: Date | null; revoked_at: Date | null }> {
  const [row] = await query<{ id: string; prefix: string; name: string; note: string | null; retires_at: Date | null; revoked_at: Date | null }>(
    'SELECT id, prefix, name, note, retires_at, revoked_at FROM api_keys WHERE hash = $1',
    [hashOf(key)],
  );
  expect(row, 'the key is stored').toBeDefined();
  return row!;
}

/** Makes the browser's session one whose password was proved `minutes` ago. */
async function ageSignIn(context: BrowserContext, minutes: number): Promise<void> {
  const [cookie] = (await context.cookies()).filter((c) => c.name === 'metrics_session');
  const rows = await query(`UPDATE dashboard_sessions SET authenticated_at = now() - make_interval(mins => $2) WHERE token_hash = $1 RETURNING 1`, [
    hashOf(cookie!.value),
    minutes,
  ]);
  expect(rows).toHaveLength(1);
}

async function sessionAuthenticatedAt(context: BrowserContext): Promise<Date> {
  const [cookie] = (await context.cookies()).filter((c) => c.name === 'metrics_session');
  const [row] = await query<{ authenticated_at: Date }>('SELECT authenticated_at FROM dashboard_sessions WHERE token_hash = $1', [hashOf(cookie!.value)]);
  return row!.authenticated_at;
}

test('rotating a key shows its successor once; the old key works through the overlap and is refused 401 after it', async ({ page, request }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const oldKey = await createKey(page, 'Rotating bot');
  const old = await keyRow(oldKey);
  const oldRow = page.locator(`tr[data-key-id="${old.id}"]`);

  const opened = Date.now();
  await oldRow.getByRole('button', { name: 'Rotate Rotating bot' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate “Rotating bot”?' });
  await expect(rotate).toBeVisible();
  // The dialog opens on the choice made for the person (not on "Stop it now"), and says when each overlap ends.
  await expect(rotate.getByRole('radio', { name: '24 hours' })).toBeChecked();
  await expect(rotate.getByRole('radio', { name: '24 hours' })).toBeFocused();
  await expect(rotate.locator('label', { hasText: 'Stop it now' }).locator('.hint')).toHaveText('Requests with the old key are refused at once.');
  for (const [label, hours] of [['1 hour', 1], ['24 hours', 24], ['7 days', 168]] as const) {
    const until = rotate.locator('label', { hasText: label }).locator('.hint');
    await expect(until).toHaveText(/^Until \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/);
    const end = Date.parse((await until.locator('time').getAttribute('datetime'))!);
    expect(end, label).toBeGreaterThanOrEqual(opened + hours * 3_600_000);
    expect(end, label).toBeLessThanOrEqual(Date.now() + hours * 3_600_000);
  }
  await expectAxeClean(page);
  await rotate.getByRole('radio', { name: '1 hour' }).check();
  const before = Date.now();
  await rotate.getByRole('button', { name: 'Rotate key' }).click();

  // The successor, shown once in the new-key dialog.
  const shown = page.getByRole('dialog', { name: 'Your new key “Rotating bot”' });
  await expect(shown).toBeVisible();
  await expect(rotate).toBeHidden();
  const newKey = await shown.getByLabel('API key').inputValue();
  expect(newKey).toMatch(KEY_PATTERN);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'rotated-key-dialog');
  await shown.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(shown).toBeHidden();

  const successor = await keyRow(newKey);
  const retiring = await keyRow(oldKey);
  expect(successor.name).toBe('Rotating bot');
  expect(retiring.retires_at!.getTime()).toBeGreaterThanOrEqual(before + 3_600_000 - 1_000);
  expect(retiring.retires_at!.getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);

  // Both linked in the list and in the activity.
  const newRow = page.locator(`tr[data-key-id="${successor.id}"]`);
  await expect(newRow.locator('td[data-label="Name"]')).toContainText(`rotated from ${old.prefix}…`);
  await expect(newRow.locator('td[data-label="Status"]')).toHaveText('ActiveNever expires');
  // The retiring key says when it stops, to the second, and never that it does not expire.
  const retiresAt = toTheSecond.format(retiring.retires_at!);
  await expect(oldRow.locator('td[data-label="Status"]')).toHaveText(`RetiringRetires at ${retiresAt}, replaced by ${successor.prefix}…`);
  // A retiring key is not rotated again (that would fork it); it can still be revoked.
  await expect(oldRow.getByRole('button', { name: 'Rotate Rotating bot' })).toHaveCount(0);
  await expect(oldRow.getByRole('button', { name: 'Revoke Rotating bot' })).toBeVisible();
  await expect(page.locator('.activity li').first()).toContainText(
    `${admin.userName} rotated the key Rotating bot (${old.prefix}…): ${successor.prefix}… replaces it, and ${old.prefix}… retires at ${retiresAt} UTC`,
  );
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'rotated-key-list', { fullPage: true });

  // During the overlap both keys work.
  for (const key of [oldKey, newKey]) expect((await request.get('/api/v1/me', { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);

  // The overlap over: the old key gets the 401 of a key that never existed.
  await query("UPDATE api_keys SET retires_at = now() - interval '1 second' WHERE id = $1", [old.id]);
  const refused = await request.get('/api/v1/me', { headers: { Authorization: `Bearer ${oldKey}` } });
  const unknown = await request.get('/api/v1/me', { headers: { Authorization: `Bearer mk_live_${'Q'.repeat(43)}` } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toBe(unknown.headers()['www-authenticate']);
  // Alike but for the request's own id.
  const withoutInstance = (body: Record<string, unknown>) => ({ ...body, instance: null });
  const refusal = (await refused.json()) as Record<string, unknown>;
  expect(withoutInstance(refusal)).toEqual(withoutInstance((await unknown.json()) as Record<string, unknown>));
  // Which says, as for any key refused, that a rotated key has a successor and who makes keys.
  expect(refusal.detail).toBe(INVALID_KEY_DETAIL);
  expect((await request.get('/api/v1/me', { headers: { Authorization: `Bearer ${newKey}` } })).status()).toBe(200);

  await page.reload();
  const [retired] = await query<{ retires_at: Date }>('SELECT retires_at FROM api_keys WHERE id = $1', [old.id]);
  await expect(oldRow.locator('td[data-label="Status"]')).toHaveText(`RetiredRetired at ${toTheSecond.format(retired!.retires_at)}, replaced by ${successor.prefix}…`);
  await expectAxeClean(page);
});

test('a key is renamed and given a note; a bad note is explained in the dialog; the change is in the activity', async ({ page }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const key = await createKey(page, 'Unnamed bot');
  const { id, prefix } = await keyRow(key);
  const row = page.locator(`tr[data-key-id="${id}"]`);

  await row.getByRole('button', { name: 'Edit Unnamed bot' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit “Unnamed bot”' });
  await expect(edit.getByLabel('Name')).toHaveValue('Unnamed bot');
  await edit.getByLabel('Name').fill('Looker Studio');
  // A right-to-left override would make the note display in another order than it is stored.
  await edit.getByLabel('Note (optional)').fill('Backup \u202Etxt.exe');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('The note must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B).')).toBeVisible();
  await expect(edit.getByLabel('Note (optional)')).toHaveAttribute('aria-invalid', 'true');
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'edit-key-error');
  expect((await keyRow(key)).name).toBe('Unnamed bot');

  await edit.getByLabel('Note (optional)').fill('Runs the Monday report on the reporting server.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByRole('status')).toHaveText('Saved.');
  await expect(row.locator('td[data-label="Name"]')).toHaveText(`Looker Studio${prefix}…Runs the Monday report on the reporting server.Requests and usage`);
  expect(await keyRow(key)).toMatchObject({ name: 'Looker Studio', note: 'Runs the Monday report on the reporting server.' });
  await expect(page.locator('.activity li').first()).toContainText(`${admin.userName} edited the key Looker Studio (${prefix}…), formerly Unnamed bot`);
  const [event] = await query<{ actor_id: string; details: unknown }>("SELECT actor_id, details FROM audit_events WHERE target_id = $1 AND action = 'api_key.updated'", [id]);
  expect(event).toEqual({ actor_id: admin.userId, details: { name: 'Looker Studio', prefix, previousName: 'Unnamed bot', noteChanged: true } });
  // The filter finds a key by its note.
  await page.getByLabel('Filter keys').fill('monday report');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.locator('.key-table tbody tr')).toHaveCount(1);
  await expectAxeClean(page);
});

test('sudo mode: with an old sign-in, creating, rotating and revoking ask for the password, then go on', async ({ page, context }, testInfo) => {
  await signIn(page, ADMIN.email);
  const key = await createKey(page, 'Sudo bot');
  const { id } = await keyRow(key);
  await ageSignIn(context, 16);
  await page.reload();

  // Create: the password is asked for first; a wrong one is refused, the right one creates the key.
  await page.getByLabel('Name', { exact: true }).fill('Created in sudo mode');
  await page.getByRole('checkbox', { name: 'web:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const sudo = page.getByRole('dialog', { name: 'Confirm your password' });
  await expect(sudo).toBeVisible();
  await expect(sudo.getByLabel('Password')).toBeFocused();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'sudo-dialog');
  expect(await query("SELECT 1 FROM api_keys WHERE name = 'Created in sudo mode'")).toHaveLength(0);
  await sudo.getByLabel('Password').fill('not-the-password');
  await sudo.getByRole('button', { name: 'Confirm' }).click();
  await expect(sudo.getByRole('alert')).toHaveText('That password is not right.');
  await expectAxeClean(page);
  await sudo.getByLabel('Password').fill(DEMO_PASSWORD);
  const confirmedFrom = Date.now();
  await sudo.getByRole('button', { name: 'Confirm' }).click();
  await expect(sudo).toBeHidden();
  const created = page.getByRole('dialog', { name: 'Your new key “Created in sudo mode”' });
  await expect(created).toBeVisible();
  expect((await sessionAuthenticatedAt(context)).getTime()).toBeGreaterThanOrEqual(confirmedFrom - 1_000);
  await created.getByRole('button', { name: 'I have stored the key' }).click();

  // Rotate, with the sign-in old again.
  await ageSignIn(context, 20);
  await page.reload();
  const row = page.locator(`tr[data-key-id="${id}"]`);
  await row.getByRole('button', { name: 'Rotate Sudo bot' }).click();
  await page.getByRole('dialog', { name: 'Rotate “Sudo bot”?' }).getByRole('button', { name: 'Rotate key' }).click();
  await expect(sudo).toBeVisible();
  await sudo.getByLabel('Password').fill(DEMO_PASSWORD);
  await sudo.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('dialog', { name: 'Your new key “Sudo bot”' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Your new key “Sudo bot”' }).getByRole('button', { name: 'I have stored the key' }).click();
  expect((await keyRow(key)).retires_at).not.toBeNull();

  // Revoke (the retiring key), with the sign-in old again.
  await ageSignIn(context, 20);
  await page.reload();
  await row.getByRole('button', { name: 'Revoke Sudo bot' }).click();
  await page.getByRole('dialog', { name: 'Revoke “Sudo bot”?' }).getByRole('button', { name: 'Revoke key' }).click();
  await expect(sudo).toBeVisible();
  // Cancelling changes nothing.
  await sudo.getByRole('button', { name: 'Cancel' }).click();
  await expect(sudo).toBeHidden();
  expect((await keyRow(key)).revoked_at).toBeNull();
  await page.getByRole('dialog', { name: 'Revoke “Sudo bot”?' }).getByRole('button', { name: 'Revoke key' }).click();
  await sudo.getByLabel('Password').fill(DEMO_PASSWORD);
  await sudo.getByRole('button', { name: 'Confirm' }).click();
  await expect(row.locator('td[data-label="Status"]')).toContainText('Revoked');
  expect((await keyRow(key)).revoked_at).not.toBeNull();
});

test('sudo mode is the server’s rule: a revoke posted with an old sign-in changes nothing and is sent to the password page', async ({ page, context }, testInfo) => {
  await signIn(page, ADMIN.email);
  const key = await createKey(page, 'Server sudo bot');
  const { id } = await keyRow(key);
  // The revoke dialog's form (the rotate dialog's comes first in the row).
  const revokeFields = await serverActionFields(page, `tr[data-key-id="${id}"] dialog form.dialog-actions`);
  await ageSignIn(context, 16);

  // Posted as the page's own form would be, skipping the page's password dialog.
  const answer = await page.evaluate(
    async ({ fields, keyId }) => {
      const form = new FormData();
      for (const [name, value] of fields) form.append(name, value);
      form.append('csrf_token', (document.querySelector('input[name="csrf_token"]') as HTMLInputElement).value);
      form.append('keyId', keyId);
      // Followed: a manual redirect would be opaque to the page.
      const response = await fetch('/settings/api-keys', { method: 'POST', body: form });
      return { redirected: response.redirected, path: new URL(response.url).pathname + new URL(response.url).search };
    },
    { fields: revokeFields, keyId: id },
  );
  expect(answer).toEqual({ redirected: true, path: '/settings/confirm-access?next=%2Fsettings%2Fapi-keys' });
  expect((await keyRow(key)).revoked_at).toBeNull();

  // The password page, as a browser without script would land on it.
  await page.goto('/settings/confirm-access?next=%2Fsettings%2Fapi-keys');
  await expect(page.getByRole('heading', { name: 'Confirm your password' })).toBeVisible();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'confirm-access-page');
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  expect(Date.now() - (await sessionAuthenticatedAt(context)).getTime()).toBeLessThan(60_000);
});
