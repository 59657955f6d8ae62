// A connected app's page and "Revoke all apps", in Chromium: the apps table's columns (no Organisation
// column, the organisation is always the viewer's own), every field of the page (an app identified
// by its metadata document, one registered with the server), its tool calls per day made by a real MCP
// client (the settings pages' one chart), an admin's requests and request log of the app (a member sees
// neither), revoking from the page, revoke all with its confirmation (and cancel), the same 404 for an app
// outside the viewer's reach as for none, and a revoked app's past tool calls still named.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { randomUUID } from 'node:crypto';
import { closeDb } from '../../lib/db';
import { verifyAccessToken } from '../../lib/oauth/verify';
import { authorizationUrl, consentOverHttp, CookieJar, discover, exchangeCode, sessionOf } from '../support/oauth-flow';
import { ADMIN, MEMBER, OTHER_ORG_ADMIN, expectAxeClean, query, saveScreenshot, signIn, userOrg } from './support/app';
import { serveClientMetadata } from './support/client-metadata';
import { callTools, connectRegisteredApp, grantOf, REDIRECT } from './support/connected-app';

test.afterAll(async () => {
  await closeDb();
});

/** An app identified by a metadata document, approved over HTTP by `who`: its grant id and token. */
async function connectMetadataApp(baseURL: string, who: { userId: string; orgId: string }, name: string) {
  const metadata = await serveClientMetadata((clientId) => ({
    client_id: clientId,
    client_name: name,
    redirect_uris: [REDIRECT, 'http://127.0.0.1:33419/other', 'cursor://anysphere.cursor-mcp/oauth/callback'],
    token_endpoint_auth_method: 'none',
  }));
  try {
    const as = await discover(baseURL);
    const client = { client_id: metadata.clientId, token_endpoint_auth_method: 'none' as const };
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const callback = await consentOverHttp(baseURL, new CookieJar(), await sessionOf(who.userId), start.url, { decision: 'allow', orgId: who.orgId });
    const tokens = await exchangeCode(as, client, callback, start, REDIRECT);
    return { clientId: metadata.clientId, token: tokens.access_token, grantId: await grantOf(tokens.access_token) };
  } finally {
    await metadata.close();
  }
}

