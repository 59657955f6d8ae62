// The OAuth authorization server over HTTP with a real client library (oauth4webapi) against
// the production server: metadata, registration, the code flow with consent, refresh rotation and reuse
// revocation, parallel refreshes of one token (on one server process and on two sharing the database),
// revocation, and every refusal with its exact OAuth error. The consent click itself is
// the browser tests' (tests/e2e/oauth-consent.spec.ts); here the same form is posted over HTTP. Also
// connected apps: who sees which grants, and revocation that works on the very next request, audited.
import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { ROTATION_RACE_GRACE_S } from '@/lib/oauth/adapter';
import { METADATA_HOST_REFUSED, METADATA_HOST_UNREACHABLE } from '@/lib/oauth/client-metadata';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { SCOPE_WORDS } from '@/lib/oauth/consent';
import { listConnectedApps, revokeConnectedApp } from '@/lib/oauth/grants';
import { verifyAccessToken } from '@/lib/oauth/verify';
import { clientAddress, startTestServer, type TestServer } from '../support/http-server';
import {
  authorizationUrl,
  connectOverHttp,
  consentOverHttp,
  CookieJar,
  discover,
  exchangeCode,
  insecure,
  oauthError,
  postRefresh,
  refresh,
  register,
  sessionOf,
  type TokenAnswer,
} from '../support/oauth-flow';
import { postRpc, rpcMessages } from './mcp-support';
import { personOf } from './platform-support';
import { awayFromWindowEdge } from '../support/rate-limit-window';

let server: TestServer;
let as: oauth.AuthorizationServer;
let admin: { userId: string; orgId: string };
let member: { userId: string; orgId: string; membershipId: string };
const REDIRECT = 'http://127.0.0.1:43117/callback';

function connect(userId: string, orgId: string, extra: Record<string, string | string[] | null> = {}) {
  return connectOverHttp(server.origin, as, { userId, orgId }, REDIRECT, extra);
}

// verifyAccessToken runs in this process and checks the audience against APP_URL: the server's.
const previousAppUrl = process.env.APP_URL;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  process.env.APP_URL = server.origin;
  as = await discover(server.origin);
  admin = await personOf('admin@demo.agency');
  member = await personOf('member@demo.agency');
});

afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
  await server?.stop();
});

