// A span of ours that fails (lib/telemetry/tracing.ts): marked failed with the error's kind, never its
// message, which for a database error can quote the value it refused. On the SDK's own tracer provider,
// its spans kept in memory by its InMemorySpanExporter.
import { SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { inSpan, shareTracing } from '@/lib/telemetry/tracing';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
shareTracing(provider.getTracer('test'), new W3CTraceContextPropagator());

afterAll(async () => {
  // The slot is the process's: leave it as the other tests of this worker expect it (nothing traced).
  (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('metrics-api.tracing')] = undefined;
  await provider.shutdown();
});

const failing = (error: Error) => () => Promise.reject(error);

describe('a failed span', () => {
  it("carries a database error's code, not its message with the refused value", async () => {
    const error = Object.assign(new Error('invalid input syntax for type uuid: "mk_live_secret-value"'), { code: '22P02' });
    await expect(inSpan('pg.query:s_1', {}, failing(error))).rejects.toBe(error);
    const [span] = exporter.getFinishedSpans().filter((finished) => finished.name === 'pg.query:s_1');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(span!.attributes['error.type']).toBe('22P02');
    expect(JSON.stringify({ status: span!.status, attributes: span!.attributes, events: span!.events })).not.toContain('secret-value');
  });

  it("carries another error's class name", async () => {
    await expect(inSpan('gate', {}, failing(new TypeError('boom')))).rejects.toThrow('boom');
    const [span] = exporter.getFinishedSpans().filter((finished) => finished.name === 'gate');
    expect(span!.attributes['error.type']).toBe('TypeError');
  });
});
