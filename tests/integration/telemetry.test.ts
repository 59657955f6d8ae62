// What an operator sees of one production server (`npm start`) with METRICS_PORT and an OTLP endpoint
// set (OTLP/HTTP in JSON): the trace of a REST call and of an MCP tool call as a collector receives
// them, the JSON log line of each request, and the Prometheus metrics on their own port (and not on
// the public one). The collector is a stand-in the test starts (tests/support/otlp-receiver.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, waitFor } from '../../scripts/cluster/processes';
import { mintKey } from '../support/api';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { startTestServer, type TestServer } from '../support/http-server';
import { connect } from './mcp-support';
import { seededOrgs } from './platform-support';

const { main } = seededOrgs();
let receiver: OtlpReceiver;
let server: TestServer;
let metricsOrigin: string;
let key: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const metricsPort = await freePort();
  metricsOrigin = `http://127.0.0.1:${metricsPort}`;
  server = await startTestServer({
    databaseUrl: inject('databaseUrl'),
    env: {
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // The batch span processor's delay, 5 s by default: the test waits for the spans.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_FORMAT: 'json',
    },
  });
  key = await mintKey({ orgId: main.id });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

/** The spans of `span`'s trace. */
const traceOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.filter((other) => other.traceId === span.traceId);

/** Whether `child` is below `ancestor` in `trace`. */
function isBelow(trace: ReceivedSpan[], child: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  for (let parent = trace.find((span) => span.spanId === child.parentSpanId); parent; parent = trace.find((span) => span.spanId === parent!.parentSpanId)) {
    if (parent === ancestor) return true;
  }
  return false;
}

/** The log line of the request `requestId`, once written (it is written when the answer has gone). */
async function requestLine(requestId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = server.logEntries().find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a REST call', () => {
  let requestId: string;
  let trace: ReceivedSpan[];

  beforeAll(async () => {
    const response = await server.request('/api/v1/me', { key });
    expect(response.status).toBe(200);
    requestId = response.headers.get('x-request-id')!;
    // The request's spans arrive in batches: wait for the root span, which ends last.
    const gate = await receiver.waitFor((spans) => spans.find((span) => span.name === 'gate' && span.attributes['http.response.header.x-request-id'] === requestId));
    trace = await receiver.waitFor((spans) => {
      const found = traceOf(spans, gate);
      return found.some((span) => span.parentSpanId === '') ? found : undefined;
    });
  });

  it('is one trace: the request\'s span at its root, the gate (with the request id) and each SQL statement below it', () => {
    const root = trace.find((span) => span.parentSpanId === '')!;
    expect(root.name).toBe('GET /api/v1/me');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/me',
      'http.response.status_code': 200,
      'url.path': '/api/v1/me',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
    });
    const gate = trace.find((span) => span.name === 'gate')!;
    expect(isBelow(trace, gate, root)).toBe(true);
    expect(gate.attributes['http.response.header.x-request-id']).toBe(requestId);
    expect(gate.attributes['metrics_api.org_id']).toBe(main.id);
    const statements = trace.filter((span) => span.name.startsWith('pg.query:'));
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(isBelow(trace, statement, root)).toBe(true);
      expect(statement.attributes['db.system.name']).toBe('postgresql');
      expect(typeof statement.attributes['db.query.text']).toBe('string');
      // The statement's text and name, never its values.
      expect(Object.keys(statement.attributes).filter((name) => /parameter|values/.test(name))).toEqual([]);
    }
    // The key is looked up below the gate.
    expect(statements.some((statement) => isBelow(trace, statement, gate))).toBe(true);
    // The rate limiter's call to Upstash (the stand-in here), below the gate, with the answer's status.
    const upstash = trace.filter((span) => String(span.attributes['url.full']).startsWith(server.standIn!.url));
    expect(upstash.length).toBeGreaterThan(0);
    for (const call of upstash) {
      expect(call.name).toBe('POST');
      expect(call.attributes).toMatchObject({ 'http.request.method': 'POST', 'server.address': new URL(server.standIn!.url).hostname, 'http.response.status_code': 200 });
      expect(isBelow(trace, call, gate)).toBe(true);
    }
  });

  it('has no span of Next.js\'s own: it traces nothing while no tracer provider is registered globally', () => {
    expect(trace.filter((span) => span.attributes['next.span_type'] !== undefined)).toEqual([]);
    expect(receiver.spans.filter((span) => span.attributes['next.span_type'] !== undefined)).toEqual([]);
  });

  it('never carries the key or the Upstash token, in any span sent', () => {
    const secret = key.slice('mk_live_'.length);
    for (const body of receiver.bodies) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain(server.standIn!.token);
    }
  });

  it("is one JSON log line with the request id, the trace id, the route, status, duration, organisation and key prefix", async () => {
    const line = await requestLine(requestId);
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId,
      traceId: trace[0]!.traceId,
      method: 'GET',
      path: '/api/v1/me',
      route: '/api/v1/me',
      door: 'rest',
      status: 200,
      orgId: main.id,
      credential: key.slice(0, 'mk_live_'.length + 4),
      rateLimit: { limit: 60, remaining: 59, limited: false },
    });
    expect(typeof line.durationMs).toBe('number');
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(typeof line.instance).toBe('string');
  });
});

