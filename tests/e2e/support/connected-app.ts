// Connected apps for the browser tests: an app registered with the server and approved over HTTP (no
// browser needed), its grant, and tool calls made with its token by a real MCP client.
import { expect } from '@playwright/test';
import { verifyAccessToken } from '../../../lib/oauth/verify';
import { connect } from '../../integration/mcp-support';
import { connectOverHttp, discover } from '../../support/oauth-flow';
import { query } from './app';

/** The redirect URI of the tests' apps: the code is read from the consent's redirect, nothing is sent there. */
export const REDIRECT = 'http://127.0.0.1:33418/callback';

export async function grantOf(token: string): Promise<string> {
  return (await verifyAccessToken(token))!.grantId;
}

/** An app registered with the server and approved over HTTP by `who`: its client id, token and grant id. */
export async function connectRegisteredApp(baseURL: string, who: { userId: string; orgId: string }, name: string) {
  const { client, tokens } = await connectOverHttp(baseURL, await discover(baseURL), who, REDIRECT, {}, name);
  return { clientId: client.client_id, token: tokens.access_token, grantId: await grantOf(tokens.access_token) };
}

/** Tool calls made by a real MCP client with the app's token; resolves once the server has recorded them. */
export async function callTools(baseURL: string, token: string, grantId: string, tools: string[]): Promise<void> {
  const client = await connect('@modelcontextprotocol/client 2.x', baseURL, token);
  try {
    for (const tool of tools) await client.callTool(tool);
  } finally {
    await client.close();
  }
  await expect.poll(async () => (await query('SELECT 1 FROM mcp_tool_calls WHERE grant_id = $1', [grantId])).length).toBe(tools.length);
}
