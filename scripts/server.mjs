// The production server (`npm start`): Next.js's own request handling (routes, pages, proxy.ts) behind
// a plain Node HTTP server that owns what Next.js does not let the app choose or see: compression, each
// request's socket address, and how long a connection may take. `next start` gzips every response at
// level 6 whatever its size, and drops a Content-Encoding that a route sets, so neither the level nor
// the threshold can be set from the app. At level 6 a year's ad list (540 kB of JSON) takes 6-16 ms to
// compress; at level 1 about 2 ms for nearly the same size.
//
//   node scripts/server.mjs [-p PORT] [-H HOSTNAME]     (the port also from PORT; every interface by default)
//
// What is compressed: answers to clients that accept gzip (or Brotli), except those marked
// `Cache-Control: no-transform` (the API's answers under 1 KiB, see lib/http/headers.ts) and types
// that do not compress (images). `HTTP_COMPRESSION=off` leaves compression to a reverse proxy in front.
//
// The socket address reaches the app through each request's record, a store no request can write to
// (lib/telemetry/request.ts, read by lib/http/client-address.ts); once the answer is sent, the record
// becomes the request's JSON log line and its sample of the metrics, served on METRICS_PORT when set
// (lib/telemetry/server.ts). CONNECTION_LIMITS bound how long a connection may take to send its
// request or sit idle. Every line the process prints goes through the one logger (lib/telemetry/logger.ts).
// V8's heap is bounded from the memory the process may use unless the operator chose, and glibc's
// allocator kept to two arenas (scripts/heap-limit.mjs). The code the server compiles is kept on disk
// with its build and reused by the next start (see keepCompiledCode), and the build's server chunk files
// that are the same are loaded once (scripts/shared-chunks.mjs).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, parseArgs } from 'node:util';
import { constants as zlib } from 'node:zlib';
import { answerClientErrors } from './client-errors.mjs';
import { boundMemory } from './heap-limit.mjs';
import { shareIdenticalChunks } from './shared-chunks.mjs';

// First, before the rest is loaded: the server may start itself again with a bound on its heap (and
// on its allocator's arenas).
boundMemory();

/** The folder of the build the server runs (NEXT_DIST_DIR, as next.config.ts reads it). */
const DIST_DIR = path.join(fileURLToPath(new URL('..', import.meta.url)), process.env.NEXT_DIST_DIR ?? '.next');
/** Whether that folder holds a build: `next build` writes BUILD_ID last, as Next.js's own check reads it. */
const BUILT = existsSync(path.join(DIST_DIR, 'BUILD_ID'));

/**
 * Node.js's compile cache: the code V8 compiles (Next.js's server, the route bundles, and our .ts files
 * with their types stripped) is written to disk and read back by the next start instead of being
 * compiled again, so a restart reaches its first answer sooner. Kept in the build's folder, which
 * `next build` empties, so the cache never outlives the code it was made from and is not shared with
 * other users of the machine (os.tmpdir(), Node's default). NODE_COMPILE_CACHE puts it elsewhere,
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off. Node writes it when the process exits; a failure to enable
 * it (a read-only folder) only costs the speed, and is said once the logger is loaded.
 */
function keepCompiledCode() {
  const directory = process.env.NODE_COMPILE_CACHE ? undefined : path.join(DIST_DIR, 'node-compile-cache');
  return module.enableCompileCache({ directory });
}
// Without a build there is no code to keep, and its folder is not made for the cache alone.
const compileCache = BUILT ? keepCompiledCode() : null;
shareIdenticalChunks(path.join(DIST_DIR, 'server', 'chunks'));
const { default: compression } = await import('compression');
const { logger } = await import('../lib/telemetry/logger.ts');
// Next.js would say it with a stack trace, once it has loaded.
if (!BUILT) {
  logger().fatal(`No production build in ${DIST_DIR}: run \`npm run build\` first (\`npm run demo\` builds, then starts with demo data).`);
  process.exit(1);
}
const { observeRequest, routeTable, serveMetrics } = await import('../lib/telemetry/server.ts');
const { drainOnSignals } = await import('./drain.mjs');
if (compileCache?.status === module.constants.compileCacheStatus.FAILED) {
  logger().warn(`[server] Compiled code is not kept between starts (each start compiles it again): ${compileCache.message}`);
}

