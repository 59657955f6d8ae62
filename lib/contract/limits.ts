// The rate-limit policy (spec, Limits): fixed windows per key. Every REST request and every MCP tool
// call counts in the data window; the MCP protocol messages that read no data (initialize, tools/list,
// ping, notifications…) count in a window of their own, so that connecting spends none of the data window.
export const RATE_LIMIT = { limit: 60, windowSeconds: 60 } as const;
export const PROTOCOL_RATE_LIMIT = { limit: 300, windowSeconds: 60 } as const;

export type RateLimitWindow = 'data' | 'protocol';

export const RATE_LIMITS: Record<RateLimitWindow, { limit: number; windowSeconds: number }> = { data: RATE_LIMIT, protocol: PROTOCOL_RATE_LIMIT };