describe('metadata', () => {
  it('advertises exactly what works, the same at both addresses, with CORS', async () => {
    const expected = {
      issuer: server.origin,
      authorization_endpoint: `${server.origin}/oauth/authorize`,
      token_endpoint: `${server.origin}/oauth/token`,
      revocation_endpoint: `${server.origin}/oauth/revoke`,
      registration_endpoint: `${server.origin}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['ads:read', 'social:read'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const response = await server.request(path, { headers: { origin: 'https://inspector.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(await response.json()).toEqual(expected);
    }
  });

  it('answers preflight on register, token and revoke, and serves nothing else under /oauth', async () => {
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke']) {
      const response = await server.request(path, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' } });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    for (const path of ['/oauth/.well-known/openid-configuration', '/oauth/jwks', '/oauth/me', '/oauth/session/end']) {
      const response = await server.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'not_found', error_description: 'no such OAuth endpoint' });
    }
  });

  it('refuses a body over 64 KiB on the token and registration endpoints without reading more of it', async () => {
    for (const [path, type] of [['/oauth/token', 'application/x-www-form-urlencoded'], ['/oauth/register', 'application/json']]) {
      const response = await fetch(new URL(path!, server.origin), { method: 'POST', headers: { 'content-type': type! }, body: 'x'.repeat(70_000) });
      expect(response.status, path).toBe(400);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await response.json(), path).toEqual({ error: 'invalid_request', error_description: 'the request body must be at most 64 KiB, sent without pause' });
    }
  });
});

describe('the code flow', () => {
  it('registers, authorizes with consent, issues MCP-bound tokens, rotates, and revokes everything on reuse', async () => {
    const { client, tokens, callback } = await connect(admin.userId, admin.orgId);
    expect(callback.searchParams.get('iss')).toBe(server.origin);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'ads:read social:read' });
    expect(typeof tokens.refresh_token).toBe('string');

    const context = await verifyAccessToken(tokens.access_token);
    expect(context).toMatchObject({ kind: 'oauth_grant', clientId: client.client_id, clientName: 'Test client', userId: admin.userId, orgId: admin.orgId, scopes: ['ads:read', 'social:read'], clientIds: null });

    // Lifetimes as stored: access tokens 1 hour, refresh tokens 30 days (spec), the rotated one 30 days again.
    const lifetimes = () =>
      sql<{ model: string; seconds: number }>(
        `SELECT model, round(extract(epoch FROM expires_at - created_at))::int AS seconds FROM oauth_payloads
          WHERE grant_id = $1 AND model IN ('AccessToken', 'RefreshToken') AND consumed_at IS NULL ORDER BY model`,
        [context!.grantId],
      );
    expect(await lifetimes()).toEqual([
      { model: 'AccessToken', seconds: 3600 },
      { model: 'RefreshToken', seconds: 30 * 24 * 3600 },
    ]);

    const rotated = await refresh(as, client, tokens.refresh_token!);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(await verifyAccessToken(rotated.access_token)).not.toBeNull();
    expect((await lifetimes()).filter((row) => row.model === 'RefreshToken')).toEqual([{ model: 'RefreshToken', seconds: 30 * 24 * 3600 }]);

    // A replay: the first token again after its successor has been used. The whole grant goes.
    const next = await refresh(as, client, rotated.refresh_token!);
    expect(await oauthError(refresh(as, client, tokens.refresh_token!))).toBe('invalid_grant');
    for (const accessToken of [tokens.access_token, rotated.access_token, next.access_token]) expect(await verifyAccessToken(accessToken)).toBeNull();
    expect(await oauthError(refresh(as, client, next.refresh_token!))).toBe('invalid_grant');
    expect(await sql(`SELECT 1 FROM oauth_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [context!.grantId])).toHaveLength(0);
  });
});

/** The authorization endpoint's answer for a request that never reaches consent. */
async function authorizeError(start: { url: URL }): Promise<{ status: number; location: URL | null; page: string }> {
  const response = await server.request(start.url.pathname + start.url.search);
  const location = response.headers.get('location');
  return { status: response.status, location: location ? new URL(location) : null, page: await response.text() };
}

async function registeredClient(redirect = REDIRECT) {
  return register(as, { client_name: 'Test client', redirect_uris: [redirect] });
}

