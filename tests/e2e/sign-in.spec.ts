// Dashboard sign-in: the seeded admin and member sign in, the session cookie is locked down, sign-out
// ends the session, failures never tell whether an email exists, and repeated failures are throttled.
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, DEMO_PASSWORD, expectAxeClean, MEMBER, OTHER_ORG_ADMIN, query, saveScreenshot, signIn, userOrg } from './support/app';

const WRONG = 'That email and password do not match an account.';

/**
 * Submits the sign-in form and waits until the page has taken the answer in (the message may be the
 * same as before): the button is enabled again and React has reset the form, emptying the password.
 */
async function attemptSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await answered;
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await expect(page.getByLabel('Password')).toHaveValue('');
}

test('the demo admin signs in with a locked-down session cookie and signs out again', async ({ page, context }) => {
  await signIn(page, ADMIN.email);
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();

  const [cookie] = (await context.cookies()).filter((c) => c.name === 'metrics_session');
  expect(cookie).toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe('Lax');
  expect(cookie!.secure).toBe(false); // APP_URL is plain http here; an https APP_URL makes it Secure
  expect(cookie!.path).toBe('/');
  // Only the SHA-256 of the token is stored.
  const tokenHash = createHash('sha256').update(cookie!.value).digest('hex');
  const { userId } = await userOrg(ADMIN.email);
  expect(await query('SELECT 1 FROM dashboard_sessions WHERE token_hash = $1 AND user_id = $2', [tokenHash, userId])).toHaveLength(1);
  expect(await query('SELECT 1 FROM dashboard_sessions WHERE token_hash = $1', [cookie!.value])).toHaveLength(0);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await context.cookies()).filter((c) => c.name === 'metrics_session')).toHaveLength(0);
  expect(await query('SELECT 1 FROM dashboard_sessions WHERE token_hash = $1', [tokenHash])).toHaveLength(0);
  // Signed out: the settings ask for a sign-in that comes back to them, without saying a session expired.
  await page.goto('/settings/api-keys');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fapi-keys$/);
});

test('the demo member signs in', async ({ page }) => {
  await signIn(page, MEMBER.email);
  await expect(page.getByRole('heading', { name: 'Ask an admin for a key' })).toBeVisible();
});

test('a wrong password and an unknown email get the same answer', async ({ page }, testInfo) => {
  await page.goto('/login');
  await saveScreenshot(page, testInfo, 'sign-in');
  for (const email of [MEMBER.email, 'nobody@demo.agency']) {
    await attemptSignIn(page, email, 'not-the-password');
    await expect(page.locator('p[role="alert"]')).toHaveText(WRONG);
    await expect(page).toHaveURL(/\/login$/);
  }
});

test('after five failures for one email from one network, even the right password has to wait there', async ({ page }) => {
  await page.goto('/login');
  for (let failure = 1; failure <= 5; failure += 1) {
    await attemptSignIn(page, OTHER_ORG_ADMIN.email, `wrong-${failure}`);
    await expect(page.locator('p[role="alert"]')).toHaveText(WRONG);
  }
  await attemptSignIn(page, OTHER_ORG_ADMIN.email, DEMO_PASSWORD);
  await expect(page.locator('p[role="alert"]')).toHaveText(/^Too many failed sign-in attempts from your network\. Wait 1[45] minutes and try again\.$/);
  await expect(page).toHaveURL(/\/login$/);
  // The email is written the way the user typed it: the throttle is per account, not per spelling.
  await attemptSignIn(page, OTHER_ORG_ADMIN.email.toUpperCase(), DEMO_PASSWORD);
  await expect(page.locator('p[role="alert"]')).toHaveText(/^Too many failed sign-in attempts/);
});

test('the sign-in page links home and says what to do without a password', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Metrics API' })).toHaveAttribute('href', '/');
  await expect(page.locator('.auth-help')).toHaveText(
    'Forgot your password? This site has no reset of its own: your agency dashboard account is managed by your organisation, so ask your admin.',
  );
  await expectAxeClean(page);
  await page.getByRole('link', { name: 'Metrics API' }).click();
  await expect(page).toHaveURL(/\/$/);
});
