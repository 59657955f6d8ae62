// What the OAuth endpoints take, on the production server: control characters and over-long values in
// any parameter of authorize, token, revoke and register are refused with 400 before oidc-provider
// sees them (they reached PostgreSQL and came back as a 500), registration JSON is bounded in depth
// (20,000 levels overflowed the stack), and a client name may not hold text-direction controls. A name
// stored before that rule is shown without them. A path under /oauth or /consent that does not decode
// is a 400 too. Each answer is checked exactly, and nothing is logged.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { listConnectedApps } from '@/lib/oauth/grants';
import { OAUTH_INPUT_CAPS } from '@/lib/oauth/request-rules';
import { listAuditEvents } from '@/lib/audit/events';
import { clientAddress, startTestServer, type TestServer } from '../support/http-server';
import { authorizationUrl, consentOverHttp, CookieJar, discover, register, sessionOf } from '../support/oauth-flow';
import { newOrganisationAdmin } from './platform-support';
import { ERROR_IN_LOG } from '../support/log-lines';

const REDIRECT = 'http://127.0.0.1:43117/callback';

let server: TestServer;
let as: oauth.AuthorizationServer;
let clientId: string;
let logStart = 0;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  as = await discover(server.origin);
  clientId = (await register(as, { client_name: 'Input test client', redirect_uris: [REDIRECT] })).client_id;
  logStart = server.logs().length;
});

afterAll(async () => {
  // Every refusal here is an answer, not a failure: none of them printed an error.
  expect(server.logs().slice(logStart)).not.toMatch(ERROR_IN_LOG);
  await server?.stop();
});

/** The authorization endpoint's answer to `params` (raw, already encoded). */
async function authorize(rawQuery: string): Promise<Response> {
  return server.request(`/oauth/authorize?${rawQuery}`);
}

async function expectErrorPage(response: Response, description: string): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('location')).toBeNull();
  const page = await response.text();
  expect(page).toContain('<code id="error">invalid_request</code>');
  expect(page).toContain(`<p id="error-description">${description}</p>`);
}

async function expectOAuthError(response: Response, error: string, description: string): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(await response.json()).toEqual({ error, error_description: description });
}

/** A valid authorization request for the registered client, with `extra` raw pieces appended. */
async function authorizationQuery(extra: string): Promise<string> {
  const start = await authorizationUrl(as, clientId, REDIRECT);
  return `${start.url.search.slice(1)}&${extra}`;
}

function post(path: string, body: string, type = 'application/x-www-form-urlencoded'): Promise<Response> {
  return server.request(path, { method: 'POST', headers: { 'content-type': type, 'x-forwarded-for': clientAddress() }, body });
}

describe('authorize', () => {
  it('refuses a NUL in client_id with the error page, as a request whose redirect cannot be trusted', async () => {
    await expectErrorPage(await authorize('client_id=a%00b&response_type=code'), 'client_id must not contain control characters');
  });

  it.each(['state', 'login_hint', 'ui_locales'])('refuses a NUL in %s of a registered client on the page, not at its redirect', async (name) => {
    const query = name === 'state' ? (await authorizationQuery('')).replace(/&state=[^&]*/, '&state=a%00b') : await authorizationQuery(`${name}=a%00b`);
    await expectErrorPage(await authorize(query), `${name} must not contain control characters`);
  });

  it('refuses every other C0 and C1 control, DEL, and a control in a parameter name', async () => {
    for (const control of ['%01', '%09', '%0A', '%0D', '%1F', '%7F', '%C2%85', '%C2%9F']) {
      await expectErrorPage(await authorize(await authorizationQuery(`login_hint=x${control}`)), 'login_hint must not contain control characters');
    }
    await expectErrorPage(await authorize(await authorizationQuery('bad%00name=1')), 'parameter names must be plain text of at most 2048 characters');
  });

  it(`takes a state of ${OAUTH_INPUT_CAPS.value} characters to consent, and refuses one more`, async () => {
    expect(OAUTH_INPUT_CAPS.value).toBe(2048);
    const base = (await authorizationQuery('')).replace(/&state=[^&]*/, '');
    const longest = await authorize(`${base}state=${'s'.repeat(2048)}`);
    expect(longest.status).toBe(303);
    expect(longest.headers.get('location')).toMatch(/^\/consent\/[\w-]+$/);
    await expectErrorPage(await authorize(`${base}state=${'s'.repeat(2049)}`), 'state must be at most 2048 characters long');
  });

  it('checks a form-encoded authorization request the same way', async () => {
    const response = await post('/oauth/authorize', `client_id=${clientId}&response_type=code&state=%00`);
    await expectErrorPage(response, 'state must not contain control characters');
  });
});

describe('a path whose percent-encoding does not decode', () => {
  it.each([
    ['GET', '/oauth/authorize/%'],
    ['POST', '/oauth/%zz'],
    ['GET', '/consent/%E2%82'],
    ['POST', '/consent/%/decision'],
    ['GET', '/api/v1/%E2%82'],
    ['GET', '/settings/%'],
  ])('%s %s is a 400, not the 500 of Next.js’s own routing', async (method, path) => {
    const response = await server.request(path, { method });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('The address could not be read: its percent-encoding is not valid UTF-8.');
  });
});