describe('refusals at authorization (sent back to the app when its redirect is known)', () => {
  it.each([
    ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['PKCE missing', { code_challenge: null, code_challenge_method: null }, 'invalid_request'],
    ['another resource', { resource: 'https://elsewhere.example/api/mcp' }, 'invalid_target'],
    ['two resources', { resource: ['MCP', 'https://elsewhere.example/api/mcp'] }, 'invalid_target'],
  ] as const)('%s is %s', async (_name, extra, error) => {
    const client = await registeredClient();
    const params = Object.fromEntries(
      Object.entries(extra).map(([key, value]) => [key, Array.isArray(value) ? value.map((item) => (item === 'MCP' ? `${server.origin}/api/mcp` : item)) : value]),
    );
    const start = await authorizationUrl(as, client.client_id, REDIRECT, params);
    const answer = await authorizeError(start);
    expect(answer.status).toBe(303);
    expect(`${answer.location!.origin}${answer.location!.pathname}`).toBe(REDIRECT);
    expect(answer.location!.searchParams.get('error')).toBe(error);
    expect(answer.location!.searchParams.get('iss')).toBe(server.origin);
    expect(answer.location!.searchParams.get('state')).toBe(start.state);
  });

  it('an unregistered redirect URI is refused on a page, never redirected to', async () => {
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, 'https://attacker.example/callback');
    const answer = await authorizeError(start);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.page).toContain('<code id="error">invalid_redirect_uri</code>');
  });

  it.each([
    ['a private address', 'https://10.1.2.3/client.json', METADATA_HOST_REFUSED],
    ['a link-local address', 'https://169.254.169.254/latest/meta-data', METADATA_HOST_REFUSED],
    ['a name resolving to loopback', 'https://localhost/client.json', METADATA_HOST_REFUSED],
    ['a host that cannot be resolved', 'https://client.invalid/client.json', METADATA_HOST_UNREACHABLE],
    // Not a metadata document's address at all (those are https): an unknown client_id.
    ['plain http', 'http://client.example/client.json', 'client is invalid'],
  ])('a metadata document URL on %s is refused as invalid_client, saying why', async (_name, clientId, description) => {
    const start = await authorizationUrl(as, clientId, 'https://client.example/callback');
    const answer = await authorizeError(start);
    expect(answer.status).toBe(400);
    expect(answer.page).toContain('<code id="error">invalid_client</code>');
    expect(answer.page).toContain(`<p id="error-description">${description}</p>`);
  });

  it('accepts the resource with a trailing slash or absent, and an empty scope as both scopes', async () => {
    const cases: Record<string, string | null>[] = [{ resource: `${server.origin}/api/mcp/` }, { resource: null, scope: '' }, { scope: 'offline_access' }];
    for (const extra of cases) {
      const { tokens } = await connect(admin.userId, admin.orgId, extra);
      expect(tokens.scope).toBe('ads:read social:read');
      expect((await verifyAccessToken(tokens.access_token))?.scopes).toEqual(['ads:read', 'social:read']);
    }
  });
});

describe('scopes as clients send them', () => {
  /** The scope lines of the consent screen an authorization request leads to. */
  async function consentScreenScopes(scope: string): Promise<string[]> {
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, REDIRECT, { scope });
    const jar = new CookieJar();
    jar.set('metrics_session', await sessionOf(admin.userId));
    const authorize = await jar.fetch(start.url.href);
    expect(authorize.status).toBe(303);
    const page = await jar.fetch(new URL(authorize.headers.get('location')!, server.origin).href);
    expect(page.status).toBe(200);
    const list = /<ul class="consent-scopes">(.*?)<\/ul>/s.exec(await page.text())![1]!;
    return [...list.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]!).filter((line) => !line.startsWith('Nothing else'));
  }

  it('states the data-use rule on the consent screen, before Allow', async () => {
    const client = await registeredClient();
    const jar = new CookieJar();
    jar.set('metrics_session', await sessionOf(admin.userId));
    const authorize = await jar.fetch((await authorizationUrl(as, client.client_id, REDIRECT)).url.href);
    expect(authorize.status).toBe(303);
    const page = await jar.fetch(new URL(authorize.headers.get('location')!, server.origin).href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const rule = html.indexOf(`<h2 class="consent-heading">How it may use the data</h2><p class="hint" id="data-use">${DATA_USE_RULE}</p>`);
    expect(rule).toBeGreaterThan(0);
    expect(html.indexOf('value="allow"')).toBeGreaterThan(rule);
  });

  it.each([
    ['ads:read openid offline_access', ['ads:read']],
    ['ads:read web:read', ['ads:read']],
    ['social:read ads:read profile', ['ads:read', 'social:read']],
    ['openid', ['ads:read', 'social:read']],
    ['openid offline_access email', ['ads:read', 'social:read']],
  ] as const)('scope=%s: unknown scopes are ignored, the consent screen and the token show %j', async (scope, granted) => {
    expect(await consentScreenScopes(scope)).toEqual(granted.map((known) => SCOPE_WORDS[known]));
    const { tokens } = await connect(admin.userId, admin.orgId, { scope });
    expect(tokens.scope).toBe(granted.join(' '));
    expect((await verifyAccessToken(tokens.access_token))?.scopes).toEqual(granted);
  });

  it('ignores unknown scopes at refresh: known ones narrow, none known narrows nothing', async () => {
    const { client, tokens } = await connect(admin.userId, admin.orgId);
    const unchanged = await refresh(as, client, tokens.refresh_token!, { scope: 'openid offline_access' });
    expect(unchanged.scope).toBe('ads:read social:read');
    const narrowed = await refresh(as, client, unchanged.refresh_token!, { scope: 'ads:read openid' });
    expect(narrowed.scope).toBe('ads:read');
    expect((await verifyAccessToken(narrowed.access_token))?.scopes).toEqual(['ads:read']);
  });
});

