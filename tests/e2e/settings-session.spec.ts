// A session that ends while a settings page is open: the create-key form keeps what was typed and says
// so, the sign-in page says the session expired and comes back to the page, and the input is filled in
// again there; a revoke posted after the end, and a settings page opened with an ended session, land on
// the same sign-in page and come back. Nothing changes meanwhile.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, DEMO_PASSWORD, endSessionInDatabase, expectAxeClean, query, saveScreenshot, signIn, userOrg } from './support/app';

const EXPIRED = 'Your session expired; sign in again to go back to the page you were on.';

async function signInHere(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('the create-key form posted after the session ended keeps its input through the sign-in', async ({ page, context }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const [client] = await query<{ id: string; name: string }>('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name LIMIT 1', [admin.orgId]);
  await signIn(page, ADMIN.email);
  await page.getByLabel('Name', { exact: true }).fill('Typed before expiry');
  await page.getByRole('checkbox', { name: 'social:read' }).check();
  await page.getByRole('radio', { name: 'Only these clients' }).check();
  await page.getByRole('group', { name: 'Clients the key may read' }).getByRole('checkbox', { name: client!.name, exact: true }).check();
  await page.getByRole('radio', { name: '90 days' }).check();

  await endSessionInDatabase(context);
  await page.getByRole('button', { name: 'Create key' }).click();
  const alert = page.locator('#key-form-error');
  await expect(alert).toHaveText('Your session expired, so the key was not created. Sign in again: what you entered here will be filled in again. Sign in again');
  await expect(alert).toBeFocused();
  // The form still shows what was typed, and nothing was made.
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Typed before expiry');
  await expect(page.getByRole('checkbox', { name: 'social:read' })).toBeChecked();
  expect(await query("SELECT 1 FROM api_keys WHERE name = 'Typed before expiry'")).toEqual([]);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'create-key-session-expired');

  await alert.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fapi-keys&reason=expired$/);
  await expect(page.getByRole('status')).toHaveText('Your session expired; sign in again to go back to the page you were on.');
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'sign-in-session-expired');
  await signInHere(page);

  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByText('You signed in again: what you had entered is filled in. Check it and create the key.')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Typed before expiry');
  await expect(page.getByRole('checkbox', { name: 'social:read' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'ads:read' })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Only these clients' })).toBeChecked();
  await expect(page.getByRole('group', { name: 'Clients the key may read' }).getByRole('checkbox', { name: client!.name, exact: true })).toBeChecked();
  await expect(page.getByRole('radio', { name: '90 days' })).toBeChecked();
  await expectAxeClean(page);

  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const [key] = await query<{ scopes: string[]; restricted_to_clients: boolean; expires_at: Date | null }>(
    "SELECT scopes, restricted_to_clients, expires_at FROM api_keys WHERE name = 'Typed before expiry'",
  );
  expect(key).toMatchObject({ scopes: ['social:read'], restricted_to_clients: true });
  expect(key!.expires_at).not.toBeNull();
  // Used once: the next visit shows an empty form.
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
});

test('a revoke posted after the session ended lands on the sign-in page, which comes back to the keys', async ({ page, context }) => {
  await signIn(page, ADMIN.email);
  await page.getByLabel('Name', { exact: true }).fill('Revoked too late');
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();

  // The browser dropped the cookie, as it does when the session's time is up.
  await context.clearCookies({ name: 'metrics_session' });
  await page.getByRole('button', { name: 'Revoke Revoked too late' }).click();
  await page.getByRole('dialog', { name: 'Revoke “Revoked too late”?' }).getByRole('button', { name: 'Revoke key' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fapi-keys&reason=expired$/);
  await expect(page.getByRole('status')).toHaveText(EXPIRED);
  expect(await query("SELECT revoked_at FROM api_keys WHERE name = 'Revoked too late'")).toEqual([{ revoked_at: null }]);
  await signInHere(page);
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('button', { name: 'Revoke Revoked too late' })).toBeVisible();
});

test('a settings page opened with an ended session asks to sign in and comes back; without a session it just asks', async ({ page, context }, testInfo) => {
  await signIn(page, ADMIN.email);
  await endSessionInDatabase(context);
  await page.goto('/settings/connected-apps');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fconnected-apps&reason=expired$/);
  await expect(page.getByRole('status')).toHaveText(EXPIRED);
  await saveScreenshot(page, testInfo, 'sign-in-returning-to-connected-apps');
  await signInHere(page);
  await expect(page).toHaveURL(/\/settings\/connected-apps$/);
  await expect(page.getByRole('heading', { name: 'Connected apps', level: 1 })).toBeVisible();

  await context.clearCookies();
  await page.goto('/settings/connected-apps');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fconnected-apps$/);
  await expect(page.getByRole('status')).toHaveCount(0);
  await expect(page.getByText('Use your agency dashboard account to manage API keys and connected apps.')).toBeVisible();
});
