// Requests that fetch() cannot send: a GET with a body, a body written a piece at a time with a pause
// between pieces (a client trickling its body), or one from a chosen source address (any address of
// 127.0.0.0/8 is this machine's). Answers as a fetch Response for the assertions. rawExchange writes
// whole requests as text on one connection, for what an HTTP client never sends (several requests
// written at once, a request line in absolute form).
import http from 'node:http';
import net from 'node:net';

export interface RawRequestOptions {
  method: string;
  headers: Record<string, string>;
  /** Written in order; with `pauseMs`, one every `pauseMs` milliseconds. */
  pieces: string[];
  pauseMs?: number;
  /** The source address of the connection (e.g. 127.0.0.2), as a second client on this machine. */
  localAddress?: string;
}

export function rawRequest(url: string, { method, headers, pieces, pauseMs = 0, localAddress }: RawRequestOptions): Promise<Response> {
  const length = pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece), 0);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, localAddress, headers: { ...headers, 'content-length': String(length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of Array.isArray(value) ? value : [value ?? '']) answered.append(name, one);
        }
        resolve(new Response(Buffer.concat(chunks), { status: response.statusCode, headers: answered }));
      });
    });
    request.on('error', reject);
    void (async () => {
      for (const [index, piece] of pieces.entries()) {
        if (index > 0 && pauseMs > 0) await new Promise((wait) => setTimeout(wait, pauseMs));
        if (request.destroyed) return;
        request.write(piece);
      }
      request.end();
    })();
  });
}

export interface RawExchange {
  /** Everything the server sent, as text. */
  received: string;
  /** Milliseconds from the first byte written until the server closed the connection (null: still open at the end). */
  closedAfterMs: number | null;
  /** Milliseconds from the first byte written until the first byte of an answer arrived (null: none did). */
  answeredAfterMs: number | null;
}

/**
 * Writes `requests` (whole HTTP/1.1 requests as text, any request line) one after the other on one
 * connection to `origin`, and reads until the server closes it or `waitMs` pass.
 */
export function rawExchange(origin: string, requests: string[], waitMs: number): Promise<RawExchange> {
  const { port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const startedAt = Date.now();
    let received = '';
    let closedAfterMs: number | null = null;
    let answeredAfterMs: number | null = null;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedAfterMs, answeredAfterMs });
    }, waitMs);
    socket.on('data', (chunk) => {
      answeredAfterMs ??= Date.now() - startedAt;
      received += chunk.toString('latin1');
    });
    // A write after the server closed fails (EPIPE, ECONNRESET): what was received still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAfterMs = Date.now() - startedAt;
      clearTimeout(timer);
      resolve({ received, closedAfterMs, answeredAfterMs });
    });
    socket.on('connect', () => {
      for (const request of requests) socket.write(request);
    });
  });
}
