// /llms.txt: the API and the MCP server described for an AI agent (llmstxt.org), with this server's
// addresses from APP_URL when the server starts. It lists the MCP tools, so it is put together here,
// where both the OpenAPI side and the MCP door may be seen.
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';
import { llmsTxt } from '@/lib/openapi/llms-txt';

export const dynamic = 'force-dynamic';

let text: string | undefined;

export function GET() {
  text ??= llmsTxt(TOOL_OPERATIONS);
  return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
