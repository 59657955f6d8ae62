// The OAuth 2.1 authorization server for MCP clients: oidc-provider 9 configured for exactly what we
// offer (authorization code + PKCE S256, refresh tokens, one resource: the MCP endpoint) and nothing
// of OpenID Connect (no id tokens, userinfo, logout, PAR, DPoP or development interactions).
import { generateKeyPairSync } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { appUrl, mcpUrl } from '../app-url';
import { PostgresAdapter } from './adapter';
import { cookieKeys } from './cookie-keys';
import { renderOAuthError } from './error-page';
import { allowMetadataDocumentFetch, fetchClientMetadata } from './client-metadata';
import { assertAuthorizationRequest, isMcpResource, narrowRotatedRefreshToken, redirectUriRegistered } from './request-rules';
import { processWide } from '../process-wide';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  registration: '/oauth/register',
} as const;

export const ACCESS_TOKEN_TTL_S = 60 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/** A grant outlives its refresh tokens: every rotation starts a new 30 days, up to a year in all. */
const GRANT_TTL_S = 365 * 24 * 60 * 60;
const AUTHORIZATION_CODE_TTL_S = 60;
const INTERACTION_TTL_S = 60 * 60;

export const CONSENT_PATH = '/consent';

/** Lifetimes, in seconds (the spec's access and refresh token lives; a grant outlives its refresh tokens). */
const TTL = {
  AccessToken: ACCESS_TOKEN_TTL_S,
  AuthorizationCode: AUTHORIZATION_CODE_TTL_S,
  RefreshToken: REFRESH_TOKEN_TTL_S,
  Grant: GRANT_TTL_S,
  Interaction: INTERACTION_TTL_S,
  Session: INTERACTION_TTL_S,
} as const satisfies Configuration['ttl'];

/**
 * The provider's features: those it enables by default that the service does not offer, off; revocation,
 * dynamic registration, client metadata documents and resource indicators (the MCP endpoint the one
 * resource), on.
 */
function features(): Configuration['features'] {
  const resourceServer = {
    scope: 'ads:read social:read',
    audience: mcpUrl(),
    accessTokenFormat: 'opaque' as const,
    accessTokenTTL: ACCESS_TOKEN_TTL_S,
  };
  return {
    devInteractions: { enabled: false },
    userinfo: { enabled: false },
    rpInitiatedLogout: { enabled: false },
    introspection: { enabled: false },
    pushedAuthorizationRequests: { enabled: false },
    dPoP: { enabled: false },
    claimsParameter: { enabled: false },
    revocation: { enabled: true },
    registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
    clientIdMetadataDocument: {
      enabled: true,
      ack: 'draft-02',
      allowFetch: (_ctx, clientId) => allowMetadataDocumentFetch(clientId),
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => mcpUrl(),
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx: KoaContextWithOIDC, resource: string) => {
        assertAuthorizationRequest(ctx);
        if (!isMcpResource(resource)) throw new errors.InvalidTarget(`the only resource is ${mcpUrl()}`);
        return resourceServer;
      },
    },
  };
}

function configuration(): Configuration {
  return {
    adapter: PostgresAdapter,
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    // Only `offline_access` is an OpenID scope here, accepted and without effect: refresh tokens are
    // issued without it. The API scopes belong to the MCP resource (getResourceServerInfo).
    scopes: ['offline_access'],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // No id tokens are issued; the provider still wants the one key it holds to fit the default.
      id_token_signed_response_alg: 'ES256',
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    // CORS is answered by the route bridge (any origin, no credentials) on the endpoints that need it.
    clientBasedCORS: () => true,
    cookies: { keys: cookieKeys() },
    jwks: { keys: [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })] },
    routes: { ...OAUTH_ROUTES, jwks: '/oauth/jwks' },
    pkce: { required: () => true },
    features: features(),
    fetch: fetchClientMetadata,
    fetchResponseBodyLimits: { 'client_id metadata document': 20 * 1024 },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: (ctx) => {
      narrowRotatedRefreshToken(ctx);
      return true;
    },
    // Every authorization asks for consent and makes a grant of its own: a grant is only ever the
    // one the user approved on the consent screen (whose id the interaction result carries).
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    renderError: renderOAuthError,
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    ttl: TTL,
  };
}

function createProvider(): Provider {
  const provider = new Provider(appUrl(), configuration());
  // The provider matches a loopback redirect on any port but compares the rest as text, so
  // `http://127.0.0.1:33418` missed a registered `http://127.0.0.1:33418/`: our rule replaces its check.
  provider.Client.prototype.redirectUriAllowed = function (this: InstanceType<Provider['Client']>, uri: string) {
    return redirectUriRegistered(uri, this.redirectUris ?? []);
  };
  return provider;
}

/** Created on first use, not at import: `next build` imports route modules. */
export const oauthProvider = processWide('oauth-provider', createProvider);
