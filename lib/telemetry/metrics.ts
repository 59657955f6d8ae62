// The process's Prometheus metrics (prom-client), served on METRICS_PORT by the production server
// (scripts/server.mjs), never on the public port. Names and labels follow the OpenTelemetry semantic
// conventions where one exists (http.server.request.duration, db.client.connection.*, gen_ai.tool.name),
// written as Prometheus writes them; every label value comes from a bounded set (route templates,
// operation and tool names, outcomes), never a raw path, an organisation or a credential.
// docs/operations.md ("Observing it") lists them with the questions each answers.
//
// Shared by the whole process like the logger (lib/telemetry/logger.ts): the server and every Next.js
// bundle of lib/ count into the same registry. This file imports packages and lib/process-wide.ts only
// (Node runs it as it is).
// State that is read rather than counted (pools, queues, the cache's size) is sampled when scraped:
// the module that owns it hands a sampler to `sampleOnScrape`.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processWide } from '../process-wide.ts';

/** Seconds: OpenTelemetry's advice for http.server.request.duration. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

type Sampler = () => void;

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const samplers = new Map<string, Sampler>();
  // A gauge whose values are set by the sampler of `source` each time it is scraped.
  const sampled = <Label extends string>(name: string, help: string, labelNames: readonly Label[], source: string) =>
    new Gauge<Label>({ name, help, labelNames, registers: [registry], collect: () => samplers.get(source)?.() });
  const pool = 'db_client_connection_pool_name';
  return {
    registry,
    samplers,
    httpDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, from the request to the last byte of the answer.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code', 'door'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    rateLimitRequests: new Counter({
      name: 'rate_limit_requests_total',
      help: 'Units taken from a rate-limit window, by window (data, protocol) and result (allowed, refused).',
      labelNames: ['window', 'result'] as const,
      registers: [registry],
    }),
    redisFallback: new Gauge({
      name: 'redis_fallback_active',
      help: '1 while Upstash Redis is unreachable and this instance counts alone, in-process (by store: ratelimit, ratelimit protocol, each sign-in throttle).',
      labelNames: ['store'] as const,
      registers: [registry],
    }),
    concurrencyRequests: sampled('concurrency_requests', 'Requests holding a turn (running) or waiting for one (waiting) under the per-process concurrency cap.', ['state'], 'concurrency'),
    concurrencyWait: new Histogram({
      name: 'concurrency_wait_duration_seconds',
      help: 'How long requests that had to queue waited for a turn (granted or refused).',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    concurrencyRefusals: new Counter({
      name: 'concurrency_refusals_total',
      help: 'Requests refused by the concurrency caps, by reason (credential: its own cap, 429; queue_full and timeout: 503).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    dbConnections: sampled('db_client_connection_count', 'Database connections by pool (primary, replica, gate) and state (idle, used).', [pool, 'db_client_connection_state'], 'db'),
    dbConnectionsMax: sampled('db_client_connection_max', 'The most connections each pool may open.', [pool], 'db'),
    dbPending: sampled('db_client_connection_pending_requests', 'Queries waiting for a connection of each pool.', [pool], 'db'),
    cacheRequests: new Counter({
      name: 'response_cache_requests_total',
      help: 'Lookups in the response cache, by result (hit, miss).',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    cacheBytes: sampled('response_cache_size_bytes', 'Bytes of answers the response cache holds.', [], 'response-cache'),
    queuePending: sampled('batch_queue_pending_records', 'Records waiting to be written in a batch, by queue (request-log, tool-calls).', ['queue'], 'batch-queues'),
    queueRecords: new Counter({
      name: 'batch_queue_records_total',
      help: 'Records leaving a batch queue, by queue and result (written, failed, dropped).',
      labelNames: ['queue', 'result'] as const,
      registers: [registry],
    }),
    mcpToolCalls: new Counter({
      name: 'mcp_tool_calls_total',
      help: 'MCP tool calls, by tool and outcome (ok, or the problem code).',
      labelNames: ['gen_ai_tool_name', 'outcome'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const sharedMetrics = processWide('metrics', createMetrics);

/** The process's metrics. */
export function metrics(): Metrics {
  return sharedMetrics();
}

/** Sets how `source`'s gauges are read when scraped (the latest sampler of a source stands). */
export function sampleOnScrape(source: 'concurrency' | 'db' | 'response-cache' | 'batch-queues', sampler: Sampler): void {
  metrics().samplers.set(source, sampler);
}
