// The production server's drain (scripts/server.mjs), so that an instance leaves a load balancer's
// rotation without losing a request. On SIGTERM (or Ctrl-C):
// 1. it stops accepting connections, and readiness answers 503 (lib/shutdown.ts reads the flag);
// 2. every request in flight is answered, with `Connection: close` when its headers have not gone
//    yet, and so is a request that arrives on a connection already open: the client then opens a new
//    connection (elsewhere) for its next request instead of meeting a closed one;
// 3. a connection with no request is closed once it has been idle for a second: closing one the
//    moment the drain starts (as Node's server.close() does) races a client that is sending its next
//    request on it, which would then fail without having been read;
// 4. when no connection is left, the app writes what it batches and closes its pools
//    (the `shutdown` of the app's process-wide slot, set by instrumentation.ts), and the process exits 0.
// Requests still running after SHUTDOWN_GRACE_MS (default 10 s) are cut; the app's last work then gets
// up to 5 s more, and the process exits 1. The same signal twice ends the process at once.
import net from 'node:net';

/** How long an open connection with no request is kept while draining (see 3. above). */
const IDLE_CLOSE_MS = 1_000;
/** How often the drain looks for idle connections to close. */
const SWEEP_EVERY_MS = 100;
/** The most the app's last work (flushes, pools) may take. */
const LAST_WORK_MS = 5_000;
/** The slot the app shares with the drain (lib/shutdown.ts, through lib/process-wide.ts): `draining` and `shutdown`. */
const SHUTDOWN_SLOT = Symbol.for('metrics-api.shutdown');

/**
 * Follows the server's connections and requests, and returns `drain()`, which resolves with the
 * process's exit code once the drain is over (see above).
 */
export function drainable(server, { graceMs, log = console.log }) {
  /** Each open connection: its requests in flight and since when it has had none. */
  const connections = new Map();
  const responses = new Set();
  let draining = false;

  server.on('connection', (socket) => {
    connections.set(socket, { requests: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // Before the app's own listener, so that the header is set before anything is written.
  server.prependListener('request', (req, res) => {
    const connection = connections.get(req.socket);
    connection.requests += 1;
    responses.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      connection.requests -= 1;
      connection.idleSince = Date.now();
      responses.delete(res);
    });
  });

  return async function drain() {
    draining = true;
    (globalThis[SHUTDOWN_SLOT] ??= {}).draining = true;
    const startedAt = Date.now();
    log(`[server] draining: ${responses.size} requests in flight, ${connections.size} connections open.`);
    for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');

    // Node's http close() would also close every idle connection at once (see 3. above): only stop listening.
    const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
    const sweep = setInterval(() => {
      for (const [socket, { requests, idleSince }] of connections) {
        if (requests === 0 && Date.now() - idleSince >= IDLE_CLOSE_MS) socket.destroy();
      }
    }, SWEEP_EVERY_MS);
    let graceTimer;
    const graceOver = new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs, 'over')));
    const ended = await Promise.race([closed, graceOver]);
    clearInterval(sweep);
    clearTimeout(graceTimer);
    let exitCode = 0;
    if (ended === 'over') {
      log(`[server] ${responses.size} requests still running after ${graceMs} ms: cut.`);
      server.closeAllConnections();
      exitCode = 1;
    }

    let lastWorkTimer;
    const lastWorkOver = new Promise((resolve) => (lastWorkTimer = setTimeout(resolve, LAST_WORK_MS, 'over')));
    const lastWork = (globalThis[SHUTDOWN_SLOT].shutdown?.() ?? Promise.resolve()).then(
      () => 'done',
      (error) => {
        log(`[server] the app's last work failed: ${error.message}`);
        return 'failed';
      },
    );
    const outcome = await Promise.race([lastWork, lastWorkOver]);
    clearTimeout(lastWorkTimer);
    if (outcome !== 'done') exitCode = 1;
    if (outcome === 'over') log(`[server] the app's last work did not end within ${LAST_WORK_MS} ms.`);
    log(`[server] drained in ${Date.now() - startedAt} ms.`);
    return exitCode;
  };
}

/** SHUTDOWN_GRACE_MS, checked: a bad value stops the start rather than the drain. */
function graceFromEnv() {
  const text = process.env.SHUTDOWN_GRACE_MS ?? '10000';
  if (!/^\d+$/.test(text)) {
    console.error(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds, not "${text}".`);
    process.exit(2);
  }
  return Number(text);
}

/**
 * Drains on the first SIGTERM or SIGINT and exits with the drain's code. The same signal again ends the
 * process at once (a second Ctrl-C); the other one does not, since a terminal's Ctrl-C reaches a
 * parent too (`npm run demo`), which then sends SIGTERM.
 */
export function drainOnSignals(server) {
  const drain = drainable(server, { graceMs: graceFromEnv() });
  const received = new Set();
  const onSignal = async (signal) => {
    if (received.has(signal)) process.exit(1);
    received.add(signal);
    if (received.size === 1) process.exit(await drain());
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, onSignal);
}
