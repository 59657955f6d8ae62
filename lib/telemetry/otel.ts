// The OpenTelemetry SDK, started by instrumentation.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
// otherwise this module is never loaded and nothing is traced. Spans go to that endpoint over
// OTLP/HTTP, in protobuf by default or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json (the SDK reads
// the OTEL_* variables: headers, timeouts, the service name). Next.js makes the request's and
// the route's spans itself once a tracer provider is registered; lib/db.ts one per SQL statement (its
// name and text, never its values); the undici instrumentation one per outgoing fetch (the Upstash
// Redis calls of the rate limiter and the sign-in throttle), through Node's diagnostics channels (and
// not Next.js's own span of each fetch as well).
// No instrumentation that patches modules as they are required: its hook on require() costs every
// require() of the process, and Next.js requires its route modules on every request.
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';
import { logger } from './logger';

/**
 * Next.js's spans that time its own set-up of every request (finding the route's module, loading and
 * preparing it, starting the response): half of a small request's spans, each a fraction of a
 * millisecond, and every span costs the server CPU to record and send whether anyone looks at it or
 * not (docs/performance/round-19-telemetry-cost.md). Not recorded unless NEXT_OTEL_VERBOSE=1, Next.js's
 * own switch for more of its spans. Matched on Next.js's span type, which its span names may not keep.
 */
const FRAMEWORK_SET_UP_SPANS = new Set(['NextNodeServer.findPageComponents', 'LoadComponents.loadRouteModule', 'RouteModule.prepare', 'NextNodeServer.startResponse']);

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the specification defines them (the SDK's own reading of them is not exported). */
export function samplerFromEnv(): Sampler {
  const name = process.env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on';
  const ratio = () => {
    const arg = Number(process.env.OTEL_TRACES_SAMPLER_ARG ?? 1);
    return arg >= 0 && arg <= 1 ? arg : 1;
  };
  const samplers: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio()),
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) }),
  };
  if (samplers[name]) return samplers[name]();
  logger().warn(`OTEL_TRACES_SAMPLER=${name} is not one of ${Object.keys(samplers).join(', ')}: every trace is recorded`);
  return samplers.parentbased_always_on!();
}

/** `sampler`, except that Next.js's set-up spans are not recorded. */
export function withoutFrameworkSetUp(sampler: Sampler): Sampler {
  return {
    shouldSample: (context, traceId, name, kind, attributes, links) =>
      FRAMEWORK_SET_UP_SPANS.has(String(attributes['next.span_type'])) ? { decision: SamplingDecision.NOT_RECORD } : sampler.shouldSample(context, traceId, name, kind, attributes, links),
    toString: () => `WithoutFrameworkSetUp{${sampler.toString()}}`,
  };
}

/** Starts tracing. */
export function startTracing(): NodeSDK {
  // Metrics are Prometheus's (METRICS_PORT) and logs are stdout's: the SDK exports neither unless the
  // operator asks for it with these variables.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // Next.js wraps every fetch in a span of its own, around the undici instrumentation's span of the
  // same call (which has the HTTP client's attributes): one span a call is enough.
  process.env.NEXT_OTEL_FETCH_DISABLED ??= '1';
  const sampler = samplerFromEnv();
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'metrics-api',
    sampler: process.env.NEXT_OTEL_VERBOSE === '1' ? sampler : withoutFrameworkSetUp(sampler),
    instrumentations: [new UndiciInstrumentation({ requireParentforSpans: true })],
  });
  sdk.start();
  return sdk;
}
