// The rules of our flow that oidc-provider leaves to its configuration: one resource (the MCP
// endpoint), the scopes, redirect URIs of registered and metadata-document clients, and refresh-token
// narrowing that sticks. Also what input we take at all (OAUTH_INPUT_CAPS), checked before the
// provider sees it: it stores parameters and metadata in PostgreSQL, which cannot hold U+0000, and
// answered such input with a 500.
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { mcpUrl } from '../app-url';
import { OAUTH_SCOPES } from '../contract/scopes';
import { jsonDepthWithin } from '../text/json-depth';
import { isPlainName, isPlainText, PLAIN_NAME_MESSAGE, PLAIN_TEXT_MESSAGE } from '../text/plain-text';

/** The bounds of OAuth input, in characters (UTF-16 code units, as String.length counts them). */
export const OAUTH_INPUT_CAPS = {
  /**
   * A parameter's name or value at authorize, token, revoke and register, and any string in client
   * metadata: URIs, state, hints, codes, tokens. Longer than any real one.
   */
  value: 2048,
  /** client_name: a name a person reads, on the consent screen and the connected apps page. */
  clientName: 255,
  /** Nesting of client metadata JSON: it is flat but for a `jwks` (keys, in an array, in an object). */
  jsonDepth: 20,
} as const;

/** A parameter's name, a metadata field's name or a key inside one. */
const isAcceptedKey = (key: string) => isPlainText(key) && key.length <= OAUTH_INPUT_CAPS.value;
const KEY_MESSAGE = `must be plain text of at most ${OAUTH_INPUT_CAPS.value} characters`;

/** Why a list of query or form parameters is refused, or null when every name and value is acceptable. */
export function parameterProblem(params: URLSearchParams): string | null {
  for (const [name, value] of params) {
    // A name is repeated in the description only once it is known to be acceptable.
    if (!isAcceptedKey(name)) return `parameter names ${KEY_MESSAGE}`;
    if (!isPlainText(value)) return `${name} ${PLAIN_TEXT_MESSAGE}`;
    if (value.length > OAUTH_INPUT_CAPS.value) return `${name} must be at most ${OAUTH_INPUT_CAPS.value} characters long`;
  }
  return null;
}

/**
 * The scopes of a `scope` parameter that we offer, in our order. Every other value is ignored, not
 * refused: clients add `openid`, `offline_access` (refresh tokens are issued without it) or scopes of
 * their own, and one of them must not fail a whole sign-in.
 */
export function offeredScopes(scope: unknown): string[] {
  const requested = new Set(typeof scope === 'string' ? scope.split(' ') : []);
  return OAUTH_SCOPES.filter((offered) => requested.has(offered));
}

/** The MCP URL, with or without a trailing slash, is the one resource. */
export function isMcpResource(resource: string): boolean {
  return resource.replace(/\/$/, '') === mcpUrl();
}

/**
 * Run on every request that names a resource: at most one `resource` value; at authorization, the
 * scope becomes the scopes we offer among those requested (see offeredScopes), or every one of them
 * when it names none. The provider, the consent screen and the grant see only that.
 */
export function assertAuthorizationRequest(ctx: KoaContextWithOIDC): void {
  const { route } = ctx.oidc;
  const params = ctx.oidc.params ?? {};
  if (Array.isArray(params.resource) && params.resource.length > 1) {
    throw new errors.InvalidTarget('only one resource may be requested: the MCP endpoint');
  }
  if (route !== 'authorization') return;
  const offered = offeredScopes(params.scope);
  params.scope = (offered.length > 0 ? offered : OAUTH_SCOPES).join(' ');
}

/**
 * A refresh request's form with its `scope` reduced to the scopes we offer (see offeredScopes), or
 * without `scope` when it names none of them (no narrowing), before the provider reads it; any other
 * form is returned as it came.
 */
