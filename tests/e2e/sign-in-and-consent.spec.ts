// The sign-in page, the consent screen of an OAuth sign-in and the sign-in throttle, where the
// walk-through found them wanting: the sign-in page names the app asking (not "to manage API keys"),
// the consent screen names the clients the app will see (a member's own list, an admin's every client)
// and lets someone else sign in instead, and a throttled sign-in counts down to the next try.
import { createHash, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { authorizationUrl, discover, register } from '../support/oauth-flow';
import { ADMIN, DEMO_PASSWORD, MEMBER, expectAxeClean, query, saveScreenshot, userOrg } from './support/app';

/** Starts, in the browser, an authorization of a newly registered loopback client; returns the host of its redirect. */
async function startAuthorization(page: Page, baseURL: string, name: string): Promise<{ host: string }> {
  const as = await discover(baseURL);
  const client = await register(as, { client_name: name, redirect_uris: ['http://127.0.0.1:33418/callback'] });
  const port = 20000 + Math.floor(Math.random() * 40000);
  const start = await authorizationUrl(as, client.client_id, `http://127.0.0.1:${port}/callback`);
  await page.goto(start.url.href);
  return { host: `127.0.0.1:${port}` };
}

async function signInAs(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('at 390 px, the sign-in page of an OAuth sign-in names the app asking and its host', async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const name = `Claude Code ${randomUUID().slice(0, 6)}`;
  const { host } = await startAuthorization(page, baseURL!, name);
  await expect(page).toHaveURL(/\/login\?next=%2Fconsent%2F[A-Za-z0-9_-]+$/);
  const main = page.getByRole('main');
  await expect(main).toContainText(`${name} from ${host} asks to read your agency’s data. Sign in with your agency dashboard account to see what it asks for and answer.`);
  await expect(main).not.toContainText('manage API keys');
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'sign-in-for-an-app-390');

  // A plain sign-in still says what the account is for.
  await page.goto('/login');
  await expect(page.getByRole('main')).toContainText('Use your agency dashboard account to manage API keys and connected apps.');
});

test('the consent screen names the clients the app will see, and another person can sign in instead', async ({ page, baseURL }, testInfo) => {
  const member = await userOrg(MEMBER.email);
  const admin = await userOrg(ADMIN.email);
  const clients = await query<{ name: string }>(
    `SELECT c.name FROM member_client_access a JOIN memberships m ON m.id = a.membership_id JOIN clients c ON c.id = a.client_id
      WHERE m.user_id = $1 AND m.org_id = $2 ORDER BY c.name`,
    [member.userId, member.orgId],
  );
  expect(clients.length).toBeGreaterThan(0);
  const [org] = await query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [member.orgId]);

  await startAuthorization(page, baseURL!, 'Shared assistant');
  await signInAs(page, MEMBER.email);
  await expect(page).toHaveURL(/\/consent\/[A-Za-z0-9_-]+$/);
  const consentUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Clients it will see', level: 2 })).toBeVisible();
  await expect(page.getByText(`The ${clients.length === 1 ? 'client' : `${clients.length} clients`} of ${org!.name} shared with you:`)).toBeVisible();
  await expect(page.getByRole('list', { name: `Clients of ${org!.name}` }).getByRole('listitem')).toHaveText(clients.map((c) => c.name));
  await expect(page.getByText(`Signed in as ${MEMBER.email}.`)).toBeVisible();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'consent-member-clients', { fullPage: true });

  const [memberCookie] = (await page.context().cookies()).filter((c) => c.name === 'metrics_session');
  await page.getByRole('link', { name: 'Not you? Use another account' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fconsent%2F[A-Za-z0-9_-]+&reason=switch$/);
  await expect(page.getByText(`You are signed in as ${MEMBER.email}. Sign in with another account to continue as that person.`)).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Shared assistant from 127.0.0.1:');
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'sign-in-switch-account');
  await signInAs(page, ADMIN.email);

  await expect(page).toHaveURL(consentUrl);
  await expect(page.getByText(`Signed in as ${ADMIN.email}.`)).toBeVisible();
  await expect(page.getByText(`Every client of ${org!.name}, including clients added later: you are an admin there.`)).toBeVisible();
  // The member's session ended with the switch: one person per browser.
  const memberHash = createHash('sha256').update(memberCookie!.value).digest('hex');
  expect(await query('SELECT 1 FROM dashboard_sessions WHERE token_hash = $1', [memberHash])).toEqual([]);
  expect(await query('SELECT 1 FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE u.id = $1 AND s.expires_at > now()', [admin.userId])).not.toEqual([]);
  await expectAxeClean(page);
});

test('a throttled sign-in counts down to the moment it may be tried again', async ({ page }, testInfo) => {
  const email = `countdown-${randomUUID().slice(0, 8)}@nowhere.example`;
  await page.goto('/login');
  const alert = page.locator('p[role="alert"]');
  const throttled = async () => (await alert.count()) > 0 && /^Too many/.test((await alert.textContent()) ?? '');
  // Failures until the throttle refuses (its thresholds are the throttle's business, not this test's).
  for (let attempt = 0; attempt < 30 && !(await throttled()); attempt += 1) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await answered;
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  }
  await expect(alert).toHaveText(/^Too many failed sign-in attempts.* Wait \d+ minutes? and try again\.$/);
  const timer = page.getByRole('timer');
  await expect(timer).toHaveText(/^You can try again in (\d+ min \d\d|\d+) s\.$/);
  const seconds = (text: string | null) => {
    const [, minutes, rest] = /(?:(\d+) min )?(\d+) s/.exec(text ?? '')!;
    return Number(minutes ?? 0) * 60 + Number(rest);
  };
  const first = seconds(await timer.textContent());
  const stated = Number(/Wait (\d+) minute/.exec((await alert.textContent()) ?? '')![1]);
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(stated * 60);
  // It counts down: a later reading is smaller.
  await expect.poll(async () => seconds(await timer.textContent()), { timeout: 15_000 }).toBeLessThan(first);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'sign-in-countdown');
});
