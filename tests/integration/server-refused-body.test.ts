// A body refused before it was read to its end (over the size bound) on a kept-alive connection, on the
// production server (scripts/server.mjs). The rest of that body still sits on the connection, where the
// next request would be read from: the server must say `Connection: close` and close it, so the client
// sends its next request on a new connection. Before, it answered with `Connection: keep-alive`, and a
// second request on the connection was never processed: a 408 after 3 s.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_BODY_BYTES } from '@/lib/http/body';
import { startTestServer, type TestServer } from '../support/http-server';
import { rawExchange } from '../support/raw-request';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

function post(path: string, type: string, body: string): string {
  const host = new URL(server.origin).host;
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nOrigin: ${server.origin}\r\n\r\n${body}`;
}

function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\n\r\n`;
}

/** The status lines, and the first answer's head and body (a chunked body of one chunk). */
function answers(received: string): { statuses: number[]; head: string; body: string } {
  const end = received.indexOf('\r\n\r\n');
  const [head, rest] = [received.slice(0, end), received.slice(end + 4)];
  const body = Buffer.from(/^[0-9a-f]+\r\n([^]*?)\r\n0\r\n/.exec(rest)?.[1] ?? '', 'latin1').toString('utf8');
  return { statuses: [...received.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1])), head, body };
}

/** 200 kB: over every bound of these endpoints (64 KiB). */
const LARGE = 200 * 1024;
const OAUTH_REFUSAL = { error: 'invalid_request', error_description: 'the request body must be at most 64 KiB, sent without pause' };

const CASES: { path: string; type: string; body: string; answerType: string; answer: (origin: string) => unknown }[] = [
  { path: '/oauth/register', type: 'application/json', body: JSON.stringify({ client_name: 'x'.repeat(LARGE) }), answerType: 'application/json', answer: () => OAUTH_REFUSAL },
  { path: '/oauth/token', type: 'application/x-www-form-urlencoded', body: `grant_type=refresh_token&refresh_token=${'x'.repeat(LARGE)}`, answerType: 'application/json', answer: () => OAUTH_REFUSAL },
  { path: '/oauth/revoke', type: 'application/x-www-form-urlencoded', body: `token=${'x'.repeat(LARGE)}`, answerType: 'application/json', answer: () => OAUTH_REFUSAL },
  {
    path: '/api/mcp',
    type: 'application/json',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(LARGE) } }),
    answerType: 'application/problem+json',
    answer: (origin) => ({
      type: `${origin}/docs/errors#validation_failed`,
      title: 'Validation failed',
      status: 400,
      detail: 'The request body must be at most 64 KiB and arrive within the time limit.',
      code: 'validation_failed',
      errors: [{ path: 'body', message: 'must be at most 64 KiB, sent without pause' }],
    }),
  },
];

describe.each(CASES)('a body over the bound on $path, then a second request on the connection', ({ path, type, body, answerType, answer }) => {
  it('is refused with Connection: close, and the connection is closed at once instead of answering 408 later', async () => {
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY_BYTES);
    const { received, closedAfterMs, answeredAfterMs } = await rawExchange(server.origin, [post(path, type, body), get('/api/health')], 6_000);
    const refusal = answers(received);
    expect(refusal.statuses).toEqual([400]);
    expect(refusal.head).toMatch(/^connection: close$/im);
    expect(refusal.head).toMatch(new RegExp(`^content-type: ${answerType.replace('+', '\\+')}$`, 'im'));
    expect(JSON.parse(refusal.body)).toEqual(answer(server.origin));
    // Closed once the refusal is sent, not 3 s later with a 408; counted from the refusal, so that a slow
    // first answer (a route's first request on a busy machine) does not count.
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs! - answeredAfterMs!).toBeLessThan(2_500);
  });
});

describe('a request whose body was read to its end', () => {
  it('keeps the connection: the second request on it is answered', async () => {
    const { received } = await rawExchange(server.origin, [post('/oauth/revoke', 'application/x-www-form-urlencoded', 'token=abc'), get('/api/health')], 3_000);
    const { statuses, head } = answers(received);
    expect(statuses).toEqual([expect.any(Number), 200]);
    expect(head).toMatch(/^connection: keep-alive$/im);
  });
});
