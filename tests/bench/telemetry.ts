// npm run bench:telemetry [-- --no-build] [-- --requests 8000] [-- --rounds 4] [-- --protocol http/protobuf|http/json] [-- --both-off]
// What telemetry costs a request (docs/performance/round-16-telemetry.md): two production servers on the
// same build and database, one with telemetry on (OTEL_EXPORTER_OTLP_ENDPOINT set, every request
// traced and its spans exported over OTLP/HTTP (protobuf, the SDK's default, or JSON) to a sink in this process; METRICS_PORT set and
// scraped every 2 s, as the cluster's Prometheus does) and one with both unset, loaded in alternating
// rounds with the same requests (autocannon at c=8, as the bench does), so that the machine's
// background load weighs on both alike. Both write their JSON log line per request (the logs cannot be
// turned off). Cases: /api/v1/me (the smallest answer, where a fixed cost per request shows most) and
// a year's ads overview by day with the response cache off (the heaviest path: every request runs its
// statements, each a span). --both-off runs the same with telemetry off on both servers: the spread
// of the bench itself, against which a difference can be judged. Beside throughput and latency it prints
// each server's CPU time per request, which another process's load on the machine changes far less.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { closeDb } from '@/lib/db';
import { mintKeyPool } from './keys';
import { runAlternating, runLoad } from './load';
import { onOffLine, prepareComparison } from './on-off';
import { startServer } from './server';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    requests: { type: 'string', default: '8000' },
    rounds: { type: 'string', default: '4' },
    protocol: { type: 'string', default: 'http/protobuf' },
    'both-off': { type: 'boolean', default: false },
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = 8;
const DATABASE = 'metrics_bench_telemetry';
const PORTS = { on: 3194, off: 3193, metrics: 3192 } as const;
const SCRAPE_EVERY_MS = 2_000;

const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** Where the traced server sends its spans: it reads each export whole and answers as a collector does, counting bytes. */
async function otlpSink(): Promise<{ endpoint: string; bytes: () => number; close: () => void }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: () => bytes, close: () => server.close() };
}

async function main(): Promise<void> {
  const { url, orgId } = await prepareComparison(DATABASE, !values['no-build'], log);
  const cases = [
    { name: 'GET /api/v1/me', path: '/api/v1/me' },
    { name: 'GET /api/v1/ads/overview, 366 days by day (response cache off)', path: '/api/v1/ads/overview?from=2025-06-30&to=2026-06-30&granularity=day' },
  ];
  const keys = await mintKeyPool(orgId, 2 * (cases.length * REQUESTS + 2 * 200) + 1_000, log);
  const sink = await otlpSink();
  const telemetry = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: values.protocol, METRICS_PORT: String(PORTS.metrics) };
  const servers = {
    on: await startServer(url, PORTS.on, 'cold', log, values['both-off'] ? {} : telemetry),
    off: await startServer(url, PORTS.off, 'cold', log),
  };
  const scrape = () => void fetch(`http://127.0.0.1:${PORTS.metrics}/metrics`).then((response) => response.arrayBuffer());
  const scraper = values['both-off'] ? undefined : setInterval(scrape, SCRAPE_EVERY_MS);
  try {
    for (const server of Object.values(servers)) {
      for (const benchCase of cases) await runLoad({ baseUrl: server.url, path: benchCase.path, connections: CONNECTIONS, amount: 200, keys });
    }
    const lines: string[] = [];
    for (const benchCase of cases) {
      const load = (server: { url: string }) => ({ baseUrl: server.url, path: benchCase.path, connections: CONNECTIONS, amount: REQUESTS, keys });
      log(`${benchCase.name}: ${REQUESTS} requests each, c=${CONNECTIONS}, ${ROUNDS} alternating rounds`);
      const cpuBefore = { on: servers.on.cpuSeconds(), off: servers.off.cpuSeconds() };
      const [on, off] = await runAlternating(load(servers.on), load(servers.off), ROUNDS);
      const cpuMsPerRequest = (server: 'on' | 'off') => ((servers[server].cpuSeconds() - cpuBefore[server]) * 1000) / REQUESTS;
      const cpu = { on: cpuMsPerRequest('on'), off: cpuMsPerRequest('off') };
      lines.push(
        `${onOffLine(benchCase.name, 'telemetry', on, off)}\n  CPU per request: on ${cpu.on.toFixed(3)} ms, off ${cpu.off.toFixed(3)} ms (${((cpu.on / cpu.off - 1) * 100).toFixed(1)} %)`,
      );
      log(lines.at(-1)!);
    }
    const memory = (server: (typeof servers)['on']) => `${server.memory().peakTreeRssMb.toFixed(0)} MB`;
    console.log(`\n${lines.join('\n')}\nspans exported: ${(sink.bytes() / 2 ** 20).toFixed(1)} MB (${values.protocol})\npeak RSS: telemetry on ${memory(servers.on)}, off ${memory(servers.off)}`);
  } finally {
    clearInterval(scraper);
    sink.close();
    await servers.on.stop();
    await servers.off.stop();
    await closeDb();
  }
}

await main();
