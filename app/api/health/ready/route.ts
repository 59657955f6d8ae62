// Readiness for load balancers (no key, no rate limit, outside /api/v1): 200 when the database
// answers, 503 with Retry-After when it does not. The rate limiter is reported too, but an
// unreachable Upstash does not make the server unready: requests are then still served, with limits
// counted in-process, and pulling every instance out of rotation would serve nobody.
// Anyone can call it, so a check is reused for a second: a flood of probes costs at most one
// `SELECT 1` (and one limiter ping) per second, however many arrive, and cannot slow real traffic.
import { check, databaseState } from '@/lib/health';
import { rateLimiter } from '@/lib/ratelimit';

export const dynamic = 'force-dynamic';

/** How long one check answers every probe; probes arriving while it runs share it too. */
const REUSE_MS = 1_000;

interface Readiness {
  ready: boolean;
  body: { status: 'ready' | 'degraded' | 'unavailable'; checks: { database: string; rateLimiter: { backend: string; state: string } } };
}

async function checkReadiness(): Promise<Readiness> {
  const limiter = rateLimiter();
  const [database, limiterState] = await Promise.all([databaseState(), check(() => limiter.ping())]);
  const ready = database === 'ok';
  return {
    ready,
    body: {
      status: !ready ? 'unavailable' : limiterState === 'ok' ? 'ready' : 'degraded',
      checks: { database, rateLimiter: { backend: limiter.name, state: limiterState } },
    },
  };
}

let latest: { startedAt: number; result: Promise<Readiness> } | null = null;

export async function GET() {
  if (!latest || Date.now() - latest.startedAt >= REUSE_MS) latest = { startedAt: Date.now(), result: checkReadiness() };
  const { ready, body } = await latest.result;
  return Response.json(body, {
    status: ready ? 200 : 503,
    // no-transform: too small to compress (see COMPRESSED_FROM_BYTES).
    headers: { 'Cache-Control': 'no-store, no-transform', ...(ready ? {} : { 'Retry-After': '5' }) },
  });
}
