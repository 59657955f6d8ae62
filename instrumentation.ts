// Runs once when the server starts: creating the rate limiter now logs which one counts the limits
// (Upstash, or in-process in the zero-setup run) at start-up rather than on the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { rateLimiter } = await import('./lib/ratelimit');
    rateLimiter();
  }
}