function fact(page: Page, term: string) {
  return page.locator('dl.facts dt').filter({ hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
}

test('an app’s page shows how it identified itself, its redirect hosts, scopes, reach, approval, last use and tool calls per day', async ({ page, baseURL }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const member = await userOrg(MEMBER.email);
  const name = `Visual Studio Code ${randomUUID().slice(0, 6)}`;
  const app = await connectMetadataApp(baseURL!, admin, name);
  await callTools(baseURL!, app.token, app.grantId, ['list_clients', 'list_clients', 'describe_metrics']);
  const orgClients = await query<{ name: string }>('SELECT name FROM clients WHERE org_id = $1 ORDER BY name, id', [admin.orgId]);
  const today = new Date().toISOString().slice(0, 10);

  await signIn(page, ADMIN.email);
  await page.goto('/settings/connected-apps');
  // No Organisation column: every app listed reads the viewer's own organisation.
  await expect(page.getByRole('region', { name: /^Apps/ }).getByRole('columnheader')).toHaveText(['App', 'Scopes', 'Approved by', 'Connected', 'Last used', 'Tool calls', 'Actions']);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(`/settings/connected-apps/${app.grantId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(fact(page, 'Identified by')).toHaveText(`Its metadata document (Client ID Metadata Document) at ${app.clientId}`);
  await expect(page.getByRole('list', { name: 'Redirect hosts' }).getByRole('listitem')).toHaveText([
    '127.0.0.1 (this device, any port)',
    'cursor://anysphere.cursor-mcp (app on the device)',
  ]);
  await expect(page.getByRole('list', { name: 'Permissions' }).getByRole('listitem')).toHaveText([/^ads:read: Read your ad accounts/, /^social:read: Read your Facebook Pages/]);
  await expect(fact(page, 'Approved by')).toHaveText(admin.userName);
  await expect(fact(page, 'Approved')).toContainText(/\d{4}, \d\d:\d\d UTC$/);
  await expect(fact(page, 'Last used')).toContainText(/\d{4}, \d\d:\d\d UTC$/);
  await expect(page.getByText(/^Every client of .+, including clients added later: .+ is an admin there\./)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Clients it can read' }).getByRole('listitem')).toHaveText(orgClients.map((c) => c.name));
  // Tool calls per day: the settings pages' one chart, stacked by tool, its numbers as a table.
  const first = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const toolCalls = page.getByRole('figure', { name: 'Last 30 days (UTC): 3 tool calls' });
  await expect(toolCalls.getByRole('list', { name: 'Tools' }).getByRole('listitem')).toHaveText(['describe_metrics', 'list_clients']);
  await expect(toolCalls.getByRole('img')).toHaveAccessibleName(
    `Tool calls per day from ${first} to ${today}: 3 in all (1 describe_metrics, 2 list_clients); the busiest day was ${today} with 3.`,
  );
  await expect(toolCalls.locator('rect')).toHaveCount(2);
  await toolCalls.getByText('The numbers per day as a table').click();
  const table = page.getByTestId('tool-calls-table');
  await expect(table.getByRole('columnheader')).toHaveText(['Day', 'describe_metrics', 'list_clients', 'Total']);
  await expect(table.locator('tbody tr')).toHaveCount(30);
  await expect(table.locator('tbody tr').last().getByRole('cell')).toHaveText(['1', '2', '3']);
  await expect(table.locator('tbody tr').last().locator('time')).toHaveAttribute('datetime', today);
  // An admin also sees the app's requests per day and its request log (the shared usage cards).
  await expect.poll(async () => (await query('SELECT 1 FROM request_log WHERE grant_id = $1 AND tool IS NOT NULL', [app.grantId])).length).toBe(3);
  await page.reload();
  await expect(page.getByRole('img', { name: new RegExp(`^Requests of the app ${name} per day from ${first} to ${today}: `) })).toBeVisible();
  const endpoints = page.getByTestId('usage-endpoints');
  await expect(endpoints.getByRole('rowheader').filter({ hasText: /^mcp:(list_clients|describe_metrics)$/ })).toHaveText(['mcp:list_clients', 'mcp:describe_metrics']);
  await page.getByLabel('Endpoint or tool').selectOption('mcp:list_clients');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]endpoint=mcp%3Alist_clients(&|#|$)/);
  await expect(page.getByTestId('request-log').locator('tbody tr')).toHaveCount(2);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-app-detail', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-app-detail-390', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A member's registered app, as the admin sees it: the client_id it registered, the member's clients.
  const registered = await connectRegisteredApp(baseURL!, member, `Claude Code ${randomUUID().slice(0, 6)}`);
  const memberClients = await query<{ name: string }>(
    `SELECT c.name FROM member_client_access a JOIN memberships m ON m.id = a.membership_id JOIN clients c ON c.id = a.client_id
      WHERE m.user_id = $1 AND m.org_id = $2 ORDER BY c.name, c.id`,
    [member.userId, member.orgId],
  );
  await page.goto(`/settings/connected-apps/${registered.grantId}`);
  await expect(fact(page, 'Identified by')).toHaveText(`Registration with this server, as client ${registered.clientId}`);
  await expect(page.getByRole('list', { name: 'Redirect hosts' }).getByRole('listitem')).toHaveText(['127.0.0.1 (this device, any port)']);
  await expect(fact(page, 'Approved by')).toHaveText(member.userName);
  await expect(fact(page, 'Last used')).toHaveText(/^Never$|UTC$/);
  await expect(page.getByRole('list', { name: 'Clients it can read' }).getByRole('listitem')).toHaveText(memberClients.map((c) => c.name));
  await expect(page.getByText('No tool calls in the last 30 days.')).toBeVisible();
  await expectAxeClean(page);

  // The member who approved it sees the app's page without its requests or request log (admins only).
  await page.context().clearCookies();
  await signIn(page, MEMBER.email);
  await page.goto(`/settings/connected-apps/${registered.grantId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Claude Code /);
  await expect(page.getByRole('heading', { name: 'Tool calls per day' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Requests per day' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Request log' })).toHaveCount(0);
  await expectAxeClean(page);
});

test('revoking from an app’s page ends its access, and its past tool calls keep its name', async ({ page, baseURL }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const name = `Cursor ${randomUUID().slice(0, 6)}`;
  const app = await connectRegisteredApp(baseURL!, admin, name);
  await callTools(baseURL!, app.token, app.grantId, ['list_clients']);

  await signIn(page, ADMIN.email);
  await page.goto(`/settings/connected-apps/${app.grantId}`);
  const opener = page.getByRole('button', { name: `Revoke ${name}` });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: `Revoke “${name}”?` });
  await expect(dialog).toBeVisible();
  await expectAxeClean(page);
  await dialog.getByRole('button', { name: 'Revoke access' }).click();
  await expect(page).toHaveURL(/\/settings\/connected-apps$/);
  await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
  expect(await verifyAccessToken(app.token)).toBeNull();
  expect(await query(`SELECT 1 FROM oauth_payloads WHERE model = 'Grant' AND id = $1`, [app.grantId])).toEqual([]);

  const calls = page.getByRole('region', { name: 'Recent tool calls' });
  await expect(calls.getByRole('row').filter({ hasText: `${name} (revoked)` }).locator('td[data-label="Caller"]')).toHaveText(`${name} (revoked)Connected app`);
  await expect(page.getByRole('region', { name: 'Activity' }).getByRole('listitem').first()).toContainText(`${admin.userName} revoked the app ${name}`);
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-apps-revoked-name', { fullPage: true });
  // The page of a revoked app is gone.
  expect((await page.goto(`/settings/connected-apps/${app.grantId}`))?.status()).toBe(404);
});

test('revoke all apps asks first (cancel keeps them, focus stays in the dialog) and revokes only the viewer’s own', async ({ page, baseURL }, testInfo) => {
  const member = await userOrg(MEMBER.email);
  const admin = await userOrg(ADMIN.email);
  const mine = [await connectRegisteredApp(baseURL!, member, 'Member app one'), await connectRegisteredApp(baseURL!, member, 'Member app two')];
  const admins = await connectRegisteredApp(baseURL!, admin, 'Admin app');
  const own = await query<{ id: string }>(`SELECT id FROM oauth_payloads WHERE model = 'Grant' AND account_id = $1 AND org_id = $2 AND (expires_at IS NULL OR expires_at > now())`, [member.userId, member.orgId]);

  await signIn(page, MEMBER.email);
  await page.goto('/settings/connected-apps');
  await expect(page.getByRole('heading', { name: /^Apps/ })).toContainText(String(own.length));
  const opener = page.getByRole('button', { name: 'Revoke all apps' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: `Revoke all ${own.length} of your apps?` });
  await expect(dialog).toBeVisible();
  await expectAxeClean(page);
  await saveScreenshot(page, testInfo, 'connected-apps-revoke-all-dialog');
  // Focus is trapped: Tab from the last button comes back to the first, Shift+Tab the other way.
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  const confirm = dialog.getByRole('button', { name: 'Revoke all apps' });
  await confirm.focus();
  await page.keyboard.press('Tab');
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(confirm).toBeFocused();
  await cancel.click();
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await query(`SELECT 1 FROM oauth_payloads WHERE model = 'Grant' AND id = ANY($1)`, [mine.map((app) => app.grantId)])).toHaveLength(2);

  await opener.click();
  await confirm.click();
  await expect(page.getByText('No app is connected.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Apps/ })).toBeFocused();
  await expect(page.getByRole('heading', { name: /^Apps/ })).toHaveText('Apps');
  await expect(page.getByRole('button', { name: 'Revoke all apps' })).toHaveCount(0);
  for (const app of mine) expect(await verifyAccessToken(app.token)).toBeNull();
  expect(await verifyAccessToken(admins.token)).not.toBeNull();
  const events = await query<{ targetId: string; revokedWith: string }>(
    `SELECT target_id AS "targetId", details->>'revokedWith' AS "revokedWith" FROM audit_events
      WHERE action = 'oauth_grant.revoked' AND actor_id = $1 AND target_id = ANY($2) ORDER BY target_id`,
    [member.userId, own.map((row) => row.id)],
  );
  // Sorted the same way on both sides (the database's collation and localeCompare disagree on "_").
  const byTarget = (a: { targetId: string }, b: { targetId: string }) => (a.targetId < b.targetId ? -1 : a.targetId > b.targetId ? 1 : 0);
  expect(events.sort(byTarget)).toEqual(own.map((row) => ({ targetId: row.id, revokedWith: 'revoke_all' })).sort(byTarget));
  await expectAxeClean(page);
});

test('an app outside the viewer’s reach answers the same 404 as one that does not exist', async ({ page, baseURL }) => {
  const admin = await userOrg(ADMIN.email);
  const otherAdmin = await userOrg(OTHER_ORG_ADMIN.email);
  const admins = await connectRegisteredApp(baseURL!, admin, 'Admin only app');
  const foreign = await connectRegisteredApp(baseURL!, otherAdmin, 'Other agency app');

  await signIn(page, MEMBER.email);
  const answers: { status: number | undefined; heading: string }[] = [];
  for (const id of [admins.grantId, foreign.grantId, `grant-${randomUUID()}`, 'x'.repeat(200), '%00']) {
    const response = await page.goto(`/settings/connected-apps/${id}`);
    await expect(page.getByRole('main')).toHaveCount(1);
    answers.push({ status: response?.status(), heading: (await page.getByRole('heading', { level: 1 }).textContent()) ?? '' });
  }
  expect(answers).toEqual(Array(5).fill({ status: 404, heading: 'Page not found' }));
  await expectAxeClean(page);
  // The admin of the organisation sees the first, and not the other organisation's.
  await page.context().clearCookies();
  await signIn(page, ADMIN.email);
  expect((await page.goto(`/settings/connected-apps/${admins.grantId}`))?.status()).toBe(200);
  expect((await page.goto(`/settings/connected-apps/${foreign.grantId}`))?.status()).toBe(404);
});
