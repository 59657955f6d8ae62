// The rate-limit policy (spec, Limits): fixed windows per key. Every REST request and every MCP tool
// call counts in the data window; the MCP protocol messages that read no data (initialize, tools/list,
// ping, notifications…) count in a window of their own, so that connecting spends none of the data window.
export const RATE_LIMIT = { limit: 60, windowSeconds: 60 } as const;
export const PROTOCOL_RATE_LIMIT = { limit: 300, windowSeconds: 60 } as const;

export type RateLimitWindow = 'data' | 'protocol';

export const RATE_LIMITS: Record<RateLimitWindow, { limit: number; windowSeconds: number }> = { data: RATE_LIMIT, protocol: PROTOCOL_RATE_LIMIT };

/**
 * What one MCP tool answer may cost a model (o200k tokens), whatever the arguments: well under the
 * ~25,000 that clients refuse. Enforced by lib/mcp/budget.ts; here because the tools' argument
 * descriptions, written with the operations, state it too.
 */
export const ANSWER_TOKEN_BUDGET = 20_000;
/** What an answer with default arguments costs at most: the `limit` defaults and the series' automatic granularity keep to it. */
export const DEFAULT_ANSWER_TOKENS = 6_000;
