// The pages' own defences, against the real server: security headers on every page, refused settings
// and sign-in actions answered 403 (never a 500, nothing in the log), the session cookie's Secure
// flag decided by APP_URL and never by a forwarded header, and control characters and over-long
// names refused by the key form.
//
// Refusals are replayed from requests the browser really sent (captured and held back), so each
// differs from a genuine request in exactly one respect; a genuine replay is the control that shows
// the format is right and the refusal comes from the check under test.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { TEST_DIST_DIR } from '../support/http-server';
import { ADMIN, DEMO_PASSWORD, MEMBER, query, saveScreenshot, signIn, userOrg } from './support/app';
import { ERROR_IN_LOG, loggedDuring } from './support/server-log';

/** The origin of this worker's server (./support/fixtures.ts sets it before any test runs). */
const appOrigin = () => process.env.APP_URL!;

const SECURITY_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000',
};

function securityHeaders(headers: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, headers[name]]));
}

interface CapturedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Runs `trigger` in the page and returns the server-action request it sent to `pathname`, which is
 * held back (aborted): the server never sees it.
 */
async function captureAction(page: Page, pathname: string, trigger: () => Promise<void>): Promise<CapturedAction> {
  let resolve!: (captured: CapturedAction) => void;
  const captured = new Promise<CapturedAction>((r) => (resolve = r));
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      resolve({ url: request.url(), headers: await request.allHeaders(), body: request.postDataBuffer()! });
      await route.abort();
    },
  );
  await trigger();
  const action = await captured;
  await page.unrouteAll({ behavior: 'wait' });
  expect(action.headers['next-action'], 'a server action request').toMatch(/^[0-9a-f]{42}$/);
  return action;
}

/** Sends a captured action again from `request` (with its own cookies), changed as asked. */
async function replay(
  request: APIRequestContext,
  action: CapturedAction,
  change: { headers?: Record<string, string | null>; body?: (body: string) => string } = {},
) {
  const headers: Record<string, string> = {};
  // The browser's own cookie and pseudo-headers are not replayed: the context sends its own cookies.
  for (const [name, value] of Object.entries(action.headers)) if (!name.startsWith(':') && name !== 'cookie') headers[name] = value;
  for (const [name, value] of Object.entries(change.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const body = change.body ? Buffer.from(change.body(action.body.toString('latin1')), 'latin1') : action.body;
  return request.post(action.url, { headers, data: body, maxRedirects: 0 });
}

async function csrfTokenOf(page: Page): Promise<string> {
  return page.locator('input[name="csrf_token"]').first().inputValue();
}

async function createKey(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: 'ads:read' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  const [key] = await query<{ id: string }>('SELECT id FROM api_keys WHERE name = $1', [name]);
  return key!.id;
}

async function revokedAt(keyId: string): Promise<Date | null> {
  const [key] = await query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId]);
  return key!.revoked_at;
}

function confirmRevoke(page: Page, name: string): () => Promise<void> {
  return async () => {
    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: `Revoke “${name}”?` }).getByRole('button', { name: 'Revoke key' }).click();
  };
}

test('every page is sent with the security headers, signed in or not', async ({ page }) => {
  const signedOut = ['/', '/login', '/docs/errors', '/no-such-page', '/settings/api-keys', '/consent/unknown-interaction'];
  const expectedStatus: Record<string, number> = { '/no-such-page': 404, '/settings/api-keys': 307, '/consent/unknown-interaction': 307 };
  for (const path of signedOut) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(expectedStatus[path] ?? 200);
    expect(response.headers()['content-type'], path).toBe('text/html; charset=utf-8');
    expect(securityHeaders(response.headers()), path).toEqual(SECURITY_HEADERS);
  }
  await signIn(page, ADMIN.email);
  for (const path of ['/settings/api-keys', '/settings/connected-apps']) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
    expect(securityHeaders(response.headers()), path).toEqual(SECURITY_HEADERS);
  }
  // The API keeps its own headers and gets no CORS; the extra ones are harmless there.
  const api = await page.request.get('/api/v1/openapi.json');
  expect(api.status()).toBe(200);
  expect(api.headers()['content-type']).toBe('application/json');
  expect(securityHeaders(api.headers())).toEqual(SECURITY_HEADERS);
  expect(Object.keys(api.headers()).filter((name) => name.startsWith('access-control-'))).toEqual([]);
});

test('the browser refuses to show a page in a frame', async ({ page }) => {
  const framed = page.waitForResponse(`${appOrigin()}/login`);
  // setContent waits for the load event, which waits for the frame.
  await page.setContent(`<iframe src="${appOrigin()}/login"></iframe>`);
  expect((await framed).status()).toBe(200);
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  // Chromium replaces a refused frame with its own error page: the sign-in form never loads.
  expect(frame.url()).toBe('chrome-error://chromewebdata/');
  expect(await frame.locator('input[name="email"]').count()).toBe(0);
});

