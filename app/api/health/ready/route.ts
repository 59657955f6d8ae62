// Readiness for load balancers (no key, no rate limit, outside /api/v1): 200 when the database
// answers (or is busy answering this server's requests), 503 with Retry-After when it does not, and 503 while the server drains before it stops
// (scripts/server.mjs). The read replica and the rate limiter are reported too, but neither makes the
// server unready: without the replica the primary serves every read, without Upstash limits are
// counted in-process, and pulling every instance out of rotation would serve nobody.
// Anyone can call it, so a check is reused for a second: a flood of probes costs at most one
// `SELECT 1` (and one limiter ping) per second, however many arrive, and cannot slow real traffic;
// the replica's state is the verdict its own check keeps (lib/db-replica.ts, once a second too).
import { replicaState } from '@/lib/db';
import { check, databaseState, withinCheckTime } from '@/lib/health';
import { rateLimiter } from '@/lib/ratelimit';
import { isDraining } from '@/lib/shutdown';

export const dynamic = 'force-dynamic';

/** How long one check answers every probe; probes arriving while it runs share it too. */
const REUSE_MS = 1_000;

type Replica = Awaited<ReturnType<typeof replicaState>>;

interface Readiness {
  ready: boolean;
  body: {
    status: 'ready' | 'degraded' | 'unavailable';
    checks: {
      database: string;
      replica: Replica | { state: 'unknown' };
      /** counting: `shared` across instances in Redis, or `per instance` (each process counts alone). */
      rateLimiter: { backend: string; state: string; counting: 'shared' | 'per instance' };
    };
  };
}

async function checkReadiness(): Promise<Readiness> {
  const limiter = rateLimiter();
  const [database, replica, limiterState] = await Promise.all([databaseState(), withinCheckTime(replicaState), check(() => limiter.ping())]);
  // Busy is load, not an outage (lib/health.ts): taking the instance out of rotation would only move its traffic.
  const ready = database !== 'unreachable';
  const replicaUsable = !replica.ok || replica.value.state !== 'skipped';
  const counting = limiter.name === 'upstash' && limiterState === 'ok' ? 'shared' : 'per instance';
  return {
    ready,
    body: {
      status: !ready ? 'unavailable' : limiterState === 'ok' && replicaUsable ? 'ready' : 'degraded',
      checks: {
        database,
        replica: replica.ok ? replica.value : { state: 'unknown' },
        rateLimiter: { backend: limiter.name, state: limiterState, counting },
      },
    },
  };
}

let latest: { startedAt: number; result: Promise<Readiness> } | null = null;

function answer(ready: boolean, body: object): Response {
  // no-transform: too small to compress (see COMPRESSED_FROM_BYTES).
  return Response.json(body, { status: ready ? 200 : 503, headers: { 'Cache-Control': 'no-store, no-transform', ...(ready ? {} : { 'Retry-After': '5' }) } });
}

export async function GET() {
  // Not from the reused check: the balancer must see the drain at once.
  if (isDraining()) return answer(false, { status: 'draining' });
  if (!latest || Date.now() - latest.startedAt >= REUSE_MS) latest = { startedAt: Date.now(), result: checkReadiness() };
  const { ready, body } = await latest.result;
  return answer(ready, body);
}