// As `next start` does: React and Next.js choose their production code by it when they load.
process.env.NODE_ENV = 'production';
const { default: next } = await import('next');

/**
 * The compressed body is handed to the socket in pieces of this size: zlib's default of 16 kB cut a
 * year's ad list (127 kB compressed) into eight, each a pass through the stream and a write.
 */
const COMPRESSED_CHUNK_BYTES = 64 * 1024;

/** The fastest levels: on a large JSON answer they keep most of level 6's saving for a fraction of its time. */
const COMPRESSION_OPTIONS = {
  level: 1,
  chunkSize: COMPRESSED_CHUNK_BYTES,
  brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: COMPRESSED_CHUNK_BYTES },
};

/** The app's own bound on reading a request body (lib/http/body.ts: the same variable and default). */
const BODY_TIMEOUT_MS = Number(process.env.API_BODY_TIMEOUT_MS ?? 2_000);

/**
 * Node's defaults let a client hold a connection for 60 s sending its headers and 300 s sending a body
 * (Next.js answers a page's form post only once the body has ended, so a body trickled in a byte a
 * second held the answer for as long). Here the whole request, headers and body, must arrive within
 * the app's body bound plus 1 s: the app's readers give up first and answer themselves where they can
 * (the API's 401, the OAuth endpoints' 400); then Node answers 408 if nothing was answered yet, and
 * closes the connection either way. Node checks these every connectionsCheckingInterval.
 */
const CONNECTION_LIMITS = {
  requestTimeout: BODY_TIMEOUT_MS + 1_000,
  headersTimeout: BODY_TIMEOUT_MS + 1_000,
  connectionsCheckingInterval: 250,
  /** An idle kept-alive connection is closed after this (Node's default, stated). */
  keepAliveTimeout: 5_000,
};
/**
 * A connection on which nothing moves either way for this long is closed: a client that stops reading
 * its answer. Longer than any request may take to answer (a statement's 10 s, a 5 s queue).
 */
const SOCKET_IDLE_TIMEOUT_MS = 30_000;

const USAGE = 'Usage: npm start -- [-p PORT] [-H HOSTNAME]   (or node scripts/server.mjs [-p PORT] [-H HOSTNAME])';

function options() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', short: 'p', default: process.env.PORT ?? '3000' },
        // Not from HOSTNAME: containers set it to their own name, which would leave localhost unserved.
        hostname: { type: 'string', short: 'H', default: '0.0.0.0' },
      },
    }).values;
  } catch (error) {
    logger().fatal(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

/** A port number from `text` (named `what` in the message), or the process ends with the usage. */
function portOf(text, what) {
  const number = Number(text);
  if (/^\d+$/.test(text) && number <= 65535) return number;
  logger().fatal(`${what} must be a whole number from 0 to 65535, not "${text}".\n${USAGE}`);
  process.exit(2);
}

const { port: portText, hostname } = options();
const port = portOf(portText, 'The port');
// The metrics' own listener (Prometheus scrapes it), on the same interface as the app's; unset: none.
const metricsPort = process.env.METRICS_PORT ? portOf(process.env.METRICS_PORT, 'METRICS_PORT') : null;

const app = next({ dev: false, dir: fileURLToPath(new URL('..', import.meta.url)), hostname, port });
const nextHandler = app.getRequestHandler();

/** The error a request's stream fails with when its connection closes before the request has arrived. */
const isIncompleteRequest = (error) => error?.code === 'ECONNRESET' && error.message === 'aborted';

/** Each connection's latest request and when it began (requests on one connection come one at a time). */
const latestRequest = new WeakMap();

/**
 * One line for a connection that closed before its latest request had arrived in full: its client
 * went away, or Node closed it at requestTimeout (the time says which). The path only: a query string
 * may hold what a caller should not have sent.
 */
function logIfIncomplete(socket) {
  const latest = latestRequest.get(socket);
  if (!latest || latest.req.complete) return;
  const { req, start } = latest;
  logger().warn(`[server] ${req.method} ${req.url.split('?')[0]}: the connection closed ${Date.now() - start} ms into the request, before the request had arrived in full.`);
}

/**
 * What Next.js and the libraries print on the console goes through the logger too, one JSON line
 * each. Next.js logs an incomplete request again as an error with a stack when its proxy was waiting
 * for the body (a page's form post): logIfIncomplete has said it in one line.
 */
function consoleToLogger() {
  // As the console would have printed them (an error with its stack, an object inspected).
  console.log = console.info = (...args) => logger().info(format(...args));
  console.warn = (...args) => logger().warn(format(...args));
  console.error = (...args) => {
    if (!(args.length === 1 && isIncompleteRequest(args[0]))) logger().error(format(...args));
  };
}
consoleToLogger();

// Next.js answers its own errors; one that escapes it still must not end the process.
/** Whether a request's path decodes: Next.js answers one whose percent-encoding is not UTF-8 with a 500. */
function pathDecodes(url) {
  try {
    decodeURIComponent((url ?? '/').split('?')[0]);
    return true;
  } catch {
    return false;
  }
}

/** Our own host, as the public address names it (APP_URL, with lib/app-url.ts's default). */
const OWN_HOST = new URL(process.env.APP_URL ?? 'http://localhost:3000').host.toLowerCase();

/**
 * The path and query a request line names, or null when it names another host. A request line in
 * absolute form (`GET http://host/path HTTP/1.1`, what a client sends to a proxy) is served for our
 * own host only: Next.js took any such line's host for the request's, and redirected the client to it.
 */
function ownTarget(url) {
  if (url.startsWith('/')) return url;
  const target = URL.parse(url);
  return target && /^https?:$/.test(target.protocol) && target.host.toLowerCase() === OWN_HOST ? target.pathname + target.search : null;
}

function refuse(res, message) {
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(message), 'Cache-Control': 'no-store' });
  res.end(message);
}

