// Runs once when the server starts: creating the rate limiter now logs which one counts the limits
// (Upstash, or in-process in the zero-setup run) at start-up rather than on the first request, and a
// malformed RESPONSE_CACHE_MAX_BYTES or database setting stops the start instead of failing requests.
// It also hands the server (scripts/server.mjs) the app's last work before the process ends.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { rateLimiter } = await import('./lib/ratelimit');
    rateLimiter();
    const { maxBytesFromEnv } = await import('./lib/cache/response-cache');
    maxBytesFromEnv();
    const { closeDb, databaseSettings } = await import('./lib/db');
    databaseSettings();

    const { flushToolCalls } = await import('./lib/usage/tool-calls');
    const { flushLastUsed } = await import('./lib/auth/last-used');
    const { onShutdown } = await import('./lib/shutdown');
    // The batched records first (they are written through the pools), then the pools.
    onShutdown(async () => {
      await Promise.all([flushToolCalls(), flushLastUsed()]);
      await closeDb();
    });
  }
}
