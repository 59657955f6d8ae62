// Requests that fetch() cannot send: a GET with a body, a body written a piece at a time with a pause
// between pieces (a client trickling its body), or one from a chosen source address (any address of
// 127.0.0.0/8 is this machine's). Answers as a fetch Response for the assertions.
import http from 'node:http';

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
