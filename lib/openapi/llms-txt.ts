// /llms.txt (llmstxt.org): the service described for an AI agent in Markdown, with this server's
// absolute addresses (APP_URL). The operations and tools are listed from the same registry that builds
// the REST routes, the MCP tools and the OpenAPI document, so the list cannot fall behind them. The
// tools are handed in (by app/llms.txt, the MCP door's catalogue): openapi/ stands beside the doors and
// imports neither.
import { appUrl, mcpUrl, MCP_PATH } from '../app-url';
import { DATA_USE_RULE } from '../contract/data-use';
import { RATE_LIMIT } from '../contract/limits';
import { SCOPES } from '../contract/scopes';
import type { Operation } from '../contract/operation';
import { allOperations } from '../operations/registry';

const API_PATH = '/api/v1';

/** The text, listing `tools` (operations with a tool face) as the MCP tools. */
export function llmsTxt(tools: Operation[]): string {
  const base = appUrl();
  const scope = (scope: string | null) => (scope ? `scope \`${scope}\`` : 'any scope');
  return `# Metrics API

> Read-only access to the ads, organic social, web analytics, search console and store data that an agency dashboard has already synced for one organisation: a REST API for servers (API key) and an MCP server for assistants (OAuth 2.1 or API key). Nothing here changes data or calls an ads platform.

- Use of the data: ${DATA_USE_RULE}
- REST: \`GET ${base}${API_PATH}/…\` with the header \`Authorization: Bearer <key>\`. An organisation admin creates keys at ${base}/settings/api-keys; each key has scopes (${SCOPES.map((s) => `\`${s}\``).join(', ')}) and may be limited to some of the organisation's clients.
- Every success is \`{ data, meta }\`. \`null\` means not reported, never zero; \`meta.syncedAt\` says how fresh the data is. Every error is \`application/problem+json\` whose \`type\` links to the explanation of its \`code\`.
- Dates are \`YYYY-MM-DD\` days; \`from\` and \`to\` are both included. Unknown or repeated query parameters are refused with 400, listing every problem.
- Limits: ${RATE_LIMIT.limit} requests per ${RATE_LIMIT.windowSeconds} seconds per key (REST and MCP together); every answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` and the draft-ietf-httpapi-ratelimit-headers-10 fields \`RateLimit-Policy\` and \`RateLimit\`, a 429 also \`Retry-After\` in seconds.
- MCP: Streamable HTTP at ${mcpUrl()}. A client without a credential gets a 401 whose \`WWW-Authenticate\` names the protected-resource metadata; it signs in with OAuth as a person of the organisation, who approves it on a consent screen. A client may send an API key as on REST instead.
- MCP tools, all read-only; each answers the REST \`{ data, meta }\` of the same query:
${tools.map((operation) => `  - \`${operation.tool!.name}\` (${scope(operation.scope)}): ${operation.tool!.title}. ${operation.summary}.`).join('\n')}

## Docs

- [OpenAPI document](${base}${API_PATH}/openapi.json): OpenAPI 3.1.0, every operation with its parameters, response schemas and examples; needs no key
- [API reference](${base}/docs/api): the OpenAPI document rendered for people
- [Error codes](${base}/docs/errors): every problem \`code\`, its HTTP status and what to do about it
- [Connect an MCP client](${base}/#connect): what to paste into Claude, Claude Code, ChatGPT, Cursor, VS Code or MCP Inspector

## REST API

${allOperations().map((operation) => `- [GET ${API_PATH}${operation.path}](${base}${API_PATH}${operation.path}): ${operation.summary} (${scope(operation.scope)})`).join('\n')}

## MCP server

- [MCP endpoint](${mcpUrl()}): Streamable HTTP, POST only; the tools above
- [Protected resource metadata](${base}/.well-known/oauth-protected-resource${MCP_PATH}): the resource and its authorization server (RFC 9728)
- [Authorization server metadata](${base}/.well-known/oauth-authorization-server): the OAuth 2.1 endpoints, PKCE S256, dynamic registration and client ID metadata documents (RFC 8414)
`;
}
