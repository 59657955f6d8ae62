// An OAuth client for tests: oauth4webapi (a real client library) against a running server, plus a
// browser stand-in for the steps a person does (a cookie jar, and the consent form posted over HTTP
// with a dashboard session made directly in the database). The browser tests click the same form.
import * as oauth from 'oauth4webapi';
import { prisma } from '@/lib/db';
import { createSession } from '@/lib/session/sessions';
import { csrfTokenFor } from '@/lib/session/tokens';

export const MCP_PATH = '/api/mcp';

/** oauth4webapi refuses http unless told: the test servers listen on loopback http. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A minimal browser: cookies by name (paths ignored), requests without following redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }
}

export async function discover(origin: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(origin);
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure });
  return oauth.processDiscoveryResponse(issuer, response);
}

export async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>>): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(as, metadata, insecure);
  return oauth.processDynamicClientRegistrationResponse(response);
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  codeVerifier: string;
}

/** An authorization request URL with PKCE S256; `extra` adds or (with null) removes parameters. */
export async function authorizationUrl(
  as: oauth.AuthorizationServer,
  clientId: string,
  redirectUri: string,
  extra: Record<string, string | string[] | null> = {},
): Promise<AuthorizationStart> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | string[] | null> = {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'ads:read social:read',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  }
  return { url, state, codeVerifier };
}

/**
 * Follows an authorization in a "browser" with a signed-in dashboard session: authorize → consent
 * screen → Allow or Deny → resume → the client's redirect, whose URL is returned.
 */
export async function consentOverHttp(
  origin: string,
  jar: CookieJar,
  sessionToken: string,
  authorization: URL,
  answer: { decision: 'allow' | 'deny'; orgId?: string },
): Promise<URL> {
  jar.set('metrics_session', sessionToken);
  const authorize = await jar.fetch(authorization.href);
  const consentLocation = authorize.headers.get('location');
  if (authorize.status !== 303 || !consentLocation?.startsWith('/consent/')) {
    throw new Error(`authorize answered ${authorize.status} ${consentLocation} ${await authorize.text()}`);
  }
  const form = new URLSearchParams({ csrf_token: csrfTokenFor(sessionToken), decision: answer.decision, orgId: answer.orgId ?? '' });
  const decided = await jar.fetch(`${origin}${consentLocation}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: form,
  });
  const resume = decided.headers.get('location');
  if (decided.status !== 303 || !resume) throw new Error(`consent answered ${decided.status}: ${await decided.text()}`);
  const resumed = await jar.fetch(new URL(resume, origin).href);
  const redirect = resumed.headers.get('location');
  if (resumed.status !== 303 || !redirect) throw new Error(`resume answered ${resumed.status}: ${await resumed.text()}`);
  return new URL(redirect);
}

export async function exchangeCode(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  callback: URL,
  start: AuthorizationStart,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<oauth.TokenEndpointResponse> {
  const params = oauth.validateAuthResponse(as, client, callback, start.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, start.codeVerifier, {
    additionalParameters: extra,
    ...insecure,
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

export async function refresh(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<oauth.TokenEndpointResponse> {
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, { additionalParameters: extra, ...insecure });
  return oauth.processRefreshTokenResponse(as, client, response);
}

/** The OAuth error code of a rejected promise (oauth4webapi's ResponseBodyError or AuthorizationResponseError). */
export async function oauthError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) return error.error;
    throw error;
  }
  throw new Error('expected an OAuth error, got a success');
}

/** A dashboard session for `userId`, made directly in the database (the browser tests sign in). */
export async function sessionOf(userId: string): Promise<string> {
  const user = await prisma().user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, passwordHash: true } });
  return (await createSession(user)).token;
}

/** A newly registered public client with one redirect, approved by `userId` for `orgId`: its tokens. */
export async function connectOverHttp(
  origin: string,
  as: oauth.AuthorizationServer,
  who: { userId: string; orgId: string },
  redirectUri: string,
  extra: Record<string, string | string[] | null> = {},
  clientName = 'Test client',
) {
  const client = await register(as, { client_name: clientName, redirect_uris: [redirectUri] });
  const start = await authorizationUrl(as, client.client_id, redirectUri, extra);
  const callback = await consentOverHttp(origin, new CookieJar(), await sessionOf(who.userId), start.url, { decision: 'allow', orgId: who.orgId });
  const tokens = await exchangeCode(as, client, callback, start, redirectUri);
  return { client, tokens, callback, start };
}

export interface TokenAnswer {
  status: number;
  contentType: string | null;
  body: Record<string, unknown>;
}

/** A refresh posted as a public client sends it, its answer read raw (status, content type, JSON body). */
export async function postRefresh(origin: string, clientId: string, refreshToken: string): Promise<TokenAnswer> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken }),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}