test('refused settings actions are answered 403 and log nothing; the same request with its checks intact goes through', async ({ page, browser }) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const keyId = await createKey(page, 'Target of replays');
  const adminToken = await csrfTokenOf(page);
  const revoke = await captureAction(page, '/settings/api-keys', confirmRevoke(page, 'Target of replays'));
  expect(revoke.headers.origin).toBe(appOrigin());
  expect(revoke.body.toString('latin1')).toContain(adminToken);
  const forgedToken = `${adminToken[0] === 'A' ? 'B' : 'A'}${adminToken.slice(1)}`;

  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, MEMBER.email);
  const memberToken = await csrfTokenOf(memberPage);
  expect(memberToken).not.toBe(adminToken);

  const refusals: [string, APIRequestContext, Parameters<typeof replay>[2]][] = [
    ['no Origin header', page.request, { headers: { origin: null } }],
    ['a forged CSRF token', page.request, { body: (body) => body.replace(adminToken, forgedToken) }],
    ['no CSRF token', page.request, { body: (body) => body.replace(adminToken, '') }],
    // The member's own session and own token: only the role check is left to refuse it.
    ['a member calling an admin action', memberContext.request, { body: (body) => body.replace(adminToken, memberToken) }],
  ];
  for (const [label, request, change] of refusals) {
    const { result: response, log } = await loggedDuring(() => replay(request, revoke, change));
    expect(response.status(), label).toBe(403);
    expect(response.headers()['content-type'], label).toBe('text/x-component');
    expect(log, label).not.toMatch(ERROR_IN_LOG);
    expect(await revokedAt(keyId), label).toBeNull();
  }
  expect(await query("SELECT 1 FROM audit_events WHERE org_id = $1 AND action = 'api_key.revoked' AND target_id = $2", [admin.orgId, keyId])).toEqual([]);

  const { result: genuine, log } = await loggedDuring(() => replay(page.request, revoke));
  expect(genuine.status()).toBe(200);
  expect(log).not.toMatch(ERROR_IN_LOG);
  expect(await revokedAt(keyId)).toBeInstanceOf(Date);
  await memberContext.close();
});

test('a refused form shows the "Not allowed" page with status 403', async ({ page }, testInfo) => {
  await signIn(page, ADMIN.email);
  const keyId = await createKey(page, 'Target of a stale form');
  // As if the page had been opened by another session: its token no longer matches.
  await page
    .locator(`tr[data-key-id="${keyId}"]`)
    .getByLabel('Revoke “Target of a stale form”?')
    .locator('input[name="csrf_token"]')
    .evaluate((input: HTMLInputElement) => (input.value = 'stale'));
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/settings/api-keys');
  const { result: response, log } = await loggedDuring(async () => {
    await confirmRevoke(page, 'Target of a stale form')();
    return answered;
  });
  expect(response.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByText('This request was refused and nothing was changed.')).toBeVisible();
  await expect(page.getByText('Only an organisation admin can create or revoke API keys.')).toBeVisible();
  expect(log).not.toMatch(ERROR_IN_LOG);
  expect(await revokedAt(keyId)).toBeNull();
  await saveScreenshot(page, testInfo, 'refused-action');
});

test('a form post whose body does not parse is answered 400 before any action runs, and logs nothing', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const signInPost = await captureAction(page, '/login', () => page.getByRole('button', { name: 'Sign in' }).click());
  const garbled: [string, Parameters<typeof replay>[2]][] = [
    ['form data cut short', { body: (body) => body.slice(0, body.length - 40) }],
    ['arguments that are not JSON', { headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: () => '["$K1",' }],
  ];
  for (const [label, change] of garbled) {
    const { result: response, log } = await loggedDuring(() => replay(request, signInPost, change));
    expect(response.status(), label).toBe(400);
    expect(response.headers()['content-type'], label).toBe('text/plain; charset=utf-8');
    expect(await response.text(), label).toBe('The form could not be read: nothing was changed.');
    expect(response.headers()['set-cookie'], label).toBeUndefined();
    expect(log, label).not.toMatch(ERROR_IN_LOG);
  }
});

