// MCP clients connecting through OAuth, end to end: a real client library (oauth4webapi) in the test,
// the consent screen clicked in Chromium, the running server in between. Covers a dynamically
// registered client on a random loopback port (sign-in on the way, organisation picker, keyboard
// only), a Client ID Metadata Document served by a local https server, a `cursor://` app redirect, and
// Deny. Token death is proved with verifyAccessToken (what the MCP door calls) and the token endpoint.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { closeDb } from '../../lib/db';
import { verifyAccessToken } from '../../lib/oauth/verify';
import { authorizationUrl, discover, exchangeCode, insecure, oauthError, refresh, register } from '../support/oauth-flow';
import { ADMIN, DEMO_PASSWORD, MEMBER, expectAxeClean, query, saveScreenshot, signIn, userOrg } from './support/app';
import { serveClientMetadata } from './support/client-metadata';
import { loopbackApp } from './support/loopback-app';

const PRM_PATH = '/.well-known/oauth-protected-resource/api/mcp';

test.afterAll(async () => {
  await closeDb();
});

/** Discovery as an MCP client does it: the protected-resource metadata of the MCP endpoint names the authorization server. */
async function discoverFromMcp(baseURL: string): Promise<oauth.AuthorizationServer> {
  const prm = await fetch(new URL(PRM_PATH, baseURL));
  expect(prm.status).toBe(200);
  const metadata = (await prm.json()) as { resource: string; authorization_servers: string[] };
  expect(metadata.resource).toBe(`${baseURL}/api/mcp`);
  expect(metadata.authorization_servers).toEqual([baseURL]);
  return discover(metadata.authorization_servers[0]!);
}

/** The URL the provider sends the browser to after the consent answer (read from the Location header). */
async function answerConsent(page: Page, button: 'Allow' | 'Deny'): Promise<URL> {
  const resumed = page.waitForResponse((response) => /\/oauth\/authorize\/[^/]+$/.test(new URL(response.url()).pathname) && response.status() === 303);
  const choice = page.getByRole('button', { name: button, exact: true });
  // Keyboard only: the buttons are reachable and pressable without a pointer.
  await choice.focus();
  await page.keyboard.press('Enter');
  const callback = new URL((await resumed).headers().location!);
  // The browser goes on to an http callback (a loopbackApp, ./support/loopback-app.ts): once it has
  // arrived, a navigation the test starts next cannot be cut short by it (seen on a busy machine). An
  // app scheme goes nowhere.
  if (callback.protocol === 'http:') await page.waitForURL(callback.href);
  return callback;
}

async function signInOnTheWay(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(/\/login\?next=%2Fconsent%2F/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/consent\/[A-Za-z0-9_-]+$/);
}

async function expectGrantDead(as: oauth.AuthorizationServer, client: oauth.Client, tokens: oauth.TokenEndpointResponse[]): Promise<void> {
  for (const token of tokens) {
    expect(await verifyAccessToken(token.access_token)).toBeNull();
    expect(await oauthError(refresh(as, client, token.refresh_token!))).toBe('invalid_grant');
  }
}