describe('registration', () => {
  it('makes loopback and app-scheme clients native (any loopback port matches) and keeps no scope cage', async () => {
    const client = await register(as, {
      client_name: 'Cursor',
      redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'https://www.cursor.com/oauth/callback', 'http://localhost:8787/callback'],
      scope: '',
    } as never);
    expect(client).toMatchObject({ application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
    expect(client.scope).toBeUndefined();
    const otherPort = 'http://localhost:50123/callback';
    const start = await authorizationUrl(as, client.client_id, otherPort);
    const callback = await consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'allow', orgId: admin.orgId });
    expect(`${callback.origin}${callback.pathname}`).toBe('http://localhost:50123/callback');
    expect((await exchangeCode(as, client, callback, start, otherPort)).scope).toBe('ads:read social:read');
  });

  it.each([
    ['registered with the slash, asked for without', 'http://127.0.0.1:33418/', 'http://127.0.0.1:33418'],
    ['registered without the slash, asked for with', 'http://127.0.0.1:33418', 'http://127.0.0.1:33418/'],
    ['on [::1] and another port, without the slash', 'http://[::1]:33418/', 'http://[::1]:40123'],
  ])('approves a loopback redirect %s (RFC 8252 §7.3: an empty path is /, any port)', async (_name, registered, asked) => {
    const client = await register(as, { client_name: 'VS Code', redirect_uris: [registered] });
    const start = await authorizationUrl(as, client.client_id, asked);
    const callback = await consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'allow', orgId: admin.orgId });
    // The code goes to the URI the client asked for, and the token request names that one.
    expect(`${callback.origin}${callback.pathname}`).toBe(new URL(asked).href);
    expect(callback.searchParams.get('state')).toBe(start.state);
    expect((await exchangeCode(as, client, callback, start, asked)).scope).toBe('ads:read social:read');
  });

  it.each([
    ['a web redirect with a slash added', 'https://client.example/callback', 'https://client.example/callback/'],
    ['a web origin without its slash', 'https://client.example/', 'https://client.example'],
    ['a web redirect with its default port written', 'https://client.example/callback', 'https://client.example:443/callback'],
    ['a web redirect in other letter case', 'https://client.example/callback', 'https://client.example/Callback'],
    ['a loopback redirect on another path', 'http://127.0.0.1:33418/callback', 'http://127.0.0.1:33418/callback/'],
    ['a loopback redirect on another loopback host', 'http://127.0.0.1:33418/', 'http://localhost:33418/'],
    ['a loopback redirect with another query', 'http://127.0.0.1:33418/cb?a=1', 'http://127.0.0.1:33418/cb?a=2'],
  ])('refuses %s as invalid_redirect_uri on a page (only loopback port and empty path are forgiven)', async (_name, registered, asked) => {
    const client = await register(as, { client_name: 'Exact', redirect_uris: [registered] });
    const answer = await authorizeError(await authorizationUrl(as, client.client_id, asked));
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
    expect(answer.page).toContain('<code id="error">invalid_redirect_uri</code>');
  });

  it.each([
    ['plain http on a public host', 'http://client.example/callback'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['file:', 'file:///etc/passwd'],
  ])('refuses a redirect over %s as invalid_redirect_uri', async (_name, uri) => {
    const response = await server.request('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
      body: JSON.stringify({ client_name: 'Bad', redirect_uris: [uri] }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    // A refused registration counted in its address's window, and says so.
    expect([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['60', '59']);
    expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    expect((await response.json()).error).toBe('invalid_redirect_uri');
  });

  it('limits registrations per client address (60 a minute), with the limit headers on every answer', async () => {
    // 61 registrations one after another must fall into one fixed window.
    await awayFromWindowEdge();
    const address = clientAddress();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 61; attempt += 1) {
      const response = await server.request('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
      statuses.push(response.status);
      // Every answer, the 201s included, says where the address's window stands.
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(Math.max(0, 59 - attempt)));
      expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
      // A browser client may read them (registration answers any origin).
      expect(response.headers.get('access-control-expose-headers')).toBe('X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After');
      if (response.status === 429) {
        expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'too many registrations from this address; try again later' });
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        // The standard fields beside the X-RateLimit-* ones, as on the API's own 429s.
        expect(response.headers.get('x-ratelimit-limit')).toBe('60');
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(response.headers.get('ratelimit-policy')).toBe('"default";q=60;w=60');
        expect(response.headers.get('ratelimit')).toMatch(/^"default";r=0;t=([0-9]|[1-5][0-9]|60)$/);
      }
    }
    expect(statuses.slice(0, 60).every((status) => status === 201)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('a registration expires a day after it was made unless a grant is approved for it', async () => {
    const unused = await registeredClient();
    const [row] = await sql<{ hours: number }>(`SELECT extract(epoch FROM expires_at - created_at) / 3600 AS hours FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [unused.client_id]);
    expect(Math.round(Number(row!.hours))).toBe(24);
    const { client } = await connect(admin.userId, admin.orgId);
    expect(await sql(`SELECT expires_at FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [client.client_id])).toEqual([{ expires_at: null }]);
  });
});

describe('codes and tokens', () => {
  it('an expired code is invalid_grant', async () => {
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const callback = await consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'allow', orgId: admin.orgId });
    await sql(`UPDATE oauth_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AuthorizationCode' AND payload->>'clientId' = $1`, [client.client_id]);
    expect(await oauthError(exchangeCode(as, client, callback, start, REDIRECT))).toBe('invalid_grant');
  });

  it('a reused code is invalid_grant and revokes the tokens it gave', async () => {
    const { client, tokens, callback, start } = await connect(admin.userId, admin.orgId);
    expect(await oauthError(exchangeCode(as, client, callback, start, REDIRECT))).toBe('invalid_grant');
    expect(await verifyAccessToken(tokens.access_token)).toBeNull();
    expect(await oauthError(refresh(as, client, tokens.refresh_token!))).toBe('invalid_grant');
  });

  it('a wrong resource at the token endpoint is invalid_target', async () => {
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const callback = await consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'allow', orgId: admin.orgId });
    expect(await oauthError(exchangeCode(as, client, callback, start, REDIRECT, { resource: 'https://elsewhere.example/api/mcp' }))).toBe('invalid_target');
  });

  it('narrows scope on refresh, and the narrowed scope sticks (widening is invalid_scope)', async () => {
    const { client, tokens } = await connect(admin.userId, admin.orgId);
    const narrowed = await refresh(as, client, tokens.refresh_token!, { scope: 'ads:read' });
    expect(narrowed.scope).toBe('ads:read');
    expect((await verifyAccessToken(narrowed.access_token))?.scopes).toEqual(['ads:read']);
    expect(await oauthError(refresh(as, client, narrowed.refresh_token!, { scope: 'ads:read social:read' }))).toBe('invalid_scope');
    const again = await refresh(as, client, narrowed.refresh_token!);
    expect(again.scope).toBe('ads:read');
    expect((await verifyAccessToken(again.access_token))?.scopes).toEqual(['ads:read']);
  });

  it('an expired access token is refused', async () => {
    const { tokens } = await connect(admin.userId, admin.orgId);
    await sql(`UPDATE oauth_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND grant_id = $1`, [
      (await verifyAccessToken(tokens.access_token))!.grantId,
    ]);
    expect(await verifyAccessToken(tokens.access_token)).toBeNull();
  });

  it('/oauth/revoke: an access token takes every token of its grant with it; a refresh token, the grant', async () => {
    const revoke = (client: oauth.Client, token: string) => oauth.revocationRequest(as, client, oauth.None(), token, insecure).then(oauth.processRevocationResponse);
    const first = await connect(admin.userId, admin.orgId);
    await revoke(first.client, first.tokens.access_token);
    expect(await verifyAccessToken(first.tokens.access_token)).toBeNull();
    expect(await oauthError(refresh(as, first.client, first.tokens.refresh_token!))).toBe('invalid_grant');

    const second = await connect(admin.userId, admin.orgId);
    const grantId = (await verifyAccessToken(second.tokens.access_token))!.grantId;
    await revoke(second.client, second.tokens.refresh_token!);
    expect(await verifyAccessToken(second.tokens.access_token)).toBeNull();
    expect(await sql(`SELECT 1 FROM oauth_payloads WHERE model = 'Grant' AND id = $1`, [grantId])).toHaveLength(0);
  });

  it('an access token on /api/v1 is 401', async () => {
    const { tokens } = await connect(admin.userId, admin.orgId);
    const response = await server.request('/api/v1/me', { key: tokens.access_token, headers: { 'x-forwarded-for': clientAddress() } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect((await response.json()).code).toBe('unauthorized');
  });

  it('Deny sends access_denied back to the app and makes no grant', async () => {
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const callback = await consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'deny' });
    expect(await oauthError(exchangeCode(as, client, callback, start, REDIRECT))).toBe('access_denied');
    expect(await sql(`SELECT 1 FROM oauth_payloads WHERE model = 'Grant' AND payload->>'clientId' = $1`, [client.client_id])).toHaveLength(0);
  });
});

