// The production server (`npm start`): Next.js's own request handling (routes, pages, proxy.ts) behind
// a plain Node HTTP server that owns one thing Next.js does not let the app choose: compression.
// `next start` gzips every response at level 6 whatever its size, and drops a Content-Encoding that a
// route sets, so neither the level nor the threshold can be set from the app. At level 6 a year's ad
// list (540 kB of JSON) takes 6-16 ms to compress; at level 1 about 2 ms for nearly the same size.
//
//   node scripts/server.mjs [-p PORT] [-H HOSTNAME]     (the port also from PORT; every interface by default)
//
// What is compressed: answers to clients that accept gzip (or Brotli), except those marked
// `Cache-Control: no-transform` (the API's answers under 1 KiB, see lib/http/responses.ts) and types
// that do not compress (images). `HTTP_COMPRESSION=off` leaves compression to a reverse proxy in front.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { constants as zlib } from 'node:zlib';
import compression from 'compression';

// As `next start` does: React and Next.js choose their production code by it when they load.
process.env.NODE_ENV = 'production';
const { default: next } = await import('next');

/** The fastest levels: on a large JSON answer they keep most of level 6's saving for a fraction of its time. */
const COMPRESSION_OPTIONS = {
  level: 1,
  brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } },
};

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: process.env.PORT ?? '3000' },
    // Not from HOSTNAME: containers set it to their own name, which would leave localhost unserved.
    hostname: { type: 'string', short: 'H', default: '0.0.0.0' },
  },
});
const port = Number(values.port);
const hostname = values.hostname;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid port: ${values.port}`);
  process.exit(1);
}

const app = next({ dev: false, dir: new URL('..', import.meta.url).pathname, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const compress = process.env.HTTP_COMPRESSION === 'off' ? null : compression(COMPRESSION_OPTIONS);
const server = createServer((req, res) => {
  if (!compress) return void handle(req, res);
  // compression() wraps res.write/end and calls next() at once; it never passes an error.
  compress(req, res, () => void handle(req, res));
});
server.listen(port, hostname, () => {
  console.log(`Metrics API listening on http://${hostname}:${port} (compression ${compress ? 'gzip level 1 / Brotli quality 1' : 'off'})`);
});

// Stop taking connections and let the requests in flight finish, as `next start` does.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