describe('a caller\'s trace', () => {
  it('is continued: the request\'s span is a child of the span named in its traceparent', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const parentSpanId = randomUUID().replaceAll('-', '').slice(0, 16);
    const response = await server.request('/api/v1/me', { key, headers: { traceparent: `00-${traceId}-${parentSpanId}-01` } });
    expect(response.status).toBe(200);
    const root = await receiver.waitFor((spans) => spans.find((span) => span.traceId === traceId && span.name === 'GET /api/v1/me'));
    expect(root.parentSpanId).toBe(parentSpanId);
    const gate = await receiver.waitFor((spans) => spans.find((span) => span.traceId === traceId && span.name === 'gate'));
    expect(gate.parentSpanId).toBe(root.spanId);
    const line = await requestLine(response.headers.get('x-request-id')!);
    expect(line.traceId).toBe(traceId);
  });
});

describe('a page', () => {
  it('is a trace of its own, named by its route', async () => {
    const response = await server.request('/login');
    expect(response.status).toBe(200);
    const root = await receiver.waitFor((spans) => spans.find((span) => span.name === 'GET /login' && span.parentSpanId === ''));
    expect(root.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.route': '/login', 'http.response.status_code': 200, 'url.path': '/login' });
  });
});

describe('an MCP tool call', () => {
  it('is one trace naming the tool, with the gate and its SQL statements', async () => {
    const client = await connect('@modelcontextprotocol/client 2.x', server.origin, key);
    try {
      const result = await client.callTool('list_clients');
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const tool = await receiver.waitFor((spans) => spans.find((span) => span.name === 'tools/call list_clients'));
    expect(tool.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'list_clients' });
    const trace = await receiver.waitFor((spans) => {
      const found = traceOf(spans, tool);
      return found.some((span) => span.parentSpanId === '') ? found : undefined;
    });
    const root = trace.find((span) => span.parentSpanId === '')!;
    expect(root.name).toBe('POST /api/mcp');
    const gate = trace.find((span) => span.name === 'gate')!;
    expect(isBelow(trace, gate, root)).toBe(true);
    expect(isBelow(trace, tool, root)).toBe(true);
    expect(trace.some((span) => span.name.startsWith('pg.query:') && isBelow(trace, span, tool))).toBe(true);
    const line = await requestLine(gate.attributes['http.response.header.x-request-id'] as string);
    expect(line).toMatchObject({ route: 'mcp:list_clients', door: 'mcp', status: 200, traceId: tool.traceId });
  });
});

describe('the log', () => {
  it('is JSON lines with a time, a level and the instance, none with a credential', async () => {
    await server.request('/api/v1/me', { key });
    const entries = server.logEntries();
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) expect(entry).toMatchObject({ time: expect.stringMatching(/^\d{4}-/), level: expect.any(String), instance: expect.any(String) });
    expect(entries.find((entry) => entry.msg?.startsWith('Metrics API listening on '))).toBeDefined();
    expect(JSON.stringify(entries)).not.toContain(key.slice('mk_live_'.length));
  });

  it('shows a path segment that looks like a credential as REDACTED, as the request log does', async () => {
    const answer = await server.request(`/api/v1/${key}/overview`, { key });
    expect(answer.status).toBe(404);
    const line = await requestLine(answer.headers.get('x-request-id')!);
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/REDACTED/overview', door: 'rest', status: 404 });
    expect(JSON.stringify(server.logEntries())).not.toContain(key.slice('mk_live_'.length));
  });
});

describe('the metrics', () => {
  it('are Prometheus text on METRICS_PORT: the request histogram, process memory, rate limits, pools', async () => {
    await server.request('/api/v1/me', { key });
    const response = await fetch(`${metricsOrigin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    const sample = (name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(sample('http_server_request_duration_seconds_count{http_request_method="GET",http_route="/api/v1/me",http_response_status_code="200",door="rest"}')).toBeGreaterThanOrEqual(2);
    expect(sample('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample('rate_limit_requests_total{window="data",result="allowed"}')).toBeGreaterThanOrEqual(2);
    expect(sample('db_client_connection_max{db_client_connection_pool_name="primary"}')).toBe(10);
    expect(sample('db_client_connection_max{db_client_connection_pool_name="gate"}')).toBe(3);
    expect(sample('mcp_tool_calls_total{gen_ai_tool_name="list_clients",outcome="ok"}')).toBe(1);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m);
    // Bounded labels: never an organisation or a key.
    expect(text).not.toContain(main.id);
    expect(text).not.toContain(key.slice(0, 'mk_live_'.length + 4));
  });

  it('label a request by its route template, never by the path a caller chose', async () => {
    const probe = randomUUID();
    expect((await server.request(`/api/v1/${probe}`, { key })).status).toBe(404);
    expect((await server.request(`/${probe}`)).status).toBe(404);
    expect((await server.request(`/consent/${probe}`)).status).toBe(307);
    // A request is counted once its connection is done with it, which the client may see first.
    const text = await waitFor(
      'the last request counted',
      async () => {
        const scraped = await (await fetch(`${metricsOrigin}/metrics`)).text();
        return scraped.includes('http_route="/consent/[uid]"') ? scraped : undefined;
      },
      { timeoutMs: 5_000 },
    );
    expect(text).not.toContain(probe);
    expect(text).toMatch(/^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/api\/v1 \(no such endpoint\)",http_response_status_code="404",door="rest"\} [1-9]/m);
    expect(text).toMatch(/^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\(unmatched\)",http_response_status_code="404",door="page"\} [1-9]/m);
    expect(text).toMatch(/^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/consent\/\[uid\]",http_response_status_code="307",door="page"\} [1-9]/m);
  });

  it('answer 404 at any other path of METRICS_PORT', async () => {
    const response = await fetch(`${metricsOrigin}/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Metrics are at /metrics.\n');
  });

  it('are not on the public port', async () => {
    const response = await server.request('/metrics');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('http_server_request_duration_seconds');
  });
});
