// The one rate-limit policy of the REST interface (spec, Limits): a fixed window per key.
export const RATE_LIMIT = { limit: 60, windowSeconds: 60 } as const;
