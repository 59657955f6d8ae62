// Runs once when the server starts: creating the rate limiter now logs which one counts the limits
// (Upstash, or in-process in the zero-setup run) at start-up rather than on the first request; a
// malformed RESPONSE_CACHE_MAX_BYTES, database, request-log or OTEL_BSP_* setting, or several instances without a shared OAuth
// cookie secret, stops the start instead of failing requests. It also hands the server
// (scripts/server.mjs) the app's last work before the process ends. With an OTLP endpoint set (and
// tracing not switched off: tracingAskedFor), tracing starts (lib/telemetry/otel.ts) before the server
// takes its first request; otherwise the SDK is not even imported.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { rateLimiter } = await import('./lib/ratelimit');
    rateLimiter();
    const { maxBytesFromEnv } = await import('./lib/cache/response-cache');
    const { closeDb, databaseSettings } = await import('./lib/db');
    const { checkCookieSecret } = await import('./lib/oauth/cookie-keys');
    const { flushRequestLog, requestLogSettings } = await import('./lib/usage/request-log');
    let tracing: { shutdown(): Promise<void> } | null = null;
    try {
      const { tracingAskedFor } = await import('./lib/telemetry/tracing');
      tracing = tracingAskedFor() ? (await import('./lib/telemetry/otel')).startTracing() : null;
      maxBytesFromEnv();
      databaseSettings();
      checkCookieSecret();
      requestLogSettings();
    } catch (error) {
      // Next.js only logs a failed hook and goes on serving (every request then fails): end the process.
      const { logger } = await import('./lib/telemetry/logger');
      logger().fatal(`Cannot start: ${(error as Error).message}`);
      process.exit(1);
    }

    const { flushToolCalls } = await import('./lib/usage/tool-calls');
    const { flushLastUsed } = await import('./lib/auth/last-used');
    const { onShutdown } = await import('./lib/shutdown');
    // The batched records first (they are written through the pools), then the pools, then the last spans.
    onShutdown(async () => {
      await Promise.all([flushToolCalls(), flushRequestLog(), flushLastUsed()]);
      await closeDb();
      await tracing?.shutdown();
    });
  }
}