describe('token and revoke', () => {
  it('refuse a NUL in client_id with invalid_request', async () => {
    await expectOAuthError(await post('/oauth/token', 'grant_type=authorization_code&client_id=a%00b&code=x'), 'invalid_request', 'client_id must not contain control characters');
    await expectOAuthError(await post('/oauth/revoke', 'client_id=a%00b&token=x'), 'invalid_request', 'client_id must not contain control characters');
  });

  it('refuse an over-long value and a control character in the query string too', async () => {
    await expectOAuthError(await post('/oauth/token', `grant_type=refresh_token&client_id=${clientId}&refresh_token=${'r'.repeat(2049)}`), 'invalid_request', 'refresh_token must be at most 2048 characters long');
    await expectOAuthError(await post('/oauth/revoke?x=%0A', `client_id=${clientId}&token=x`), 'invalid_request', 'x must not contain control characters');
  });

  it('pass acceptable input on to the provider, which answers it', async () => {
    const response = await post('/oauth/token', `grant_type=authorization_code&client_id=${clientId}&code=unknown&code_verifier=${'v'.repeat(43)}&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('register', () => {
  const registration = (metadata: Record<string, unknown>) => post('/oauth/register', JSON.stringify({ redirect_uris: [REDIRECT], ...metadata }), 'application/json');

  it.each([
    ['a NUL', 'Reporting\u0000bot'],
    ['a right-to-left override', 'Backup\u202Etxt.exe'],
    ['a left-to-right embedding', 'Backup\u202Atxt.exe'],
    ['a first-strong isolate', 'Backup\u2068txt.exe'],
    ['a right-to-left mark', 'Backup\u200Ftxt.exe'],
    ['an Arabic letter mark', 'Backup\u061Ctxt.exe'],
    ['a zero-width space', 'Cl\u200Baude'],
    ['a paragraph separator', 'Cl\u2029aude'],
    ['a tag character', 'Claude\u{E0063}'],
  ])('refuses %s in client_name as invalid_client_metadata', async (_label, name) => {
    await expectOAuthError(await registration({ client_name: name }), 'invalid_client_metadata', 'client_name must not contain control characters or invisible characters (such as text-direction controls or zero-width spaces)');
  });

  it(`takes a client_name of ${OAUTH_INPUT_CAPS.clientName} characters and refuses one more`, async () => {
    expect(OAUTH_INPUT_CAPS.clientName).toBe(255);
    const accepted = await registration({ client_name: 'n'.repeat(255) });
    expect(accepted.status).toBe(201);
    expect((await accepted.json()).client_name).toBe('n'.repeat(255));
    await expectOAuthError(await registration({ client_name: 'n'.repeat(256) }), 'invalid_client_metadata', 'client_name must be at most 255 characters long');
  });

  it('refuses a control character anywhere in the metadata, in keys and in the query', async () => {
    await expectOAuthError(await registration({ client_uri: 'https://app.example/\u0000' }), 'invalid_client_metadata', 'client_uri must not contain control characters');
    await expectOAuthError(await registration({ redirect_uris: [`${REDIRECT}\u0001`] }), 'invalid_client_metadata', 'redirect_uris must not contain control characters');
    await expectOAuthError(await registration({ 'bad\u0000field': 1 }), 'invalid_client_metadata', 'field names must be plain text of at most 2048 characters');
    await expectOAuthError(await registration({ jwks: { keys: [{ 'k\u0000': 'x' }] } }), 'invalid_client_metadata', 'the keys in jwks must be plain text of at most 2048 characters');
    await expectOAuthError(await post('/oauth/register?x=%00', JSON.stringify({ redirect_uris: [REDIRECT] }), 'application/json'), 'invalid_client_metadata', 'x must not contain control characters');
  });

  it('refuses a body nested 20,000 deep (without running out of stack), and takes 20 levels but not 21', async () => {
    const nested = (depth: number) => `${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`;
    const body = (depth: number) => `{"redirect_uris":["${REDIRECT}"],"software_statement_extra":${nested(depth)}}`;
    const tooDeep = 'client metadata must not nest more than 20 levels deep';
    await expectOAuthError(await post('/oauth/register', body(20_000), 'application/json'), 'invalid_client_metadata', tooDeep);
    await expectOAuthError(await post('/oauth/register', body(21), 'application/json'), 'invalid_client_metadata', tooDeep);
    expect((await post('/oauth/register', body(20), 'application/json')).status).toBe(201);
    // Brackets inside strings are text, not nesting.
    expect((await registration({ client_name: `${'['.repeat(100)}${'{'.repeat(100)}` })).status).toBe(201);
  });
});

describe('a client name stored before the rule', () => {
  it('is shown on the consent screen, the connected apps list and the activity without text-direction controls', async () => {
    const admin = await newOrganisationAdmin('stored-name');
    const client = await register(as, { client_name: 'Backup tool', redirect_uris: [REDIRECT] });
    await sql(`UPDATE oauth_payloads SET payload = jsonb_set(payload, '{client_name}', to_jsonb($2::text)) WHERE model = 'Client' AND id = $1`, [
      client.client_id,
      'Backup\u202Etxt.exe',
    ]);
    const session = await sessionOf(admin.userId);
    const jar = new CookieJar();
    jar.set('metrics_session', session);
    const start = await authorizationUrl(as, client.client_id, REDIRECT);
    const consent = (await jar.fetch(start.url.href)).headers.get('location')!;
    const page = await (await jar.fetch(new URL(consent, server.origin).href)).text();
    expect(page).toContain('Allow <strong>Backuptxt.exe</strong> to read your data?');
    expect(page).not.toContain('\u202E');

    await consentOverHttp(server.origin, new CookieJar(), session, (await authorizationUrl(as, client.client_id, REDIRECT)).url, { decision: 'allow', orgId: admin.orgId });
    const apps = await listConnectedApps({ userId: admin.userId, orgId: admin.orgId, isAdmin: true });
    expect(apps.map((app) => app.clientName)).toEqual(['Backuptxt.exe']);
    expect((await listAuditEvents(admin.orgId, 'oauth_grant')).map((event) => event.targetName)).toEqual(['Backuptxt.exe']);
  });
});
