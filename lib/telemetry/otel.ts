// The OpenTelemetry SDK, started by instrumentation.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
// otherwise this module is never loaded and nothing is traced. Spans go to that endpoint over
// OTLP/HTTP, in protobuf by default or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json (the SDK reads
// the OTEL_* variables: headers, timeouts, the service name, sampling). Next.js makes the request's and
// the route's spans itself once a tracer provider is registered; the instrumentations add one span per
// SQL statement (pg: the statement's text and name, never its parameters) and per outgoing fetch
// (undici: the Upstash Redis calls of the rate limiter and the sign-in throttle). Not the pool's
// connects: a span each for taking a pooled connection doubled the statements' spans, the cost of
// tracing grows with the spans a request makes, and a slow connect shows as the statement's delay.
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Starts tracing; must run before `pg` is first loaded, or its statements go untraced. */
export function startTracing(): NodeSDK {
  // Metrics are Prometheus's (METRICS_PORT) and logs are stdout's: the SDK exports neither unless the
  // operator asks for it with these variables.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'metrics-api',
    instrumentations: [new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }), new UndiciInstrumentation({ requireParentforSpans: true })],
  });
  sdk.start();
  return sdk;
}
