// The OpenTelemetry SDK, started by instrumentation.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
// otherwise this module is never loaded and nothing is traced. Spans go to that endpoint over
// OTLP/HTTP, in protobuf by default or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json (the SDK reads
// the OTEL_* variables: headers, timeouts, the service name, sampling). Next.js makes the request's and
// the route's spans itself once a tracer provider is registered; lib/db.ts one per SQL statement (its
// name and text, never its values); the undici instrumentation one per outgoing fetch (the Upstash
// Redis calls of the rate limiter and the sign-in throttle), through Node's diagnostics channels.
// No instrumentation that patches modules as they are required: its hook on require() costs every
// require() of the process, and Next.js requires its route modules on every request.
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Starts tracing. */
export function startTracing(): NodeSDK {
  // Metrics are Prometheus's (METRICS_PORT) and logs are stdout's: the SDK exports neither unless the
  // operator asks for it with these variables.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'metrics-api',
    instrumentations: [new UndiciInstrumentation({ requireParentforSpans: true })],
  });
  sdk.start();
  return sdk;
}