test('a registered client on a random loopback port: sign-in, consent, code, refresh, and reuse revokes the grant', async ({ page, baseURL }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const [otherOrg] = await query<{ id: string; name: string }>('SELECT id, name FROM organizations WHERE id <> $1 ORDER BY name LIMIT 1', [admin.orgId]);
  const [ownOrg] = await query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [admin.orgId]);
  // A second organisation for the admin, so that the consent screen asks which one.
  const membershipId = randomUUID();
  await query(`INSERT INTO memberships (id, org_id, user_id, role, created_at) VALUES ($1, $2, $3, 'member', now())`, [membershipId, otherOrg!.id, admin.userId]);
  const app = await loopbackApp();
  try {
    const as = await discoverFromMcp(baseURL!);
    const client = await register(as, { client_name: 'Claude Code', redirect_uris: ['http://127.0.0.1:33418/callback'] });
    expect(client.application_type).toBe('native');
    // Another port than the registered one (RFC 8252 §7.3).
    const { redirect } = app;
    const start = await authorizationUrl(as, client.client_id, redirect, { scope: null });

    await page.goto(start.url.href);
    await signInOnTheWay(page, ADMIN.email);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Allow Claude Code to read your data?');
    await expect(page.getByText(/identifies itself as Claude Code from 127\.0\.0\.1:\d+/)).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'ad accounts, campaigns' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Facebook Pages and Instagram' })).toBeVisible();
    await expect(page.getByText('After you answer, you go back to the app on this device.')).toBeVisible();
    const picker = page.getByLabel('Organisation');
    await expect(picker.getByRole('option')).toHaveText([ownOrg!.name, otherOrg!.name]);
    await expect(picker).toHaveValue(admin.orgId);
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, 'oauth-consent-organisation-picker', { fullPage: true });

    const callback = await answerConsent(page, 'Allow');
    expect(`${callback.origin}${callback.pathname}`).toBe(redirect);
    expect(callback.searchParams.get('iss')).toBe(baseURL);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);

    const tokens = await exchangeCode(as, client, callback, start, redirect);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'ads:read social:read' });
    const context = await verifyAccessToken(tokens.access_token);
    expect(context).toMatchObject({ kind: 'oauth_grant', clientName: 'Claude Code', userId: admin.userId, orgId: admin.orgId, clientIds: null });

    const rotated = await refresh(as, client, tokens.refresh_token!);
    expect(await verifyAccessToken(rotated.access_token)).toMatchObject({ grantId: context!.grantId });
    const next = await refresh(as, client, rotated.refresh_token!);
    // The first refresh token again, after its successor was used: a replay. The grant and every token of it die.
    expect(await oauthError(refresh(as, client, tokens.refresh_token!))).toBe('invalid_grant');
    await expectGrantDead(as, client, [tokens, rotated, next]);
    const revocation = await oauth.revocationRequest(as, client, oauth.None(), rotated.access_token, insecure);
    expect(revocation.status).toBe(200);
    expect(await query(`SELECT 1 FROM oauth_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [context!.grantId])).toHaveLength(0);
  } finally {
    await query('DELETE FROM memberships WHERE id = $1', [membershipId]);
    await app.close();
  }
});

test('a client identified by its metadata document (device_code grant and all) connects on any loopback port', async ({ page, baseURL }, testInfo) => {
  const member = await userOrg(MEMBER.email);
  const metadata = await serveClientMetadata((clientId) => ({
    client_id: clientId,
    client_name: 'Visual Studio Code',
    redirect_uris: ['http://127.0.0.1:33418/callback'],
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }));
  const app = await loopbackApp();
  try {
    const as = await discoverFromMcp(baseURL!);
    const client: oauth.Client = { client_id: metadata.clientId, token_endpoint_auth_method: 'none' };
    const { redirect } = app;
    const start = await authorizationUrl(as, client.client_id, redirect, { resource: `${baseURL}/api/mcp/` });

    await page.goto(start.url.href);
    await signInOnTheWay(page, MEMBER.email);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Allow Visual Studio Code to read your data?');
    await expect(page.getByText(`identifies itself as Visual Studio Code from ${new URL(metadata.clientId).host}`)).toBeVisible();
    await expect(page.getByText(/^Organisation:/)).toBeVisible();
    await expectAxeClean(page);
    await saveScreenshot(page, testInfo, 'oauth-consent-metadata-document', { fullPage: true });
    const callback = await answerConsent(page, 'Allow');

    const tokens = await exchangeCode(as, client, callback, start, redirect);
    const [access] = await query<{ clientId: string }>(
      `SELECT client_id AS "clientId" FROM member_client_access a JOIN memberships m ON m.id = a.membership_id WHERE m.user_id = $1 AND m.org_id = $2 ORDER BY client_id`,
      [member.userId, member.orgId],
    );
    expect((await verifyAccessToken(tokens.access_token))?.clientIds).toContain(access!.clientId);
    const rotated = await refresh(as, client, tokens.refresh_token!);
    const next = await refresh(as, client, rotated.refresh_token!);
    expect(await oauthError(refresh(as, client, tokens.refresh_token!))).toBe('invalid_grant');
    await expectGrantDead(as, client, [tokens, rotated, next]);
    // The document was served with max-age=300: every use since the first came from the cache.
    const again = await authorizationUrl(as, client.client_id, redirect);
    await page.goto(again.url.href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Allow Visual Studio Code to read your data?');
    expect(metadata.fetches()).toBe(1);
  } finally {
    await metadata.close();
    await app.close();
  }
});

test('a cursor:// redirect: the code is read from the Location header; Deny answers access_denied', async ({ page, baseURL }, testInfo) => {
  const as = await discoverFromMcp(baseURL!);
  const redirect = 'cursor://anysphere.cursor-mcp/oauth/callback';
  const client = await register(as, { client_name: 'Cursor', redirect_uris: [redirect, 'http://localhost:8787/callback'] });

  const start = await authorizationUrl(as, client.client_id, redirect);
  await page.goto(start.url.href);
  await signInOnTheWay(page, ADMIN.email);
  await expect(page.getByText('identifies itself as Cursor from cursor://anysphere.cursor-mcp')).toBeVisible();
  await expect(page.getByText('After you answer, you go back to the app on this device.')).toBeVisible();
  await saveScreenshot(page, testInfo, 'oauth-consent-app-scheme');
  const callback = await answerConsent(page, 'Allow');
  expect(`${callback.protocol}//${callback.host}${callback.pathname}`).toBe(redirect);
  const tokens = await exchangeCode(as, client, callback, start, redirect);
  expect(await verifyAccessToken(tokens.access_token)).toMatchObject({ clientName: 'Cursor' });

  // The same browser, signed in: straight to consent, and this time Deny. In a new tab: Chromium
  // submits no more forms in a tab whose navigation it handed to an app scheme with no app behind it.
  const tab = await page.context().newPage();
  const denied = await authorizationUrl(as, client.client_id, redirect);
  await tab.goto(denied.url.href);
  await expect(tab).toHaveURL(/\/consent\/[A-Za-z0-9_-]+$/);
  const answer = await answerConsent(tab, 'Deny');
  expect(answer.searchParams.get('error')).toBe('access_denied');
  expect(answer.searchParams.get('state')).toBe(denied.state);
  expect(await oauthError(exchangeCode(as, client, answer, denied, redirect))).toBe('access_denied');
});

