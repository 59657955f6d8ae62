// Tracing, started by instrumentation.ts only when the operator asks for it (an OTLP endpoint set,
// tracingAskedFor in lib/telemetry/tracing.ts): otherwise this module is never loaded and nothing is
// traced. Spans go to that endpoint over OTLP/HTTP in batches, in protobuf by default or JSON with
// OTEL_EXPORTER_OTLP_PROTOCOL=http/json; the exporters read the
// endpoint, OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TIMEOUT themselves, and the batches
// follow the OTEL_BSP_* variables. Which spans there are: lib/telemetry/tracing.ts.
//
// The tracer provider is not registered as OpenTelemetry's global one, nor is a context manager: either
// would switch on Next.js's tracing of its own work on every request (lib/telemetry/tracing.ts says
// why that is avoided). Nor is any instrumentation loaded: one that patches modules as they are
// required hooks every require() of the process, and Next.js requires its route modules on every
// request; and the undici instrumentation finds its parent span in the global context, where ours are
// not. The app makes its spans itself.
import { subscribe } from 'node:diagnostics_channel';
import { SpanKind, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { positiveIntegerFromEnv } from '../env';
import { logger } from './logger';
import { shareTracing, tracesExporters } from './tracing';

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

/**
 * The OTLP/HTTP exporter of OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL:
 * protobuf unless JSON is asked for. OTLP is the one exporter there is, whatever else
 * OTEL_TRACES_EXPORTER names (`none` never gets here: tracingAskedFor).
 */
function exporterFromEnv(): SpanExporter {
  const others = tracesExporters().filter((name) => name !== 'otlp');
  if (others.length > 0) logger().warn(`OTEL_TRACES_EXPORTER=${process.env.OTEL_TRACES_EXPORTER}: only otlp is supported; spans are sent over OTLP/HTTP`);
  const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'http/json') return new JsonExporter();
  if (protocol !== 'http/protobuf') logger().warn(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not http/protobuf or http/json: spans are sent in protobuf`);
  return new ProtobufExporter();
}

/**
 * The status code of the answer to each fetch made in a client span of ours (the Upstash calls,
 * lib/ratelimit/upstash.ts), which the Upstash client does not hand back. Node's fetch reports it on
 * its diagnostics channels: a request is created in its caller's async context, where that span is
 * current, and the head of its answer arrives in the connection's, so the two are matched by request.
 */
function recordStatusCodes(spans: { getStore(): Span | undefined }): void {
  const sentFrom = new WeakMap<object, Span>();
  subscribe('undici:request:create', (message) => {
    const span = spans.getStore();
    if (span && (span as Partial<ReadableSpan>).kind === SpanKind.CLIENT) sentFrom.set((message as { request: object }).request, span);
  });
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } };
    sentFrom.get(request)?.setAttribute('http.response.status_code', response.statusCode);
  });
}

/** Starts tracing; the provider returned is shut down when the server drains (the last spans sent). */
export function startTracing(): TracerProvider {
  const provider = new TracerProvider({
    sampler: samplerFromEnv(),
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) over our name, over the SDK's own attributes.
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'metrics-api' }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: exporterFromEnv(),
        // The specification's defaults; a malformed value stops the start (instrumentation.ts).
        maxQueueSize: positiveIntegerFromEnv('OTEL_BSP_MAX_QUEUE_SIZE', 2048),
        scheduledDelayMillis: positiveIntegerFromEnv('OTEL_BSP_SCHEDULE_DELAY', 5000),
        exportTimeoutMillis: positiveIntegerFromEnv('OTEL_BSP_EXPORT_TIMEOUT', 30000),
        maxExportBatchSize: positiveIntegerFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512),
      }),
    ],
  });
  const { spans } = shareTracing(provider.getTracer('metrics-api'), new W3CTraceContextPropagator());
  recordStatusCodes(spans);
  return provider;
}
