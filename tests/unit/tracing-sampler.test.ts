// Which spans a traced server records (lib/telemetry/otel.ts): the operator's OTEL_TRACES_SAMPLER, less
// Next.js's spans of its set-up of every request.
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { AlwaysOnSampler, SamplingDecision } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { samplerFromEnv, withoutFrameworkSetUp } from '@/lib/telemetry/otel';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const decide = (sampler: ReturnType<typeof samplerFromEnv>, name: string, spanType?: string) =>
  sampler.shouldSample(ROOT_CONTEXT, TRACE_ID, name, SpanKind.INTERNAL, spanType ? { 'next.span_type': spanType } : {}, []).decision;

afterEach(() => vi.unstubAllEnvs());

describe('withoutFrameworkSetUp', () => {
  const sampler = withoutFrameworkSetUp(new AlwaysOnSampler());

  it.each([
    ['resolve page components', 'NextNodeServer.findPageComponents'],
    ['load route module', 'LoadComponents.loadRouteModule'],
    ['prepare route module', 'RouteModule.prepare'],
    ['start response', 'NextNodeServer.startResponse'],
  ])('does not record Next.js\'s "%s"', (name, spanType) => {
    expect(decide(sampler, name, spanType)).toBe(SamplingDecision.NOT_RECORD);
  });

  it.each([
    ['GET /api/v1/me', 'BaseServer.handleRequest'],
    ['executing api route (app) /api/v1/me', 'AppRouteRouteHandlers.runHandler'],
    ['gate', undefined],
    ['pg.query:s_1', undefined],
  ])('leaves "%s" to the sampler it wraps', (name, spanType) => {
    expect(decide(sampler, name, spanType)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });
});

describe('samplerFromEnv', () => {
  it('records every trace by default, a parent\'s decision first', () => {
    expect(samplerFromEnv().toString()).toBe('ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}');
  });

  it('takes OTEL_TRACES_SAMPLER and its ratio', () => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0.25');
    expect(samplerFromEnv().toString()).toBe('TraceIdRatioBased{0.25}');
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    expect(decide(samplerFromEnv(), 'GET /api/v1/me', 'BaseServer.handleRequest')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('records every trace for a sampler name it does not know', () => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'xray');
    expect(samplerFromEnv().toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler/);
  });
});