test('the consent screen cannot be framed and refuses a forged answer', async ({ page, baseURL }) => {
  const as = await discoverFromMcp(baseURL!);
  const client = await register(as, { client_name: 'Framed', redirect_uris: ['http://127.0.0.1:33418/callback'] });
  const start = await authorizationUrl(as, client.client_id, 'http://127.0.0.1:33418/callback');
  await page.goto(start.url.href);
  await signInOnTheWay(page, ADMIN.email);
  // page.request shares the browser's cookies (the session and the interaction cookie).
  const consent = await page.request.get(page.url(), { maxRedirects: 0 });
  expect(consent.status()).toBe(200);
  expect(consent.headers()['x-frame-options']).toBe('DENY');
  expect(consent.headers()['content-security-policy']).toBe("frame-ancestors 'none'");
  // A post from another origin, and one without the CSRF token: nothing is decided.
  const decision = `${page.url()}/decision`;
  const foreign = await page.request.post(decision, { headers: { origin: 'https://attacker.example' }, form: { decision: 'allow' }, maxRedirects: 0 });
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).toBe('Cross-origin form submission refused.');
  const noToken = await page.request.post(decision, { headers: { origin: baseURL! }, form: { decision: 'allow' }, maxRedirects: 0 });
  expect(noToken.status()).toBe(403);
  expect(await noToken.text()).toBe('Missing or invalid CSRF token.');
  await expect(page.getByRole('button', { name: 'Allow', exact: true })).toBeVisible();
});

test('Settings → Connected apps: a member sees their own app, an admin every app, and revoking works on the next request', async ({ page, browser, baseURL }, testInfo) => {
  const as = await discoverFromMcp(baseURL!);

  /** Connects a new app as `email` in a fresh browser: its client and tokens. */
  async function connectAs(email: string, name: string) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const app = await loopbackApp();
    try {
      const client = await register(as, { client_name: name, redirect_uris: ['http://127.0.0.1:33418/callback'] });
      const start = await authorizationUrl(as, client.client_id, app.redirect);
      await tab.goto(start.url.href);
      await signInOnTheWay(tab, email);
      const callback = await answerConsent(tab, 'Allow');
      return { client, tokens: await exchangeCode(as, client, callback, start, app.redirect) };
    } finally {
      await context.close();
      await app.close();
    }
  }

  const suffix = randomUUID().slice(0, 8);
  const memberApp = await connectAs(MEMBER.email, `Member assistant ${suffix}`);
  const adminApp = await connectAs(ADMIN.email, `Admin assistant ${suffix}`);

  // The member: only their own app.
  await signIn(page, MEMBER.email);
  await page.getByRole('link', { name: 'Connected apps' }).click();
  await expect(page.getByRole('heading', { name: 'Connected apps', level: 1 })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Member assistant ${suffix}` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Admin assistant ${suffix}` })).toHaveCount(0);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-apps-member', { fullPage: true });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The admin: both, with who approved them; revokes the member's.
  await signIn(page, ADMIN.email);
  await page.goto('/settings/connected-apps');
  const memberRow = page.getByRole('row').filter({ hasText: `Member assistant ${suffix}` });
  const { userName: memberName } = await userOrg(MEMBER.email);
  await expect(memberRow).toContainText(memberName);
  await expect(memberRow).toContainText('ads:read');
  await expect(memberRow).toContainText('social:read');
  await expect(page.getByRole('row').filter({ hasText: `Admin assistant ${suffix}` })).toBeVisible();
  expect(await verifyAccessToken(memberApp.tokens.access_token)).not.toBeNull();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-apps-admin', { fullPage: true });

  await memberRow.getByRole('button', { name: `Revoke Member assistant ${suffix}` }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke “Member assistant ${suffix}”?` });
  await expect(dialog).toBeVisible();
  await saveScreenshot(page, testInfo, 'connected-apps-revoke-dialog');
  await dialog.getByRole('button', { name: 'Revoke access' }).click();
  await expect(memberRow).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: `revoked the app Member assistant ${suffix}` })).toBeVisible();

  // The very next request with the member's tokens is refused; the admin's app is untouched.
  await expectGrantDead(as, memberApp.client, [memberApp.tokens]);
  expect(await verifyAccessToken(adminApp.tokens.access_token)).not.toBeNull();
});
