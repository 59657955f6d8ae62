// A stand-in for an OpenTelemetry Collector's OTLP/HTTP receiver, for tests: it takes what an exporter
// sends to `<endpoint>/v1/traces` as a collector does with OTLP/JSON (POST, `application/json`, an
// ExportTraceServiceRequest; answered 200 with an empty ExportTraceServiceResponse, `{}`), refuses
// what a collector refuses (another path 404, another method 405, another content type 415), and
// keeps every span it was sent, with its attributes read out of OTLP's typed values.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every request body received, as sent. */
  bodies: string[];
  /** Resolves with the spans received once `found` finds what it looks for in them (polled as they arrive). */
  waitFor<T>(found: (spans: ReceivedSpan[]) => T | undefined, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

function valueOf(value: OtlpValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue;
}

interface ExportRequest {
  resourceSpans?: { scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes'> & { attributes?: { key: string; value: OtlpValue }[] })[] }[] }[];
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const arrivals = new Set<() => void>();
  const server = createServer((req, res) => {
    const answer = (status: number, body: string) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
    if (req.url !== '/v1/traces') return void answer(404, '{"code":5,"message":"not found"}');
    if (req.method !== 'POST') return void answer(405, '{"code":12,"message":"method not allowed"}');
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return void answer(415, '{"code":3,"message":"unsupported media type"}');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let request: ExportRequest;
      try {
        request = JSON.parse(text) as ExportRequest;
      } catch {
        return void answer(400, '{"code":3,"message":"the body is not JSON"}');
      }
      bodies.push(text);
      for (const resource of request.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const attributes = Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));
            spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? '', name: span.name, attributes });
          }
        }
      }
      answer(200, '{}');
      for (const arrived of arrivals) arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    waitFor(found, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const result = found(spans);
          if (result === undefined) return;
          arrivals.delete(check);
          clearTimeout(timer);
          resolve(result);
        };
        const timer = setTimeout(() => {
          arrivals.delete(check);
          reject(new Error(`not received within ${timeoutMs} ms; spans: ${spans.map((span) => span.name).join(', ')}`));
        }, timeoutMs);
        arrivals.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
