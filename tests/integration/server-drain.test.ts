// A rolling restart loses no request: the production server (`npm start`) under a steady stream of
// requests on keep-alive connections gets SIGTERM, answers everything it had been sent (the requests
// in flight with `Connection: close`), says 503 on readiness while it drains, writes what it had
// batched and exits 0; a request sent after the signal is refused at connect, never lost half-way.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { MCP_PATH, PROTOCOL_VERSION, toolCall } from './mcp-support';
import { RANGE, seededOrgs } from './platform-support';

const { main } = seededOrgs();

/** What became of one request: its status and Connection header, or the code of the error that ended it. */
interface Outcome {
  path: string;
  sentAfterSignal: boolean;
  status?: number;
  connection?: string;
  body?: string;
  error?: string;
}

/** One GET on `agent`'s one keep-alive connection. */
function get(agent: http.Agent, origin: string, path: string, key?: string): Promise<{ status: number; connection: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, origin), { agent, headers: key ? { authorization: `Bearer ${key}` } : {} }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection ?? '', body }));
    });
    request.on('error', reject);
  });
}

describe('SIGTERM under a steady stream of requests', () => {
  let server: TestServer;
  let signalled = false;

  /**
   * Requests `paths` in turn on one keep-alive connection until a request sent after the signal fails
   * (or `max` have gone), noting in `outcomes` what became of each.
   */
  async function loop(outcomes: Outcome[], paths: string[], options: { key?: string; max: number }): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < options.max; i++) {
        const path = paths[i % paths.length]!;
        const sentAfterSignal = signalled;
        try {
          outcomes.push({ path, sentAfterSignal, ...(await get(agent, server.origin, path, options.key)) });
        } catch (error) {
          outcomes.push({ path, sentAfterSignal, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
          if (sentAfterSignal) break;
        }
      }
    } finally {
      agent.destroy();
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ databaseUrl: inject('databaseUrl'), upstash: 'none' });
  }, 300_000);

  afterAll(async () => {
    await server.stop();
  });

  it('answers every request sent before it, refuses the later ones at connect, and exits 0', async () => {
    const range = `from=${RANGE.from}&to=${RANGE.to}`;
    const api = [`/api/v1/me`, `/api/v1/clients`, `/api/v1/ads/overview?${range}`, `/api/v1/social/overview?${range}`, `/api/v1/website/overview?${range}`];
    // A key per loop: each stays inside its rate limit (60 a minute).
    const keys = await Promise.all([1, 2, 3].map((n) => mintKey({ orgId: main.id, name: `drain test: loop ${n}` })));
    const mcpKey = await mintKey({ orgId: main.id, name: 'drain test: MCP' });
    const outcomes: Outcome[][] = [[], [], [], [], []];
    const loops = Promise.all([
      ...keys.map((key, i) => loop(outcomes[i]!, api, { key, max: 50 })),
      loop(outcomes[3]!, ['/api/health'], { max: 2_000 }),
      loop(outcomes[4]!, ['/api/health/ready'], { max: 2_000 }),
    ]);
    // Steady state: every loop has been answered on its connection a few times.
    while (outcomes.some((outcome) => outcome.length < 5)) await new Promise((resolve) => setTimeout(resolve, 20));
    // A connection of our own, opened before the signal, to ask for readiness during the drain.
    const probe = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await get(probe, server.origin, '/api/health');

    // A tool call in flight when the signal comes: its headers are in (the server said 100 Continue),
    // its body is sent only once the drain is under way.
    const body = JSON.stringify(toolCall(1, 'list_clients'));
    const slow = http.request(new URL(MCP_PATH, server.origin), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${mcpKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'content-length': String(Buffer.byteLength(body)),
        expect: '100-continue',
      },
    });
    const slowAnswer = new Promise<{ status: number; connection: string; text: string }>((resolve, reject) => {
      slow.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection ?? '', text }));
      });
      slow.on('error', reject);
    });
    await new Promise<void>((resolve) => slow.once('continue', resolve));

    await get(probe, server.origin, '/api/health');
    signalled = true;
    server.kill('SIGTERM');
    // Readiness during the drain, on our connection opened before it (and idle since, so no answer of
    // ours was under way when the drain began to close connections after their answers).
    while (!server.logs().includes('[server] draining:')) await new Promise((resolve) => setTimeout(resolve, 10));
    const drainingSeen = await get(probe, server.origin, '/api/health/ready');
    probe.destroy();
    slow.end(body);
    const answered = await slowAnswer;
    await loops;
    const exitCode = await server.exited;

    expect(drainingSeen.status).toBe(503);
    expect(drainingSeen.connection).toBe('close');
    expect(JSON.parse(drainingSeen.body)).toEqual({ status: 'draining' });
    for (const [index, outcome] of outcomes.entries()) {
      const before = outcome.filter((o) => !o.sentAfterSignal);
      const after = outcome.filter((o) => o.sentAfterSignal);
      expect(before.length, `loop ${index}`).toBeGreaterThanOrEqual(5);
      // Sent before the signal: every one answered, 200 (readiness: 200, or 503 once it drains).
      expect(before.filter((o) => o.status !== 200 && !(o.path === '/api/health/ready' && o.status === 503)), `loop ${index}`).toEqual([]);
      // Sent after it: answered the same way, until one is refused at connect (nothing fails half-way),
      // right after an answer that closed the connection.
      const last = after.at(-1)!;
      expect(last.error, `loop ${index}`).toBe('ECONNREFUSED');
      expect(after.slice(0, -1).filter((o) => o.status !== 200 && !(o.path === '/api/health/ready' && o.status === 503)), `loop ${index}`).toEqual([]);
      expect([...before, ...after.slice(0, -1)].at(-1)!.connection, `loop ${index}`).toBe('close');
    }

    expect(answered.status).toBe(200);
    expect(answered.connection).toBe('close');
    expect(answered.text).toContain('"result"');

    expect(exitCode).toBe(0);
    expect(server.logs()).toMatch(/\[server\] draining: \d+ requests in flight, \d+ connections open\./);
    expect(server.logs()).toMatch(/\[server\] drained in \d+ ms\./);
    expect(server.logs()).not.toContain('requests still running after');
    expect(server.logs()).not.toContain("the app's last work");

    // What the app batches was written before it exited: the tool call's record, the keys' last use.
    const records = await sql<{ outcome: string }>(
      `SELECT c.outcome FROM mcp_tool_calls c JOIN api_keys k ON k.id = c.api_key_id WHERE k.org_id = $1 AND k.name = 'drain test: MCP'`,
      [main.id],
    );
    expect(records).toEqual([{ outcome: 'ok' }]);
    const used = await sql<{ name: string }>(`SELECT name FROM api_keys WHERE org_id = $1 AND name LIKE 'drain test:%' AND last_used_at IS NOT NULL ORDER BY name`, [
      main.id,
    ]);
    expect(used.map((row) => row.name)).toEqual(['drain test: MCP', 'drain test: loop 1', 'drain test: loop 2', 'drain test: loop 3']);
  }, 120_000);
});