const handle = (req, res) => {
  const target = ownTarget(req.url ?? '/');
  if (target === null) return void refuse(res, 'The request line names another host: this server serves only its own.');
  req.url = target;
  if (!pathDecodes(req.url)) return void refuse(res, 'The address could not be read: its percent-encoding is not valid UTF-8.');
  return nextHandler(req, res).catch((error) => {
    if (!isIncompleteRequest(error)) logger().error({ err: error?.stack ?? String(error) }, '[server] request failed');
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
};
await app.prepare();

/**
 * An answer sent before its request's body has arrived in full (the app refused a body over its bound
 * without reading the rest) says `Connection: close`, and Node closes the connection once it is sent.
 * The rest of that body is still on its way on the connection, where the next request would be read
 * from: on a kept-alive connection the next request was never processed (a 408 after requestTimeout).
 * The client sends its next request on a new connection instead. Every head goes through writeHead.
 */
function closeIfBodyUnread(req, res) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete && !this.headersSent) this.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  };
}

/** The route templates of the build the server runs. */
const routes = routeTable(DIST_DIR);

const compress = process.env.HTTP_COMPRESSION === 'off' ? null : compression(COMPRESSION_OPTIONS);
const server = createServer(CONNECTION_LIMITS, (req, res) => {
  latestRequest.set(req.socket, { req, res, start: Date.now() });
  closeIfBodyUnread(req, res);
  observeRequest(routes, req, res, () => {
    if (!compress) return void handle(req, res);
    // compression() wraps res.write/end and calls next() at once; it never passes an error.
    compress(req, res, () => void handle(req, res));
  });
});
server.setTimeout(SOCKET_IDLE_TIMEOUT_MS);
answerClientErrors(server, (socket) => latestRequest.get(socket));
server.on('connection', (socket) => socket.once('close', () => logIfIncomplete(socket)));
// A port in use or an address not of this machine: say so, without a stack trace.
const cannotListen = (listenPort) => (error) => {
  logger().fatal(`Cannot listen on ${hostname}:${listenPort}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}.`);
  process.exit(1);
};
if (metricsPort !== null) await serveMetrics(metricsPort, hostname).catch(cannotListen(metricsPort));
server.once('error', cannotListen(port));
server.listen(port, hostname, () => {
  logger().info(`Metrics API listening on http://${hostname}:${port} (Node.js ${process.version}, compression ${compress ? 'gzip level 1 / Brotli quality 1' : 'off'})`);
  // What starting compiled is on disk now, for a restart after a crash too (exit writes the rest).
  module.flushCompileCache();
});

// SIGTERM or Ctrl-C: stop taking connections, answer what was sent, then exit (scripts/drain.mjs).
drainOnSignals(server);
