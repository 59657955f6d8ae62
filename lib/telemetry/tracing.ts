// The app's spans: the request's (lib/telemetry/server.ts), the gate, each MCP tool call, each SQL
// statement (lib/db.ts) and each Upstash call (lib/ratelimit/upstash.ts). While tracing is off
// (not asked for, tracingAskedFor: lib/telemetry/otel.ts is never loaded) a span costs a lookup and
// nothing else: `inSpan` calls its function and that is all.
//
// Deliberately not through OpenTelemetry's global tracer provider and context manager: once a provider
// is registered there, or a recording span is active in the API's context, Next.js traces its own work
// on every request (its request and route spans, and its set-up of each request), each span in two
// `context.with` calls with its attributes, which costs the server far more than recording ours. So the
// tracer is the app's own, published by lib/telemetry/otel.ts, and the current span is kept in an
// AsyncLocalStorage of our own. Both are shared by the whole process (lib/process-wide.ts): Next.js
// bundles lib/ into each route separately, and only a global is the same object for every bundle and
// for the production server (scripts/server.mjs, which imports this file as it is: packages and
// lib/process-wide.ts only).
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import { processWide } from '../process-wide.ts';

export interface Tracing {
  tracer: Tracer;
  /** Reads the trace a caller sends (W3C `traceparent`), so that a request's span continues it. */
  propagator: TextMapPropagator;
  /** The current span of each async context. */
  spans: AsyncLocalStorage<Span>;
}

/**
 * Whether the operator asks for traces: an OTLP endpoint set (OTEL_EXPORTER_OTLP_ENDPOINT, or its
 * `_TRACES_` form), and neither of the specification's switches that turn them off with the endpoint
 * still set, OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none. Otherwise lib/telemetry/otel.ts is
 * never loaded (instrumentation.ts).
 */
export function tracingAskedFor(env: Record<string, string | undefined> = process.env): boolean {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return !tracesExporters(env).includes('none');
}

/** The names in OTEL_TRACES_EXPORTER (a comma-separated list; `otlp` when unset or empty, as the specification says). */
export function tracesExporters(env: Record<string, string | undefined> = process.env): string[] {
  return (env.OTEL_TRACES_EXPORTER || 'otlp').split(',').map((name) => name.trim().toLowerCase());
}

/** The process's tracing, once lib/telemetry/otel.ts has shared it. */
const shared = processWide('tracing', (): { tracing?: Tracing } => ({}));

/** Makes `tracer` the process's, for every bundle and the server (lib/telemetry/otel.ts, once). */
export function shareTracing(tracer: Tracer, propagator: TextMapPropagator): Tracing {
  return (shared().tracing = { tracer, propagator, spans: new AsyncLocalStorage() });
}

/** The process's tracing, or undefined while nothing is traced. */
export function tracing(): Tracing | undefined {
  return shared().tracing;
}

/**
 * Runs `fn` in a span named `name`, a child of the current span, which is current while `fn` runs; a
 * thrown error marks the span failed (with its kind) and is thrown on. `kind` is OpenTelemetry's:
 * CLIENT for a call to another service.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  const traced = tracing();
  const span = traced && childSpan(traced, name, attributes, kind);
  if (!span) return fn();
  return traced.spans.run(span, () => endedWith(span, fn));
}

/**
 * `inSpan` for a span that has no child of its own (a SQL statement): the current span stays the
 * caller's, which saves an async context per span, and statements run side by side each get their
 * span under the same parent.
 */
export function inLeafSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKind): Promise<T> {
  const traced = tracing();
  const span = traced && childSpan(traced, name, attributes, kind);
  return span ? endedWith(span, fn) : fn();
}

/**
 * A new span under the current one, or none when the current one is not recorded: its trace was
 * sampled out, and every standard sampler leaves its children out too (the parent-based ones follow
 * the parent, the ratio one decides by the trace id the child shares), so nothing is made for them.
 */
function childSpan(traced: Tracing, name: string, attributes: Attributes, kind: SpanKind): Span | undefined {
  const parent = traced.spans.getStore();
  if (parent && !parent.isRecording()) return undefined;
  return traced.tracer.startSpan(name, { kind, attributes }, parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT);
}

async function endedWith<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    // The error's kind (`error.type`: PostgreSQL's code, else the class's name), never its message:
    // a database error can quote the value it refused, and a span never carries a statement's values.
    const { code, name } = error as { code?: unknown; name?: unknown };
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', typeof code === 'string' ? code : typeof name === 'string' ? name : 'Error');
    throw error;
  } finally {
    span.end();
  }
}

/** Sets attributes on the current span (the gate's, a tool call's), when there is one. */
export function setSpanAttributes(attributes: Attributes): void {
  tracing()?.spans.getStore()?.setAttributes(attributes);
}
