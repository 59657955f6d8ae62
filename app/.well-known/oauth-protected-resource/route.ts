// RFC 9728 protected-resource metadata of the MCP endpoint: served at the path-suffixed address the
// 401 challenge names and at the root one, for clients that look there first.
import { protectedResourceResponse } from '@/lib/mcp/endpoint';

export const dynamic = 'force-dynamic';

export { protectedResourceResponse as GET, protectedResourceResponse as OPTIONS };
