// The authorization server's metadata (RFC 8414), served at /.well-known/oauth-authorization-server
// and, with the same facts, at /.well-known/openid-configuration. It advertises only what works.
import { appUrl } from '../app-url';
import { OAUTH_SCOPES } from '../contract/scopes';
import { CORS_HEADERS } from './endpoint';
import { OAUTH_ROUTES } from './provider';

export function authorizationServerMetadata() {
  const issuer = appUrl();
  return {
    issuer,
    authorization_endpoint: `${issuer}${OAUTH_ROUTES.authorization}`,
    token_endpoint: `${issuer}${OAUTH_ROUTES.token}`,
    revocation_endpoint: `${issuer}${OAUTH_ROUTES.revocation}`,
    registration_endpoint: `${issuer}${OAUTH_ROUTES.registration}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...OAUTH_SCOPES],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

export function metadataResponse(): Response {
  return Response.json(authorizationServerMetadata(), {
    headers: { ...CORS_HEADERS, 'Cache-Control': 'public, max-age=300' },
  });
}

export function metadataPreflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
