// The MCP server: seven read-only tools over the same operations as /api/v1 (see lib/mcp).
import { handleMcpRequest } from '@/lib/mcp/endpoint';

export const dynamic = 'force-dynamic';

export { handleMcpRequest as POST, handleMcpRequest as GET, handleMcpRequest as DELETE, handleMcpRequest as OPTIONS };
