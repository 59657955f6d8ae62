// The cluster's own Redis (the machine's redis-server on a free port; the one on 6379 is left alone):
// the rate limiter's and the sign-in throttle's counts, shared by every instance through the
// Upstash REST endpoint. Nothing is persisted: counts are worth a minute at most.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from 'redis';
import { freePort, waitFor, type Service, type Supervisor } from './processes';
import type { RestartPolicy } from './restart';

export interface RedisServer {
  service: Service;
  url: string;
}

export async function startRedis(supervisor: Supervisor, program: string, restart?: RestartPolicy): Promise<RedisServer> {
  const dataDir = path.join(supervisor.dir, 'redis');
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const service = supervisor.start(
    'redis',
    program,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dataDir, '--daemonize', 'no'],
    { stopSignal: 'SIGTERM', graceMs: 10_000, restart },
  );
  const redis = { service, url: `redis://127.0.0.1:${port}` };
  await answering(redis);
  supervisor.log(`Redis listening on 127.0.0.1:${port} (pid ${service.pid})`);
  return redis;
}

/** Waits until the server answers PING (or fails when it exits first). */
async function answering({ service, url }: RedisServer): Promise<void> {
  await waitFor(
    'Redis to answer PING',
    async () => {
      const client = createClient({ url, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      try {
        return (await client.ping()) === 'PONG' ? true : undefined;
      } finally {
        client.destroy();
      }
    },
    { timeoutMs: 30_000, service },
  );
}

/** Starts a stopped Redis again on its port, empty (nothing is persisted), and waits until it answers. */
export async function restartRedis(redis: RedisServer): Promise<void> {
  redis.service.restart();
  await answering(redis);
}
