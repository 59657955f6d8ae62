// An Upstash-compatible REST endpoint in front of a real Redis: a small HTTP server that speaks
// Upstash's REST protocol (single commands on POST /, POST /pipeline, POST /multi-exec, Bearer token,
// `Upstash-Encoding: base64`) and runs every command on Redis. @upstash/redis and @upstash/ratelimit
// run unchanged against it with UPSTASH_REDIS_REST_URL/TOKEN. No local Upstash emulator exists as a
// package (Upstash's own is a container image), so this plays its part: for the cluster script
// (`npm run demo:cluster`), whose instances share one Redis through it, and for the tests, which read
// the limiter's state in Redis directly.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';

type Reply = string | number | null | Reply[];
type Outcome = { result: Reply } | { error: string };

function connectRedis(url: string) {
  // Fail fast when Redis is down, like the real service answering an error.
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', () => {});
  return client;
}

type Redis = ReturnType<typeof connectRedis>;

export interface UpstashRest {
  url: string;
  token: string;
  /** A direct connection to the same Redis, for tests to inspect. */
  redis: Redis;
  close(): Promise<void>;
}

/** Upstash sends bulk strings base64-encoded when asked; "OK" stays as it is (the client expects that). */
function encode(reply: Reply): Reply {
  if (typeof reply === 'string') return reply === 'OK' ? reply : Buffer.from(reply).toString('base64');
  if (Array.isArray(reply)) return reply.map(encode);
  return reply;
}

function toReply(value: unknown): Reply {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString();
  if (Array.isArray(value)) return value.map(toReply);
  if (typeof value === 'bigint') return Number(value);
  // node-redis turns map replies (HGETALL…) into objects; on the wire they are flat arrays.
  if (value instanceof Map) return [...value].flatMap(([k, v]) => [toReply(k), toReply(v)]);
  if (typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, toReply(v)]);
  return String(value);
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * Upstash accepts the script flag `allow-key-locking` (used by @upstash/ratelimit), which this
 * machine's Redis 7.0 refuses. This endpoint drops that flag and remembers, for EVALSHA, which script
 * hash the client knows (the original's) and which one Redis knows (the stripped one's).
 */
function withoutUpstashFlags(script: string): string {
  return script.replace(/^(#!lua[^\n]*?)\s*flags=allow-key-locking/, '$1');
}

function isCommand(value: unknown): value is (string | number)[] {
  return Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string' || typeof part === 'number');
}

/** Runs Upstash's commands on Redis, one at a time or as a transaction, with the scripts' flags translated. */
function commandRunner(redis: Redis) {
  const redisShaOf = new Map<string, string>();

  function translate(command: string[]): string[] {
    const name = command[0]!.toUpperCase();
    if ((name === 'EVAL' || name === 'EVAL_RO') && command[1]) {
      const stripped = withoutUpstashFlags(command[1]);
      redisShaOf.set(sha1(command[1]), sha1(stripped));
      return [name, stripped, ...command.slice(2)];
    }
    if (name === 'SCRIPT' && command[1]?.toUpperCase() === 'LOAD' && command[2]) {
      const stripped = withoutUpstashFlags(command[2]);
      redisShaOf.set(sha1(command[2]), sha1(stripped));
      return [name, command[1], stripped];
    }
    if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && command[1]) {
      return [name, redisShaOf.get(command[1].toLowerCase()) ?? command[1], ...command.slice(2)];
    }
    return command;
  }

  async function run(command: (string | number)[]): Promise<Outcome> {
    try {
      const args = translate(command.map(String));
      const reply = toReply(await redis.sendCommand(args));
      // SCRIPT LOAD answers the hash the client computed itself.
      if (args[0]!.toUpperCase() === 'SCRIPT' && args[1]?.toUpperCase() === 'LOAD') return { result: sha1(String(command[2])) };
      return { result: reply };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  async function runTransaction(commands: (string | number)[][]): Promise<Outcome[]> {
    const multi = redis.multi();
    for (const command of commands) multi.addCommand(translate(command.map(String)));
    try {
      const replies = await multi.exec();
      return replies.map((reply) => ({ result: toReply(reply) }));
    } catch (error) {
      // A command that failed inside EXEC is reported in its own slot, as Upstash does.
      const failed = error as { replies?: unknown[]; errorIndexes?: number[]; message: string };
      if (!failed.replies) throw error;
      return failed.replies.map((reply, index) =>
        failed.errorIndexes?.includes(index) ? { error: (reply as Error).message } : { result: toReply(reply) },
      );
    }
  }

  return { run, runTransaction };
}

type Runner = ReturnType<typeof commandRunner>;

/** The status and JSON body of a parsed request to `path`: one command on `/`, several on /pipeline or /multi-exec. */
async function answer(runner: Runner, path: string, body: unknown, base64: boolean): Promise<[number, unknown]> {
  const shape = (outcome: Outcome): Outcome => ('result' in outcome && base64 ? { result: encode(outcome.result) } : outcome);
  if (path === '') {
    if (!isCommand(body)) return [400, { error: 'ERR a command must be a non-empty JSON array' }];
    const outcome = await runner.run(body);
    return 'error' in outcome ? [400, outcome] : [200, shape(outcome)];
  }
  if (path === '/pipeline' || path === '/multi-exec') {
    if (!Array.isArray(body) || !body.every(isCommand)) return [400, { error: 'ERR a pipeline must be an array of commands' }];
    const outcomes = path === '/pipeline' ? await Promise.all(body.map(runner.run)) : await runner.runTransaction(body);
    return [200, outcomes.map(shape)];
  }
  return [404, { error: `ERR unknown endpoint ${path}` }];
}

/** The status and JSON body for a request whose body has arrived: its method, its token, its JSON, then the endpoint. */
async function respond(request: http.IncomingMessage, raw: Buffer, token: string, runner: Runner): Promise<[number, unknown]> {
  if (request.method !== 'POST') return [405, { error: 'Only POST is supported' }];
  if (request.headers.authorization !== `Bearer ${token}`) return [401, { error: 'Unauthorized' }];
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return [400, { error: 'ERR failed to parse command' }];
  }
  const path = (request.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
  try {
    return await answer(runner, path, body, request.headers['upstash-encoding'] === 'base64');
  } catch (error) {
    return [500, { error: (error as Error).message }];
  }
}

export async function startUpstashRest(options: { redisUrl?: string; token?: string } = {}): Promise<UpstashRest> {
  const token = options.token ?? randomBytes(16).toString('hex');
  const redis = connectRedis(options.redisUrl ?? 'redis://127.0.0.1:6379');
  await redis.connect();
  const runner = commandRunner(redis);

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void respond(request, Buffer.concat(chunks), token, runner).then(([status, body]) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    redis,
    async close() {
      // Its clients (the instances) are gone by now: their kept-alive connections are closed at once
      // rather than waited for.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // Not QUIT: with Redis down it waits for a reconnection that may never come (Ctrl-C hung here).
      // Nothing is pending that would be worth waiting for.
      redis.destroy();
    },
  };
}
