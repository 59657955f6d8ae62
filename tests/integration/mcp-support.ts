// MCP over HTTP for tests: the two official client SDKs (2.x `@modelcontextprotocol/client` and the
// widely deployed 1.x `@modelcontextprotocol/sdk`) connected to a running server with a bearer
// credential, and raw JSON-RPC posts for what an SDK will not send (batches, malformed bodies).
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MCP_PATH = '/api/mcp';
/** The 2025-era revision both SDKs negotiate with mcp-handler's stateless fallback. */
export const PROTOCOL_VERSION = '2025-11-25';

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** One connected client, whichever SDK it is. */
export interface McpTestClient {
  sdk: string;
  /** The server's `instructions`, as the SDK kept them from connecting. */
  instructions(): string | undefined;
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

export type SdkName = '@modelcontextprotocol/client 2.x' | '@modelcontextprotocol/sdk 1.x';
export const SDKS: SdkName[] = ['@modelcontextprotocol/client 2.x', '@modelcontextprotocol/sdk 1.x'];

/** Connects with the SDK's own connect sequence; `fetch`, when given, carries every request the transport makes. */
export async function connect(sdk: SdkName, origin: string, token: string, fetch?: typeof globalThis.fetch): Promise<McpTestClient> {
  const url = new URL(MCP_PATH, origin);
  const requestInit = { headers: { Authorization: `Bearer ${token}` } };
  const info = { name: 'metrics-api-tests', version: '1.0.0' };
  if (sdk === '@modelcontextprotocol/client 2.x') {
    const client = new ClientV2(info);
    await client.connect(new TransportV2(url, { requestInit, fetch }));
    return {
      sdk,
      instructions: () => client.getInstructions(),
      listTools: async () => (await client.listTools()).tools as ListedTool[],
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  }
  const client = new ClientV1(info);
  await client.connect(new TransportV1(url, { requestInit, fetch }));
  return {
    sdk,
    instructions: () => client.getInstructions(),
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** A raw JSON-RPC POST to the MCP endpoint, with the headers a Streamable HTTP client sends. */
export function postRpc(origin: string, body: unknown, options: { token?: string; headers?: Record<string, string>; raw?: string } = {}): Promise<Response> {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    ...options.headers,
  });
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  return fetch(new URL(MCP_PATH, origin), { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
}

/** The JSON-RPC message(s) of a response, whether sent as JSON or as server-sent events. */
export async function rpcMessages(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  }
  const parsed = JSON.parse(text) as Record<string, unknown> | Record<string, unknown>[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

export function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** The problem document carried by an isError result's text. */
export function problemOf(result: ToolResult): Record<string, unknown> {
  if (!result.isError) throw new Error(`expected an isError result, got ${JSON.stringify(result).slice(0, 300)}`);
  return JSON.parse(result.content[0]!.text!) as Record<string, unknown>;
}
