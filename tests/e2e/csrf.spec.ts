// Cross-site request forgery. The attacker's page is served from another origin on the same host
// (localhost:3199), which is the same *site*: the browser sends the SameSite=Lax session cookie along,
// so SameSite alone would not stop it. The Origin check refuses it; the CSRF token stops a same-origin
// post that lacks it.
//
// These posts take the route of a form sent without JavaScript (no Next-Action header). One from
// another origin is refused by proxy.ts with 403 before Next.js's own check (which would answer 500);
// a refusal by the app's checks is answered with Next.js's not-found page (404), as it renders every
// forbidden() from such a post. page-security.spec.ts covers the route the pages really use (403).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ADMIN, query, serverActionFields, signIn, userOrg } from './support/app';
import { ERROR_IN_LOG, loggedDuring } from './support/server-log';

/** The origin of this worker's server (./support/fixtures.ts sets it before any test runs). */
const appOrigin = () => process.env.APP_URL!;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page on another origin that submits a form to the app as soon as it loads. */
function attackerPage(fields: [string, string][]): string {
  const inputs = fields.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  return `<!doctype html><title>You won a prize</title>
    <form id="f" method="POST" enctype="multipart/form-data" action="${appOrigin()}/settings/api-keys">${inputs}</form>
    <script>document.getElementById('f').submit()</script>`;
}

let attacker: Server;
let attackerOrigin: string;
let attackerHtml = '';

test.beforeAll(async () => {
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(attackerHtml);
  });
  await new Promise<void>((resolve) => attacker.listen(0, 'localhost', resolve));
  attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

/** Lets the attacker's page submit its form and returns what the browser sent to the app. */
async function visitAttacker(page: Page, fields: [string, string][]): Promise<{ origin?: string; cookie?: string; status: number; log: string }> {
  attackerHtml = attackerPage(fields);
  const answered = page.waitForResponse((r) => r.url() === `${appOrigin()}/settings/api-keys` && r.request().method() === 'POST');
  const { result: response, log } = await loggedDuring(async () => {
    await page.goto(attackerOrigin);
    return answered;
  });
  const headers = await response.request().allHeaders();
  await page.waitForLoadState('load');
  return { origin: headers.origin, cookie: headers.cookie, status: response.status(), log };
}

async function activeKeyRowFields(page: Page, name: string): Promise<{ keyId: string; fields: [string, string][] }> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const row = page.locator('tr', { hasText: name }).first();
  const keyId = (await row.getAttribute('data-key-id'))!;
  return { keyId, fields: await serverActionFields(page, `tr[data-key-id="${keyId}"] form`) };
}

test('a forged cross-site post revokes nothing and creates nothing', async ({ page }) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const { keyId, fields: revokeFields } = await activeKeyRowFields(page, 'Target of a forgery');
  const createFields = await serverActionFields(page, 'form:has(#key-name)');
  const keysBefore = await query('SELECT id, revoked_at FROM api_keys WHERE org_id = $1 ORDER BY id', [admin.orgId]);
  const eventsBefore = await query('SELECT id FROM audit_events WHERE org_id = $1 ORDER BY id', [admin.orgId]);

  const revoke = await visitAttacker(page, [...revokeFields, ['keyId', keyId]]);
  expect(revoke.origin).toBe(attackerOrigin);
  expect(revoke.cookie).toContain('metrics_session='); // same-site: SameSite=Lax let the cookie through
  expect(revoke.status).toBe(403);
  expect(revoke.log).not.toMatch(ERROR_IN_LOG);

  const create = await visitAttacker(page, [...createFields, ['name', 'Forged key'], ['scopes', 'ads:read'], ['clientAccess', 'all']]);
  expect(create.cookie).toContain('metrics_session=');
  expect(create.status).toBe(403);
  expect(create.log).not.toMatch(ERROR_IN_LOG);

  expect(await query('SELECT id, revoked_at FROM api_keys WHERE org_id = $1 ORDER BY id', [admin.orgId])).toEqual(keysBefore);
  expect(await query('SELECT id FROM audit_events WHERE org_id = $1 ORDER BY id', [admin.orgId])).toEqual(eventsBefore);
  await page.goto('/settings/api-keys');
  await expect(page.locator(`tr[data-key-id="${keyId}"]`).getByText('Active')).toBeVisible();
});

test('a same-origin post without the CSRF token is refused', async ({ page }) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const { keyId, fields } = await activeKeyRowFields(page, 'Target of a tokenless post');
  const { result: answer, log } = await loggedDuring(() =>
    page.evaluate(
      async ({ fields, keyId }) => {
        // The action's own fields and the key id: everything except the session's CSRF token.
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, value);
        form.append('keyId', keyId);
        const response = await fetch('/settings/api-keys', { method: 'POST', body: form });
        return { status: response.status, contentType: response.headers.get('content-type') };
      },
      { fields, keyId },
    ),
  );
  expect(answer).toEqual({ status: 404, contentType: 'text/html; charset=utf-8' });
  expect(log).not.toMatch(ERROR_IN_LOG);
  const [key] = await query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE id = $1 AND org_id = $2', [keyId, admin.orgId]);
  expect(key!.revoked_at).toBeNull();
});
