// Readiness for load balancers (no key, no rate limit, outside /api/v1): 200 when the database
// answers, 503 with Retry-After when it does not. The rate limiter is reported too, but an
// unreachable Upstash does not make the server unready: requests are then still served, with limits
// counted in-process, and pulling every instance out of rotation would serve nobody.
import { sql } from '@/lib/db';
import { rateLimiter } from '@/lib/ratelimit';

export const dynamic = 'force-dynamic';

const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return 'ok';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

export async function GET() {
  const limiter = rateLimiter();
  const [database, limiterState] = await Promise.all([check(() => sql('SELECT 1')), check(() => limiter.ping())]);
  const ready = database === 'ok';
  const body = {
    status: !ready ? 'unavailable' : limiterState === 'ok' ? 'ready' : 'degraded',
    checks: { database, rateLimiter: { backend: limiter.name, state: limiterState } },
  };
  return Response.json(body, {
    status: ready ? 200 : 503,
    headers: { 'Cache-Control': 'no-store', ...(ready ? {} : { 'Retry-After': '5' }) },
  });
}
