// What the production server (scripts/server.mjs) does for telemetry: it runs each request inside its
// record (lib/telemetry/request.ts) and, while tracing, inside the request's span (the root of its
// trace, or a child of the caller's); once the answer is sent it writes the request's log line, its
// sample of http_server_request_duration_seconds, and ends the span; and it serves the metrics on a
// listener of their own (METRICS_PORT), never on the public port, so that a load balancer in front
// does not expose them. Node runs this file as it is (imports with their extension, packages only).
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import path from 'node:path';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, type Attributes, type Span } from '@opentelemetry/api';
import { redactedPath } from '../text/credential-redaction.ts';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';
import { requestStorage, type Door, type RequestRecord } from './request.ts';
import { tracing, type Tracing } from './tracing.ts';

interface RouteTable {
  statics: Set<string>;
  dynamics: { page: string; regex: RegExp }[];
}

/**
 * The app's route templates, from the build's routes manifest: a path is labelled with the template
 * that serves it (`/settings/api-keys/[id]`), so that a label never holds a caller's path.
 */
export function routeTable(distDir: string): RouteTable {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8')) as {
    staticRoutes: { page: string }[];
    dynamicRoutes: { page: string; regex: string }[];
  };
  return {
    statics: new Set(manifest.staticRoutes.map((route) => route.page)),
    dynamics: manifest.dynamicRoutes.map((route) => ({ page: route.page, regex: new RegExp(route.regex) })),
  };
}

/** What routeOf answers for a path that no route of the app serves. */
const UNMATCHED = '(unmatched)';

function routeOf(table: RouteTable, pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (table.statics.has(trimmed)) return trimmed;
  if (pathname.startsWith('/_next/')) return '/_next';
  return table.dynamics.find((route) => route.regex.test(pathname))?.page ?? UNMATCHED;
}

function doorOf(pathname: string): Door {
  if (pathname === '/api/v1' || pathname.startsWith('/api/v1/')) return 'rest';
  if (pathname === '/api/mcp' || pathname.startsWith('/api/mcp/')) return 'mcp';
  if (pathname.startsWith('/oauth/') || pathname.startsWith('/.well-known/')) return 'oauth';
  if (pathname.startsWith('/api/') || pathname.startsWith('/_next/')) return 'other';
  return 'page';
}

/** The methods OpenTelemetry's HTTP conventions know; any other is `_OTHER`, its name in `http.request.method_original`. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** What a request's span is made from: what the server knows of the request when it arrives. */
export interface ArrivingRequest {
  method: string;
  /** The route template that serves it (routeOf), or `(unmatched)`. */
  route: string;
  headers: IncomingHttpHeaders;
  /** The socket's remote address. */
  peerAddress: string | undefined;
  encrypted: boolean;
}

/**
 * The name and attributes of a request's span, after OpenTelemetry's HTTP server conventions: named
 * `<method> <route template>` (`GET /api/v1/me`), or by its method alone when no route serves it.
 * The path (`url.path`) and the status code are set when the answer is sent.
 */
export function requestSpan(request: ArrivingRequest): { name: string; attributes: Attributes } {
  const known = KNOWN_METHODS.has(request.method);
  const method = known ? request.method : '_OTHER';
  const attributes: Attributes = {
    'http.request.method': method,
    ...(known ? {} : { 'http.request.method_original': request.method }),
    'url.scheme': request.encrypted ? 'https' : 'http',
    ...(request.peerAddress ? { 'network.peer.address': request.peerAddress } : {}),
    ...(request.headers['user-agent'] ? { 'user_agent.original': request.headers['user-agent'] } : {}),
  };
  // The Host header's name and port: `localhost:3000`, `[::1]:3000` (the address without its brackets), `example.com`.
  const host = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d+))?$/.exec(request.headers.host ?? '');
  if (host) {
    attributes['server.address'] = (host[1] ?? host[2])!;
    if (host[3]) attributes['server.port'] = Number(host[3]);
  }
  if (request.route === UNMATCHED) return { name: known ? method : 'HTTP', attributes };
  attributes['http.route'] = request.route;
  return { name: `${known ? method : 'HTTP'} ${request.route}`, attributes };
}

/** The request's span, continuing the caller's trace when it sent one. */
function startRequestSpan(table: RouteTable, req: IncomingMessage, pathname: string): { span: Span; route: string; tracing: Tracing } | undefined {
  const traced = tracing();
  if (!traced) return undefined;
  const route = routeOf(table, pathname);
  const { name, attributes } = requestSpan({
    method: req.method ?? 'GET',
    route,
    headers: req.headers,
    peerAddress: req.socket.remoteAddress,
    encrypted: (req.socket as TLSSocket).encrypted === true,
  });
  const caller = traced.propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
  return { span: traced.tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, caller), route, tracing: traced };
}

/** Ends the request's span with what the answer was: its status code once sent (a 5xx is a failure), the path without its query. */
function endRequestSpan(span: Span, res: ServerResponse, path: string): void {
  span.setAttribute('url.path', path);
  if (res.headersSent) {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) {
      span.setAttribute('error.type', String(res.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/**
 * Runs `handle` inside the request's record (and span, while tracing), and records the request when
 * its connection is done with it: the answer sent in full, or the client gone first (`aborted`). The
 * path only, never the query string: a caller may have put in it what it should not have; and a path
 * segment that looks like a credential as `REDACTED`.
 */
export function observeRequest(table: RouteTable, req: IncomingMessage, res: ServerResponse, handle: () => void): void {
  const startedAt = performance.now();
  const record: RequestRecord = { address: req.socket.remoteAddress };
  const pathname = (req.url ?? '/').split('?')[0]!;
  const traced = startRequestSpan(table, req, pathname);
  res.once('close', () => {
    const seconds = (performance.now() - startedAt) / 1000;
    const route = record.route ?? traced?.route ?? routeOf(table, pathname);
    const door = doorOf(pathname);
    const status = res.statusCode;
    const shownPath = redactedPath(pathname);
    metrics().httpDuration.observe({ http_request_method: req.method ?? 'GET', http_route: route, http_response_status_code: String(status), door }, seconds);
    if (traced) endRequestSpan(traced.span, res, shownPath);
    const line = {
      requestId: record.requestId,
      traceId: traced?.span.spanContext().traceId,
      method: req.method,
      path: shownPath,
      route,
      door,
      status,
      durationMs: Math.round(seconds * 1e4) / 10,
      orgId: record.orgId,
      credential: record.credential,
      rateLimit: record.rateLimit,
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    if (status >= 500) logger().error(line, 'request');
    else logger().info(line, 'request');
  });
  if (traced) requestStorage().run(record, () => traced.tracing.spans.run(traced.span, handle));
  else requestStorage().run(record, handle);
}

/** Serves the metrics at `/metrics` on `port` (METRICS_PORT); resolves once listening. */
export function serveMetrics(port: number, hostname: string): Promise<void> {
  const { registry } = metrics();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics are at /metrics.\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: Error) => {
        logger().error({ err: error.message }, '[metrics] could not collect the metrics');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n');
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      logger().info(`[metrics] Prometheus metrics on http://${hostname}:${port}/metrics`);
      resolve();
    });
  });
}
