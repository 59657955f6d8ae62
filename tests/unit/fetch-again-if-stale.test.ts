// The test client's one retry (tests/support/http-server.ts): a request that went out on a kept-alive
// connection the server had closed is sent again; nothing else is. The stand-in server answers the
// first request on a connection and closes the connection on the second without answering, which is
// what the client sees when it sends on a connection the server closed for being idle.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchAgainIfStale } from '../support/http-server';

let server: net.Server;
const sockets = new Set<net.Socket>();
let origin: string;
let requestsSeen = 0;
/** When set, every request is met by a closed connection, a new connection's first one too. */
let closeEveryRequest = false;

// A new server, on a new port, for each test: the client's pool of connections for it starts empty.
beforeEach(async () => {
  requestsSeen = 0;
  closeEveryRequest = false;
  server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let onThisConnection = 0;
    socket.on('data', (chunk) => {
      // Each request here fits in one chunk and has no body: one end of a head is one request.
      const requests = chunk.toString('latin1').split('\r\n\r\n').length - 1;
      for (let i = 0; i < requests; i += 1) {
        requestsSeen += 1;
        onThisConnection += 1;
        if (closeEveryRequest || onThisConnection > 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One request answered on a new connection, which the client then keeps for the next. */
async function warmConnection(): Promise<void> {
  const response = await fetch(new URL('/warm', origin));
  expect(await response.text()).toBe('ok');
  await sleep(50); // the connection goes back to the client's pool once the answer has ended
  requestsSeen = 0;
}

describe('fetchAgainIfStale', () => {
  it('sends a GET again when its kept-alive connection was closed before any answer', async () => {
    await warmConnection();
    const response = await fetchAgainIfStale(new URL('/b', origin));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(requestsSeen).toBe(2);
  });

  it('does not send a POST again', async () => {
    await warmConnection();
    const failure = await fetchAgainIfStale(new URL('/d', origin), { method: 'POST' }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error & { cause: { code: string } }).cause.code).toBe('UND_ERR_SOCKET');
    expect(requestsSeen).toBe(1);
  });

  it('fails when the second try is closed as well (a server that closes on the request itself)', async () => {
    await warmConnection();
    closeEveryRequest = true;
    const failure = await fetchAgainIfStale(new URL('/e', origin)).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(requestsSeen).toBe(2);
  });
});
