// A TCP relay in front of the real PostgreSQL that counts the statements its clients send: every
// simple-protocol Query ('Q') and extended-protocol Execute ('E') message. A server started with its
// DATABASE_URL pointing here is observed from the outside, on the wire, with no hook in the app.
// It understands what node-postgres sends without TLS: one untyped startup message, then typed ones.
// It can also freeze, as a stopped (SIGSTOP) PostgreSQL does: connections stay open, new ones are
// accepted, and nothing is answered until it thaws.
import net from 'node:net';

export interface PgRelay {
  /** The relay's address, with the path and credentials of `databaseUrl`. */
  url: string;
  statements(): number;
  /** Passes no byte either way, on open connections and on those opened meanwhile, until `thaw`. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

const QUERY = 0x51;
const EXECUTE = 0x45;

export async function startPgRelay(databaseUrl: string): Promise<PgRelay> {
  const target = new URL(databaseUrl);
  let statements = 0;
  let frozen = false;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      // A paused socket emits no data, so nothing it receives is passed on.
      if (frozen) socket.pause();
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => {});
    }
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      // Each message: [type byte] int32 length (counting itself) and its payload; the startup message has no type byte.
      for (;;) {
        const lengthAt = started ? 1 : 0;
        if (pending.length < lengthAt + 4) break;
        const size = lengthAt + pending.readInt32BE(lengthAt);
        if (pending.length < size) break;
        if (started && (pending[0] === QUERY || pending[0] === EXECUTE)) statements++;
        pending = pending.subarray(size);
        started = true;
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    url: url.toString(),
    statements: () => statements,
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