describe('the reach of a grant is the approving user’s, live', () => {
  it('a member’s grant reads the member’s clients; shrinking the member’s access narrows it on the next check', async () => {
    const access = await sql<{ clientId: string }>('SELECT client_id AS "clientId" FROM member_client_access WHERE membership_id = $1 ORDER BY client_id', [member.membershipId]);
    expect(access.length).toBeGreaterThan(1);
    const { tokens } = await connect(member.userId, member.orgId);
    expect((await verifyAccessToken(tokens.access_token))?.clientIds).toEqual(access.map((row) => row.clientId));
    const [removed] = access;
    await sql('DELETE FROM member_client_access WHERE membership_id = $1 AND client_id = $2', [member.membershipId, removed!.clientId]);
    try {
      expect((await verifyAccessToken(tokens.access_token))?.clientIds).toEqual(access.slice(1).map((row) => row.clientId));
    } finally {
      await sql('INSERT INTO member_client_access (membership_id, client_id) VALUES ($1, $2)', [member.membershipId, removed!.clientId]);
    }
  });

  it('a user removed from the organisation loses the grant on the next check', async () => {
    const userId = randomUUID();
    await sql(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, 'Leaving Member', 'x')`, [userId, `leaving-${userId}@demo.agency`]);
    await sql(`INSERT INTO memberships (id, org_id, user_id, role) VALUES ($1, $2, $3, 'member')`, [randomUUID(), admin.orgId, userId]);
    const { tokens } = await connect(userId, admin.orgId);
    expect((await verifyAccessToken(tokens.access_token))?.clientIds).toEqual([]);
    await sql('DELETE FROM memberships WHERE user_id = $1', [userId]);
    expect(await verifyAccessToken(tokens.access_token)).toBeNull();
  });

  it('refuses a token of another audience and a token whose grant is gone', async () => {
    const { tokens } = await connect(admin.userId, admin.orgId);
    const grantId = (await verifyAccessToken(tokens.access_token))!.grantId;
    await sql(`UPDATE oauth_payloads SET payload = jsonb_set(payload, '{aud}', '"https://elsewhere.example/api/mcp"') WHERE model = 'AccessToken' AND grant_id = $1`, [grantId]);
    expect(await verifyAccessToken(tokens.access_token)).toBeNull();
    const other = await connect(admin.userId, admin.orgId);
    const otherGrant = (await verifyAccessToken(other.tokens.access_token))!.grantId;
    await sql(`DELETE FROM oauth_payloads WHERE model = 'Grant' AND id = $1`, [otherGrant]);
    expect(await verifyAccessToken(other.tokens.access_token)).toBeNull();
  });

  it('refuses tokens it never issued, and an approval for an organisation that is not the user’s', async () => {
    expect(await verifyAccessToken('not-a-token')).toBeNull();
    expect(await verifyAccessToken('x'.repeat(1000))).toBeNull();
    const [other] = await sql<{ id: string }>(`SELECT id FROM organizations WHERE id <> $1 LIMIT 1`, [admin.orgId]);
    const client = await registeredClient();
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    await expect(consentOverHttp(server.origin, new CookieJar(), await sessionOf(admin.userId), start.url, { decision: 'allow', orgId: other!.id })).rejects.toThrow(
      'consent answered 400: Choose one of your organisations.',
    );
  });
});

describe('connected apps', () => {
  it('a member sees their own grants, an admin the organisation’s; revoking works on the next request', async () => {
    const { tokens: memberTokens } = await connect(member.userId, member.orgId);
    const memberGrant = (await verifyAccessToken(memberTokens.access_token))!.grantId;
    const asMember = { userId: member.userId, orgId: member.orgId, isAdmin: false };
    const asAdmin = { userId: admin.userId, orgId: admin.orgId, isAdmin: true };
    const memberView = await listConnectedApps(asMember);
    expect(memberView.every((app) => app.approvedBy.id === member.userId)).toBe(true);
    expect(memberView.map((app) => app.grantId)).toContain(memberGrant);
    expect((await listConnectedApps(asAdmin)).map((app) => app.grantId)).toContain(memberGrant);

    const { tokens: adminTokens } = await connect(admin.userId, admin.orgId);
    const adminGrant = (await verifyAccessToken(adminTokens.access_token))!.grantId;
    expect(await revokeConnectedApp(asMember, adminGrant)).toBe(false);
    expect(await verifyAccessToken(adminTokens.access_token)).not.toBeNull();

    expect(await revokeConnectedApp(asAdmin, memberGrant)).toBe(true);
    expect(await verifyAccessToken(memberTokens.access_token)).toBeNull();
    expect(await revokeConnectedApp(asAdmin, memberGrant)).toBe(false);
    const [shown] = (await listConnectedApps(asAdmin)).filter((app) => app.grantId === adminGrant);
    expect(shown).toMatchObject({ clientName: 'Test client', scopes: ['ads:read', 'social:read'], approvedBy: { id: admin.userId } });
    expect(shown!.createdAt).toBeInstanceOf(Date);
    const events = await sql<{ action: string; actor_id: string }>(`SELECT action, actor_id FROM audit_events WHERE target_id = $1 ORDER BY created_at`, [memberGrant]);
    expect(events).toEqual([
      { action: 'oauth_grant.connected', actor_id: member.userId },
      { action: 'oauth_grant.revoked', actor_id: admin.userId },
    ]);
  });

  it('records "last used" of a grant when one of its tokens is verified', async () => {
    const { tokens } = await connect(admin.userId, admin.orgId);
    const grantId = (await verifyAccessToken(tokens.access_token))!.grantId;
    const lastUsed = async () => (await sql<{ at: Date | null }>(`SELECT last_used_at AS at FROM oauth_payloads WHERE model = 'Grant' AND id = $1`, [grantId]))[0]!.at;
    // The write runs in the background; poll for it rather than sleep a fixed time.
    await expect.poll(lastUsed).toBeInstanceOf(Date);
  });
});

describe('parallel refreshes of one refresh token', () => {
  /** What the loser of a race for a refresh token is told: that it was rotated, and what to do. */
  const LOST_RACE = {
    error: 'invalid_grant',
    error_description: 'this refresh token was already used: a concurrent request rotated it. Use the newest refresh token, or sign in again',
  };
  /** A replayed refresh token (the grant is revoked): the provider's own words. */
  const INVALID_GRANT = { error: 'invalid_grant', error_description: 'grant request is invalid' };
  let second: TestServer;

  beforeAll(async () => {
    // A second instance on the same database and issuer, as behind a load balancer.
    second = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { APP_URL: server.origin } });
  });

  afterAll(async () => {
    await second?.stop();
  });

  /** `count` refreshes with one token at once, spread over the servers: exactly one wins, every other is invalid_grant. */
  async function race(origins: string[], clientId: string, refreshToken: string, count: number): Promise<TokenAnswer['body']> {
    const answers = await Promise.all(Array.from({ length: count }, (_, index) => postRefresh(origins[index % origins.length]!, clientId, refreshToken)));
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.contentType).toBe('application/json; charset=utf-8');
    expect(won[0]!.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600, token_type: 'Bearer', scope: 'ads:read social:read' });
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      expect(lost).toEqual({ status: 400, contentType: 'application/json; charset=utf-8', body: LOST_RACE });
    }
    return won[0]!.body;
  }

  async function expectWorksOnMcp(origin: string, accessToken: string): Promise<void> {
    const response = await postRpc(origin, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: accessToken });
    expect(response.status).toBe(200);
    const [message] = await rpcMessages(response);
    expect((message!.result as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toContain('list_clients');
  }

  for (const servers of ['one server process', 'two server processes on one database']) {
    it.each([2, 10, 50])(`%i at once on ${servers}, five rounds: one winner whose tokens work, every loser invalid_grant`, async (count) => {
      const origins = servers === 'one server process' ? [server.origin] : [server.origin, second.origin];
      const { client, tokens } = await connect(admin.userId, admin.orgId);
      let refreshToken = tokens.refresh_token!;
      for (let round = 0; round < 5; round += 1) {
        const winner = await race(origins, client.client_id, refreshToken, count);
        for (const origin of origins) await expectWorksOnMcp(origin, winner.access_token as string);
        // The winner's refresh token is the next round's: it refreshes again.
        refreshToken = winner.refresh_token as string;
      }
      expect((await refresh(as, client, refreshToken)).access_token).toEqual(expect.any(String));
    });
  }

  it(`a rotated token presented again is refused without harm while its successor is unused, and is a replay ${ROTATION_RACE_GRACE_S} s after its rotation`, async () => {
    const { client, tokens } = await connect(admin.userId, admin.orgId);
    const rotated = await postRefresh(server.origin, client.client_id, tokens.refresh_token!);
    expect(rotated.status).toBe(200);
    expect(await postRefresh(second.origin, client.client_id, tokens.refresh_token!)).toEqual({ status: 400, contentType: 'application/json; charset=utf-8', body: LOST_RACE });
    await expectWorksOnMcp(second.origin, rotated.body.access_token as string);

    const grantId = (await verifyAccessToken(rotated.body.access_token as string))!.grantId;
    await sql(`UPDATE oauth_payloads SET consumed_at = now() - make_interval(secs => $2) WHERE model = 'RefreshToken' AND grant_id = $1 AND consumed_at IS NOT NULL`, [
      grantId,
      ROTATION_RACE_GRACE_S + 1,
    ]);
    expect(await postRefresh(second.origin, client.client_id, tokens.refresh_token!)).toEqual({ status: 400, contentType: 'application/json; charset=utf-8', body: INVALID_GRANT });
    expect(await verifyAccessToken(rotated.body.access_token as string)).toBeNull();
    expect(await oauthError(refresh(as, client, rotated.body.refresh_token as string))).toBe('invalid_grant');
    expect(await sql(`SELECT 1 FROM oauth_payloads WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)`, [grantId])).toHaveLength(0);
  });
});
