// An MCP client signing in the way real ones do: the official SDK's own OAuth flow (its
// OAuthClientProvider and auth()) against the running server — discovery from the MCP endpoint's 401,
// dynamic registration, PKCE, the consent screen clicked in Chromium, the code exchanged, a tool
// called, the tokens refreshed by the SDK and a tool called again with the new ones.
import { expect, test } from './support/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ADMIN, DEMO_PASSWORD, query, saveScreenshot, userOrg } from './support/app';
import { loopbackApp } from './support/loopback-app';

/** What a native MCP client keeps between the steps of its sign-in: in memory, as a CLI would. */
class InMemoryOAuthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connectedClient(mcpUrl: URL, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'sdk-oauth-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}

test('the SDK signs in by itself (discovery, registration, PKCE, consent, token, refresh) and calls a tool', async ({ page, baseURL }, testInfo) => {
  const admin = await userOrg(ADMIN.email);
  const mcpUrl = new URL('/api/mcp', baseURL);
  const app = await loopbackApp();
  const provider = new InMemoryOAuthClient(app.redirect);

  // Without tokens the server answers 401; the SDK discovers, registers and asks us to open the URL.
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: 'sdk-oauth-e2e', version: '1.0.0' }).connect(transport)).rejects.toThrow(UnauthorizedError);
  expect(provider.information?.client_id).toEqual(expect.any(String));
  const authorizationUrl = provider.authorizationUrl!;
  expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${baseURL}/oauth/authorize`);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl.href);

  // The person: signs in on the way and allows; the browser lands on the app's loopback callback.
  await page.goto(authorizationUrl.href);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Allow SDK test client to read your data?');
  await saveScreenshot(page, testInfo, 'mcp-sdk-consent');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
  await expect(page.locator('body')).toHaveText('You can close this window.');
  await app.close();
  const callback = new URL(page.url());
  expect(callback.searchParams.get('iss')).toBe(baseURL);

  await transport.finishAuth(callback.searchParams.get('code')!);
  const first = provider.tokens()!;
  expect(first).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 3600, scope: 'ads:read social:read' });
  expect(first.refresh_token).toEqual(expect.any(String));

  const expectedClients = await query<{ id: string; name: string }>('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name, id', [admin.orgId]);
  const listClients = async () => {
    const client = await connectedClient(mcpUrl, provider);
    try {
      const result = await client.callTool({ name: 'list_clients', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      const data = (result.structuredContent as { data: { id: string; name: string }[] }).data;
      return data.map(({ id, name }) => ({ id, name }));
    } finally {
      await client.close();
    }
  };
  expect(await listClients()).toEqual(expectedClients);

  // The SDK refreshes with the refresh token it holds (rotated: a new refresh token comes back).
  expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
  const second = provider.tokens()!;
  expect(second.access_token).not.toBe(first.access_token);
  expect(second.refresh_token).not.toBe(first.refresh_token);
  expect(await listClients()).toEqual(expectedClients);
});