export function refreshFormWithOfferedScopes(form: string): string {
  const params = new URLSearchParams(form);
  if (params.get('grant_type') !== 'refresh_token' || !params.has('scope')) return form;
  const offered = offeredScopes(params.get('scope'));
  if (offered.length > 0) params.set('scope', offered.join(' '));
  else params.delete('scope');
  return params.toString();
}

/**
 * oidc-provider narrows the access token of a refresh with a smaller `scope` but copies the old
 * scope into the rotated refresh token. Narrowing the token being rotated first makes the narrowed
 * scope the rotated token's: it sticks, and a later request for more is `invalid_scope`.
 * (The provider has already refused a scope the refresh token does not carry.)
 */
export function narrowRotatedRefreshToken(ctx: KoaContextWithOIDC): void {
  const requested = ctx.oidc.params?.scope;
  const refreshToken = ctx.oidc.entities.RefreshToken;
  if (typeof requested === 'string' && requested.trim() && refreshToken) refreshToken.scope = requested.trim().split(/\s+/).join(' ');
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);

export type RedirectKind = 'web' | 'loopback' | 'app';

/** What kind of redirect a URI is, or null when we refuse it (other http, dangerous schemes, fragments). */
export function redirectKind(uri: string): RedirectKind | null {
  const url = URL.parse(uri);
  if (!url || url.hash || uri.includes('#')) return null;
  if (url.protocol === 'https:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'web';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? 'loopback' : null;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return null;
  // A private-use scheme of a native app (RFC 8252 §7.1) names the app in reverse-domain form.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? 'app' : null;
}

/**
 * Where a redirect goes, as a person would name it: a web or loopback host (a loopback one without its
 * port, as any port matches), or an app's scheme and name (`cursor://anysphere.cursor-mcp`). Null for a
 * redirect we refuse.
 */
export function redirectHost(uri: string): { host: string; kind: RedirectKind } | null {
  const kind = redirectKind(uri);
  const url = URL.parse(uri);
  if (!kind || !url) return null;
  if (kind === 'app') return { host: `${url.protocol}//${url.host}`, kind };
  return { host: kind === 'loopback' ? url.hostname : url.host, kind };
}

/**
 * Whether `requested` is one of a client's `registered` redirect URIs. Exactly equal, except loopback
 * http (RFC 8252 §7.3): there the port is the client's to pick at the time of the request, so any port
 * matches, and the rest is compared as parsed, where an empty path is `/` (`http://127.0.0.1:33418` and
 * `http://127.0.0.1:33418/` are one URL). Host, path and query must still be the registered ones.
 */
export function redirectUriRegistered(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const loopback = (uri: string) => {
    const url = redirectKind(uri) === 'loopback' ? URL.parse(uri) : null;
    // Credentials in a loopback URI are never ours to compare: such a URI matches only exactly.
    return url && !url.username && !url.password ? `${url.protocol}//${url.hostname}${url.pathname}${url.search}` : null;
  };
  const wanted = loopback(requested);
  return wanted !== null && registered.some((uri) => loopback(uri) === wanted);
}

/** Loopback and app-scheme redirects come back to the device the user is on. */
export function staysOnDevice(uri: string): boolean {
  const kind = redirectKind(uri);
  return kind === 'loopback' || kind === 'app';
}

const OFFERED_GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const OFFERED_AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post']);

export type ClientMetadata = Record<string, unknown>;

/** Client metadata refused, as the registration endpoint answers it (RFC 7591 §3.2.2). */
export interface MetadataRefusal {
  error: 'invalid_client_metadata' | 'invalid_redirect_uri';
  error_description: string;
}

const invalidMetadata = (description: string): MetadataRefusal => ({ error: 'invalid_client_metadata', error_description: description });

/** client_name, or one of its language variants (`client_name#fr`). */
const isClientName = (field: string) => field === 'client_name' || field.startsWith('client_name#');

/** Why a value of metadata `field` is refused: a string, a key or a name we do not take, anywhere in it. */
function metadataValueProblem(field: string, value: unknown): string | null {
  if (isClientName(field)) {
    if (typeof value !== 'string') return `${field} must be a string`;
    if (!isPlainName(value)) return `${field} ${PLAIN_NAME_MESSAGE}`;
    if (value.length > OAUTH_INPUT_CAPS.clientName) return `${field} must be at most ${OAUTH_INPUT_CAPS.clientName} characters long`;
    return null;
  }
  if (typeof value === 'string') {
    if (!isPlainText(value)) return `${field} ${PLAIN_TEXT_MESSAGE}`;
    return value.length > OAUTH_INPUT_CAPS.value ? `${field} must hold strings of at most ${OAUTH_INPUT_CAPS.value} characters` : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    if (!Array.isArray(value) && !isAcceptedKey(key)) return `the keys in ${field} ${KEY_MESSAGE}`;
    const problem = metadataValueProblem(field, item);
    if (problem) return problem;
  }
  return null;
}

/**
 * Client metadata from JSON text (a registration's body, a metadata document): nesting is bounded
 * before the text is parsed, then the object is normalised.
 */
export function parseClientMetadata(text: string): { metadata: ClientMetadata } | MetadataRefusal {
  if (!jsonDepthWithin(text, OAUTH_INPUT_CAPS.jsonDepth)) return invalidMetadata(`client metadata must not nest more than ${OAUTH_INPUT_CAPS.jsonDepth} levels deep`);
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch {
    return invalidMetadata('client metadata must be a JSON object');
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return invalidMetadata('client metadata must be a JSON object');
  return normaliseClientMetadata(metadata as ClientMetadata);
}

/**
 * Client metadata as we accept it, from a registration or a metadata document: field names and
 * strings plain text within OAUTH_INPUT_CAPS.value, and a `client_name` without text-direction
 * controls within OAUTH_INPUT_CAPS.clientName (else `invalid_client_metadata`); redirect URIs must
 * each be acceptable (else `invalid_redirect_uri`); a client with loopback or app-scheme redirects
 * and no `application_type` is native (so any loopback port matches); grant types and an auth method
 * we do not offer (a `device_code` grant, `private_key_jwt`) are dropped rather than fatal; a
 * registered `scope` is dropped so that it never limits later requests.
 */
export function normaliseClientMetadata(metadata: ClientMetadata): { metadata: ClientMetadata } | MetadataRefusal {
  for (const [field, value] of Object.entries(metadata)) {
    if (!isAcceptedKey(field)) return invalidMetadata(`field names ${KEY_MESSAGE}`);
    const problem = metadataValueProblem(field, value);
    if (problem) return invalidMetadata(problem);
  }
  const redirects = metadata.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0 || redirects.some((uri) => typeof uri !== 'string')) {
    return { error: 'invalid_redirect_uri', error_description: 'redirect_uris must be a non-empty array of URIs' };
  }
  const kinds = (redirects as string[]).map(redirectKind);
  const refused = (redirects as string[]).filter((_, index) => kinds[index] === null);
  if (refused.length > 0) {
    return { error: 'invalid_redirect_uri', error_description: `redirect URI not accepted (https, loopback http or an app scheme only): ${refused.join(', ')}` };
  }

  const normalised: ClientMetadata = { ...metadata };
  delete normalised.scope;
  if (normalised.application_type === undefined && kinds.some((kind) => kind !== 'web')) normalised.application_type = 'native';
  if (Array.isArray(normalised.grant_types)) {
    const offered = normalised.grant_types.filter((type) => typeof type === 'string' && OFFERED_GRANT_TYPES.has(type));
    normalised.grant_types = offered.length > 0 ? offered : ['authorization_code', 'refresh_token'];
  }
  if (Array.isArray(normalised.response_types)) normalised.response_types = ['code'];
  if (typeof normalised.token_endpoint_auth_method === 'string' && !OFFERED_AUTH_METHODS.has(normalised.token_endpoint_auth_method)) {
    normalised.token_endpoint_auth_method = 'none';
  }
  return { metadata: normalised };
}