test('the sign-in action refuses a post without Origin with 403 and logs nothing', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const signInPost = await captureAction(page, '/login', () => page.getByRole('button', { name: 'Sign in' }).click());
  const { result: response, log } = await loggedDuring(() => replay(request, signInPost, { headers: { origin: null } }));
  expect(response.status()).toBe(403);
  expect(response.headers()['set-cookie']).toBeUndefined();
  expect(log).not.toMatch(ERROR_IN_LOG);
  // The control: the same request with its Origin signs in.
  const genuine = await replay(request, signInPost);
  expect(genuine.status()).toBe(200);
  expect(genuine.headers()['x-action-redirect']).toMatch(/^\/settings\/api-keys/);
  expect(genuine.headers()['set-cookie']).toMatch(/^metrics_session=/);
});

test('without TRUST_PROXY a caller-chosen X-Forwarded-Host is ignored: no sign-in through it, no say over Secure', async ({ page, request }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  const signInPost = await captureAction(page, '/login', () => page.getByRole('button', { name: 'Sign in' }).click());
  // Origin and X-Forwarded-Host agree (Next.js's own check passes), but the request reached the app
  // at localhost: the forwarded host is not believed, so this is another origin.
  const forwarded = await replay(request, signInPost, { headers: { origin: 'https://metrics.example.test', 'x-forwarded-host': 'metrics.example.test' } });
  expect(forwarded.status()).toBe(403);
  expect(forwarded.headers()['set-cookie']).toBeUndefined();
});

/** A second server from the same build, with its own APP_URL, on a free port. */
async function startServer(env: Record<string, string>): Promise<{ origin: string; server: ChildProcess }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, 'localhost', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_DIST_DIR: TEST_DIST_DIR, ...env };
  delete childEnv.TRUST_PROXY;
  const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], { env: childEnv, stdio: 'ignore', detached: true });
  const origin = `http://localhost:${port}`;
  await expect(async () => {
    expect(server.exitCode).toBeNull();
    expect((await fetch(`${origin}/api/health`)).status).toBe(200);
  }).toPass({ timeout: 60_000 });
  return { origin, server };
}

test('with an https APP_URL the session cookie is Secure, whatever X-Forwarded-Host says', async ({ page, request }) => {
  const { origin, server } = await startServer({ APP_URL: 'https://metrics.example.test' });
  try {
    await page.goto(`${origin}/login`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const signInPost = await captureAction(page, '/login', () => page.getByRole('button', { name: 'Sign in' }).click());
    // A loopback forwarded host once meant "a developer on plain http": it no longer lifts Secure.
    for (const forwardedHost of [undefined, new URL(origin).host]) {
      const response = await replay(request, signInPost, { headers: forwardedHost ? { 'x-forwarded-host': forwardedHost } : {} });
      expect(response.status(), String(forwardedHost)).toBe(200);
      expect(response.headers()['set-cookie'], String(forwardedHost)).toMatch(/^metrics_session=[^;]+; Path=\/; Expires=[^;]+; Secure; HttpOnly; SameSite=lax$/);
    }
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
});

test('a key name with a control character or over 100 characters is refused with a message and not stored', async ({ page }) => {
  const admin = await userOrg(ADMIN.email);
  await signIn(page, ADMIN.email);
  const nameInput = page.getByLabel('Name', { exact: true });
  // The field says the limit and leaves the refusing to the action (a maxlength would cut a long name without a word).
  await expect(page.locator('#key-name-hint')).toContainText('At most 100 characters.');
  await expect(nameInput).not.toHaveAttribute('maxlength');
  const cases: [string, string, string][] = [
    ['NUL', 'Nul\u0000key', 'The name must not contain control characters, such as line breaks or tabs.'],
    ['U+0001', 'Soh\u0001key', 'The name must not contain control characters, such as line breaks or tabs.'],
    ['101 characters', 'k'.repeat(101), 'At most 100 characters.'],
  ];
  for (const [label, name, message] of cases) {
    await page.goto('/settings/api-keys');
    // Set as a script or a crafted post would: past the input's own value cleaning.
    await nameInput.evaluate((input: HTMLInputElement, value) => {
      input.value = value;
    }, name);
    expect(await nameInput.inputValue(), label).toBe(name);
    await page.getByRole('checkbox', { name: 'ads:read' }).check();
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/settings/api-keys');
    const { result: response, log } = await loggedDuring(async () => {
      await page.getByRole('button', { name: 'Create key' }).click();
      return answered;
    });
    expect(response.status(), label).toBe(200);
    await expect(page.locator('#key-name-error'), label).toHaveText(message);
    await expect(nameInput, label).toHaveAttribute('aria-invalid', 'true');
    expect(log, label).not.toMatch(ERROR_IN_LOG);
  }
  expect(await query("SELECT name FROM api_keys WHERE org_id = $1 AND (name LIKE 'Nul%' OR name LIKE 'Soh%' OR name LIKE 'kkkk%')", [admin.orgId])).toEqual([]);
});
