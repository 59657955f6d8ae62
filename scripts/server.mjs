// The production server (`npm start`): Next.js's own request handling (routes, pages, proxy.ts) behind
// a plain Node HTTP server that owns one thing Next.js does not let the app choose: compression.
// `next start` gzips every response at level 6 whatever its size, and drops a Content-Encoding that a
// route sets, so neither the level nor the threshold can be set from the app. At level 6 a year's ad
// list (540 kB of JSON) takes 6-16 ms to compress; at level 1 about 2 ms for nearly the same size.
//
//   node scripts/server.mjs [-p PORT] [-H HOSTNAME]     (the port also from PORT; every interface by default)
//
// What is compressed: answers to clients that accept gzip (or Brotli), except those marked
// `Cache-Control: no-transform` (the API's answers under 1 KiB, see lib/http/headers.ts) and types
// that do not compress (images). `HTTP_COMPRESSION=off` leaves compression to a reverse proxy in front.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { constants as zlib } from 'node:zlib';
import compression from 'compression';
import { drainOnSignals } from './drain.mjs';

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
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

const { port: portText, hostname } = options();
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535) {
  console.error(`The port must be a whole number from 0 to 65535, not "${portText}".\n${USAGE}`);
  process.exit(2);
}

const app = next({ dev: false, dir: fileURLToPath(new URL('..', import.meta.url)), hostname, port });
const nextHandler = app.getRequestHandler();
// Next.js answers its own errors; one that escapes it still must not end the process.
const handle = (req, res) =>
  nextHandler(req, res).catch((error) => {
    console.error('[server] request failed:', error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
await app.prepare();

const compress = process.env.HTTP_COMPRESSION === 'off' ? null : compression(COMPRESSION_OPTIONS);
const server = createServer((req, res) => {
  if (!compress) return void handle(req, res);
  // compression() wraps res.write/end and calls next() at once; it never passes an error.
  compress(req, res, () => void handle(req, res));
});
// A port in use or an address not of this machine: say so, without a stack trace.
server.once('error', (error) => {
  console.error(`Cannot listen on ${hostname}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}.`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  console.log(`Metrics API listening on http://${hostname}:${port} (compression ${compress ? 'gzip level 1 / Brotli quality 1' : 'off'})`);
});

// SIGTERM or Ctrl-C: stop taking connections, answer what was sent, then exit (scripts/drain.mjs).
drainOnSignals(server);
