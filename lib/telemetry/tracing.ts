// Spans of our own, beside those of Next.js (the request, the route) and of the instrumentations
// (each SQL statement, each Upstash call): the gate and each MCP tool call. Through the OpenTelemetry
// API only: while no SDK is registered (OTEL_EXPORTER_OTLP_ENDPOINT unset, lib/telemetry/otel.ts is
// never loaded) the tracer is the API's no-op one, and a span costs a function call.
import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

const tracer = () => trace.getTracer('metrics-api');

/** Runs `fn` in a span named `name`; a thrown error marks the span failed and is thrown on. */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Sets attributes on the current span (the gate's, a tool call's), when there is one. */
export function setSpanAttributes(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** The current trace's id, for the request's log line; undefined while nothing is traced. */
export function currentTraceId(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && trace.isSpanContextValid(context) ? context.traceId : undefined;
}
