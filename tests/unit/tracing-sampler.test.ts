// Which traces a traced server records (lib/telemetry/otel.ts): the operator's OTEL_TRACES_SAMPLER.
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { samplerFromEnv } from '@/lib/telemetry/otel';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const decide = (sampler: ReturnType<typeof samplerFromEnv>, name: string) => sampler.shouldSample(ROOT_CONTEXT, TRACE_ID, name, SpanKind.SERVER, {}, []).decision;

afterEach(() => vi.unstubAllEnvs());

describe('samplerFromEnv', () => {
  it('records every trace by default, a parent\'s decision first', () => {
    expect(samplerFromEnv().toString()).toBe('ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}');
  });

  it('takes OTEL_TRACES_SAMPLER and its ratio', () => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0.25');
    expect(samplerFromEnv().toString()).toBe('TraceIdRatioBased{0.25}');
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    expect(decide(samplerFromEnv(), 'GET /api/v1/me')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('records every trace for a sampler name it does not know', () => {
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'xray');
    expect(samplerFromEnv().toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler/);
  });
});
