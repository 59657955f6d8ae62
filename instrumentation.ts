// Runs once when the server starts: creating the rate limiter now logs which one counts the limits
// (Upstash, or in-process in the zero-setup run) at start-up rather than on the first request, and a
// malformed RESPONSE_CACHE_MAX_BYTES or database setting stops the start instead of failing requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { rateLimiter } = await import('./lib/ratelimit');
    rateLimiter();
    const { maxBytesFromEnv } = await import('./lib/cache/response-cache');
    maxBytesFromEnv();
    const { databaseSettings } = await import('./lib/db');
    databaseSettings();
  }
}
