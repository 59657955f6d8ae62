// The pages' form posts (server actions) under X-Forwarded-Host, on production servers with and without
// TRUST_PROXY. Next.js compares a server action's Origin with X-Forwarded-Host as sent and answered any
// mismatch with a 500; now a same-origin post works whatever that header says when no proxy is trusted
// (the header is ignored), and a post from another origin is refused with a clean 403. Both shapes of
// post are sent (without JavaScript, and as React sends it); X-Forwarded-Proto leaves no error in the
// log either. Also the key form's name rule over HTTP: text-direction controls are refused, and a name
// stored before the rule is shown without them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { csrfTokenFor } from '@/lib/session/tokens';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { sessionOf } from '../support/oauth-flow';
import { actionPost, pageAction, type PostShape } from '../support/page-actions';
import { newOrganisationAdmin } from './platform-support';
import { ERROR_IN_LOG } from '../support/log-lines';

const SHAPES: PostShape[] = ['form', 'fetch'];
const REFUSED = 'Cross-origin form submission refused: nothing was changed.';

let direct: TestServer;
let proxied: TestServer;
/** Keys are made in an organisation of this file's own. */
let owner: { userId: string; orgId: string };

beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startTestServer({ databaseUrl: inject('databaseUrl'), env: { TRUST_PROXY: '' } }),
    startTestServer({ databaseUrl: inject('databaseUrl'), env: { TRUST_PROXY: '1' } }),
  ]);
  owner = await newOrganisationAdmin('forwarded-host');
});

afterAll(async () => {
  for (const server of [direct, proxied]) expect(server?.logs()).not.toMatch(ERROR_IN_LOG);
  await Promise.all([direct?.stop(), proxied?.stop()]);
});

/** Posts the sign-in form of `server` as the demo admin, with `headers` added. */
async function signIn(server: TestServer, shape: PostShape, headers: Record<string, string>): Promise<Response> {
  const action = await pageAction(server.origin, '/login');
  const post = actionPost(action, [['email', 'admin@demo.agency'], ['password', 'demo-password']], shape);
  return fetch(action.url, { method: 'POST', body: post.body, headers: { ...post.headers, ...headers }, redirect: 'manual' });
}

/** The answer of a sign-in that worked: a session cookie and the way to the settings. */
function expectSignedIn(response: Response, shape: PostShape, label: string): void {
  if (shape === 'form') {
    expect(response.status, label).toBe(303);
    expect(response.headers.get('location'), label).toBe('/settings/api-keys');
  } else {
    expect(response.status, label).toBe(200);
    expect(response.headers.get('x-action-redirect'), label).toMatch(/^\/settings\/api-keys/);
  }
  expect(response.headers.get('set-cookie'), label).toMatch(/^metrics_session=/);
}

async function expectRefused(response: Response, label: string): Promise<void> {
  expect(response.status, label).toBe(403);
  expect(response.headers.get('content-type'), label).toBe('text/plain; charset=utf-8');
  expect(await response.text(), label).toBe(REFUSED);
  expect(response.headers.get('set-cookie'), label).toBeNull();
}

describe.each(SHAPES)('a %s post, without TRUST_PROXY', (shape) => {
  it('signs in from its own origin whatever X-Forwarded-Host says', async () => {
    for (const forwardedHost of ['evil.example', 'EVIL.example:8443', 'a.example, b.example', new URL(direct.origin).host.toUpperCase()]) {
      expectSignedIn(await signIn(direct, shape, { origin: direct.origin, 'x-forwarded-host': forwardedHost }), shape, forwardedHost);
    }
  });

  it('signs in whatever X-Forwarded-Proto says (Next.js fetches the page it redirects to from this server, over plain http)', async () => {
    for (const proto of ['https', 'gopher', '']) expectSignedIn(await signIn(direct, shape, { origin: direct.origin, 'x-forwarded-proto': proto }), shape, proto);
  });

  it('is refused from another origin, even when X-Forwarded-Host agrees with it', async () => {
    await expectRefused(await signIn(direct, shape, { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' }), shape);
  });

  it('creates a key from its own origin whatever X-Forwarded-Host says', async () => {
    const session = await sessionOf(owner.userId);
    const cookie = `metrics_session=${session}`;
    const action = await pageAction(direct.origin, '/settings/api-keys', cookie);
    const name = `Forwarded ${shape} ${randomUUID()}`;
    const post = actionPost(action, [['csrf_token', csrfTokenFor(session)], ['name', name], ['scopes', 'ads:read'], ['clientAccess', 'all'], ['expiry', 'never']], shape);
    const response = await fetch(action.url, {
      method: 'POST',
      body: post.body,
      headers: { ...post.headers, cookie, origin: direct.origin, 'x-forwarded-host': 'evil.example' },
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(await sql('SELECT scopes FROM api_keys WHERE org_id = $1 AND name = $2', [owner.orgId, name])).toEqual([{ scopes: ['ads:read'] }]);
  });
});

describe.each(SHAPES)('a %s post, with TRUST_PROXY=1', (shape) => {
  it('signs in when Origin matches the forwarded host, in any case and with further entries', async () => {
    const cases: [string, string][] = [
      ['https://metrics.example', 'metrics.example'],
      ['https://metrics.example', 'METRICS.Example'],
      ['https://metrics.example', 'metrics.example, internal:3000'],
      [proxied.origin, new URL(proxied.origin).host],
    ];
    for (const [origin, forwardedHost] of cases) {
      expectSignedIn(await signIn(proxied, shape, { origin, 'x-forwarded-host': forwardedHost, 'x-forwarded-proto': 'https' }), shape, forwardedHost);
    }
  });

  it('is refused when the forwarded host is another than Origin’s', async () => {
    await expectRefused(await signIn(proxied, shape, { origin: proxied.origin, 'x-forwarded-host': 'evil.example' }), shape);
    await expectRefused(await signIn(proxied, shape, { origin: 'https://evil.example', 'x-forwarded-host': 'metrics.example' }), shape);
  });
});

describe('a key name a person reads', () => {
  it('may not hold a text-direction control: the form says so and no key is made', async () => {
    const session = await sessionOf(owner.userId);
    const cookie = `metrics_session=${session}`;
    const action = await pageAction(direct.origin, '/settings/api-keys', cookie);
    const name = `Backup\u202Etxt.exe ${randomUUID()}`;
    const post = actionPost(action, [['csrf_token', csrfTokenFor(session)], ['name', name], ['scopes', 'ads:read'], ['clientAccess', 'all'], ['expiry', 'never']], 'fetch');
    const response = await fetch(action.url, { method: 'POST', body: post.body, headers: { ...post.headers, cookie, origin: direct.origin }, redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/x-component');
    expect(await response.text()).toContain('"name":"The name must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B)."');
    expect(await sql('SELECT 1 FROM api_keys WHERE name = $1', [name])).toEqual([]);
  });

  it('stored before the rule, is listed without its text-direction controls', async () => {
    const tag = randomUUID().slice(0, 8);
    await mintKey({ orgId: owner.orgId, name: `Backup\u202Etxt.exe ${tag}` });
    const page = await (await fetch(new URL('/settings/api-keys', direct.origin), { headers: { cookie: `metrics_session=${await sessionOf(owner.userId)}` } })).text();
    expect(page).toContain(`Backuptxt.exe ${tag}`);
    expect(page).not.toContain('\u202E');
  });
});
