// The production limiter: @upstash/ratelimit's fixed window on Upstash Redis (REST). The window is
// counted by one Lua script (INCRBY + PEXPIRE) in Redis, so it is exact under concurrency and across
// server processes.
import { SpanKind } from '@opentelemetry/api';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis, type RedisConfigNodejs, type UpstashRequest } from '@upstash/redis';
import { inSpan } from '../telemetry/tracing';
import type { Limiter, RateLimitDecision } from './limiter';
import { processWide } from '../process-wide';

/** How long a request waits for Redis before the limiter (or the sign-in throttle) counts in-process instead. */
const REDIS_TIMEOUT_MS = 2_000;

export class LimiterTimeout extends Error {}

/**
 * A client whose every call to Upstash is a client span `POST` (OpenTelemetry's HTTP client
 * conventions) below the span that made it (the gate, a sign-in): the URL it is sent to and the
 * server; the answer's status code is added by lib/telemetry/otel.ts. The token travels in a header,
 * never in the URL, and no header is recorded. Every command, script and pipeline of the client is
 * sent by its one requester.
 */
class TracedRedis extends Redis {
  constructor(config: RedisConfigNodejs & { url: string }) {
    super(config);
    const requester = this.client;
    const send = requester.request.bind(requester);
    // An origin carries no user name or password, whatever the URL had.
    const target = new URL(config.url);
    const base = target.origin + target.pathname.replace(/\/$/, '');
    const server = { 'server.address': target.hostname, 'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80) };
    requester.request = <Result>(request: UpstashRequest) =>
      inSpan('POST', { 'http.request.method': 'POST', 'url.full': [base, ...(request.path ?? [])].join('/'), ...server }, () => send<Result>(request), SpanKind.CLIENT);
  }
}

const upstashClients = processWide('upstash-clients', () => new Map<string, Redis>());

/**
 * The process's client of one Upstash endpoint, shared by the rate limiter and the sign-in throttle.
 * No retries: a request should not wait through back-offs, the in-process fallback answers instead;
 * and a time limit on every command.
 */
export function upstashRedis(options: { url: string; token: string }): Redis {
  const clients = upstashClients();
  const id = `${options.url} ${options.token}`;
  let redis = clients.get(id);
  if (!redis) {
    redis = new TracedRedis({ url: options.url, token: options.token, retry: false, enableTelemetry: false, signal: () => AbortSignal.timeout(REDIS_TIMEOUT_MS) });
    clients.set(id, redis);
  }
  return redis;
}

export function upstashLimiter(options: { url: string; token: string; prefix: string; limit: number; windowSeconds: number }): Limiter {
  const redis = upstashRedis(options);
  const ratelimit = new Ratelimit({
    redis,
    limiter: Ratelimit.fixedWindow(options.limit, `${options.windowSeconds} s`),
    prefix: options.prefix,
    // Every request is counted in Redis, so the headers are exact; no in-memory block list.
    ephemeralCache: false,
    timeout: REDIS_TIMEOUT_MS,
    analytics: false,
  });
  return {
    name: 'upstash',
    async limit(identifier: string): Promise<RateLimitDecision> {
      const result = await ratelimit.limit(identifier);
      // On timeout the library lets the request pass without counting it; treat that as unreachable.
      if (result.reason === 'timeout') throw new LimiterTimeout(`Redis did not answer within ${REDIS_TIMEOUT_MS} ms`);
      return { allowed: result.success, limit: result.limit, remaining: result.remaining, resetAt: result.reset };
    },
    async peek(identifier: string): Promise<RateLimitDecision> {
      const { remaining, reset, limit } = await ratelimit.getRemaining(identifier);
      return { allowed: remaining > 0, limit, remaining, resetAt: reset };
    },
    async ping(): Promise<void> {
      await redis.ping();
    },
  };
}
