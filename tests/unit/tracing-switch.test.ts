// When a server traces (lib/telemetry/tracing.ts, tracingAskedFor): an OTLP endpoint set, unless the
// specification's switches turn tracing off with the endpoint still set.
import { describe, expect, it } from 'vitest';
import { tracesExporters, tracingAskedFor } from '@/lib/telemetry/tracing';

const ENDPOINT = 'http://collector:4318';

describe('tracingAskedFor', () => {
  it('traces with an endpoint, in either of its forms, and not without one', () => {
    expect(tracingAskedFor({})).toBe(false);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT })).toBe(true);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` })).toBe(true);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });

  it('reads an empty OTEL_TRACES_EXPORTER as unset (otlp)', () => {
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: '' })).toEqual(['otlp']);
    expect(tracesExporters({})).toEqual(['otlp']);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'OTLP, console' })).toEqual(['otlp', 'console']);
  });

  it('does not trace with OTEL_SDK_DISABLED=true (in any case), and does with any other value', () => {
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: ' TRUE ' })).toBe(false);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' })).toBe(true);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: '1' })).toBe(true);
  });

  it('does not trace with OTEL_TRACES_EXPORTER=none, alone or in a list', () => {
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingAskedFor({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'otlp, None' })).toBe(false);
  });
});
