// Which spans of ours are made and under which parent (lib/telemetry/tracing.ts): a SQL statement's
// span (a leaf) under the current span without becoming current itself, side by side statements under
// the same parent, and nothing made under a span whose trace was sampled out. On the SDK's own tracer
// provider, its spans kept in memory by its InMemorySpanExporter.
import { SpanKind } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOffSampler, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { inLeafSpan, inSpan, shareTracing, tracing } from '@/lib/telemetry/tracing';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const unsampled = new TracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
// The provider's tracer, counting the spans asked of it: under a trace sampled out, none should be.
let started = 0;
const tracer = provider.getTracer('test');
const counting = { ...tracer, startSpan: (...args: Parameters<typeof tracer.startSpan>) => (started++, tracer.startSpan(...args)) } as typeof tracer;
const traced = shareTracing(counting, new W3CTraceContextPropagator());

beforeEach(() => {
  exporter.reset();
  started = 0;
});

afterAll(async () => {
  // The slot is the process's: leave it as the other tests of this worker expect it (nothing traced).
  (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('metrics-api.tracing')] = undefined;
  await Promise.all([provider.shutdown(), unsampled.shutdown()]);
});

const statement = (name: string) => inLeafSpan(name, { 'db.system.name': 'postgresql' }, async () => tracing()?.spans.getStore(), SpanKind.CLIENT);

describe('spans', () => {
  it('puts statements run side by side under the current span, which stays current while they run', async () => {
    const [first, second, gate] = await inSpan('gate', {}, async () => {
      const current = tracing()!.spans.getStore();
      const [a, b] = await Promise.all([statement('pg.query:s_1'), statement('pg.query:s_2')]);
      return [a, b, current];
    });
    expect(first).toBe(gate);
    expect(second).toBe(gate);
    const spans = exporter.getFinishedSpans();
    const parent = spans.find((span) => span.name === 'gate')!;
    expect(spans.map((span) => span.name).sort()).toEqual(['gate', 'pg.query:s_1', 'pg.query:s_2']);
    expect(started).toBe(3);
    for (const name of ['pg.query:s_1', 'pg.query:s_2']) {
      const child = spans.find((span) => span.name === name)!;
      expect(child.kind).toBe(SpanKind.CLIENT);
      expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    }
  });

  it('asks for no span under a span that is not recorded (its trace sampled out), and still runs the work', async () => {
    const root = unsampled.getTracer('test').startSpan('GET /api/v1/me');
    expect(root.isRecording()).toBe(false);
    const answer = await traced.spans.run(root, () => inSpan('gate', {}, async () => statement('pg.query:s_1').then(() => 42)));
    root.end();
    expect(answer).toBe(42);
    expect(started).toBe(0);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('makes a root span when there is no current span', async () => {
    await statement('pg.query:s_3');
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('pg.query:s_3');
    expect(span!.parentSpanContext).toBeUndefined();
  });
});
