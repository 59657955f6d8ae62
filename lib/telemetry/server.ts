// What the production server (scripts/server.mjs) does for telemetry: it runs each request inside its
// record (lib/telemetry/request.ts), and once the answer is sent writes the request's log line and
// its sample of http_server_request_duration_seconds; and it serves the metrics on a listener of their
// own (METRICS_PORT), never on the public port, so that a load balancer in front does not expose them.
// Node runs this file as it is (imports with their extension, packages only).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { redactedPath } from '../text/credential-redaction.ts';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';
import { requestStorage, type Door, type RequestRecord } from './request.ts';

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

function routeOf(table: RouteTable, pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (table.statics.has(trimmed)) return trimmed;
  if (pathname.startsWith('/_next/')) return '/_next';
  return table.dynamics.find((route) => route.regex.test(pathname))?.page ?? '(unmatched)';
}

function doorOf(pathname: string): Door {
  if (pathname === '/api/v1' || pathname.startsWith('/api/v1/')) return 'rest';
  if (pathname === '/api/mcp' || pathname.startsWith('/api/mcp/')) return 'mcp';
  if (pathname.startsWith('/oauth/') || pathname.startsWith('/.well-known/')) return 'oauth';
  if (pathname.startsWith('/api/') || pathname.startsWith('/_next/')) return 'other';
  return 'page';
}

/**
 * Runs `handle` inside the request's record, and records the request when its connection is done with
 * it: the answer sent in full, or the client gone first (`aborted`). The path only, never the query
 * string: a caller may have put in it what it should not have.
 */
export function observeRequest(table: RouteTable, req: IncomingMessage, res: ServerResponse, handle: () => void): void {
  const startedAt = performance.now();
  const record: RequestRecord = { address: req.socket.remoteAddress };
  const pathname = (req.url ?? '/').split('?')[0]!;
  res.once('close', () => {
    const seconds = (performance.now() - startedAt) / 1000;
    const route = record.route ?? routeOf(table, pathname);
    const door = doorOf(pathname);
    const status = res.statusCode;
    metrics().httpDuration.observe({ http_request_method: req.method ?? 'GET', http_route: route, http_response_status_code: String(status), door }, seconds);
    const line = {
      requestId: record.requestId,
      traceId: record.traceId,
      method: req.method,
      path: redactedPath(pathname),
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
  requestStorage().run(record, handle);
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
