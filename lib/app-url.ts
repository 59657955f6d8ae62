// The service's public addresses, from configuration (APP_URL), never from a request's Host header:
// a caller could otherwise choose the issuer, the MCP resource or the links in our error documents.
const DEFAULT_APP_URL = 'http://localhost:3000';

/** The public base URL, without a trailing slash. */
export function appUrl(): string {
  return (process.env.APP_URL ?? DEFAULT_APP_URL).replace(/\/+$/, '');
}

export const MCP_PATH = '/api/mcp';

/** The MCP endpoint: the OAuth resource (RFC 8707) and the audience of every access token. */
export function mcpUrl(): string {
  return `${appUrl()}${MCP_PATH}`;
}
