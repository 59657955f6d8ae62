// Prometheus from the operating system's packages (Debian's `prometheus`), scraping every instance's
// metrics listener (METRICS_PORT, lib/telemetry/server.ts) with the instance's INSTANCE_ID as its
// `instance` label. Run as a child of the orchestrator with a configuration and a store of its own,
// not as the system's service; the store starts empty on every run. The instances are listed in a
// file Prometheus watches (file-based service discovery), rewritten when a roll-out replaces them.
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor, type Service, type Supervisor } from './processes';

export interface ScrapeTarget {
  id: string;
  metricsPort: number;
}

/** Every few seconds: a demo's graphs move while one watches, at a cost of a millisecond an instance. */
export const SCRAPE_INTERVAL_SECONDS = 2;

export function prometheusConfig(targetsFile: string): string {
  return `# Written by the cluster script (scripts/cluster/prometheus.ts).
global:
  scrape_interval: ${SCRAPE_INTERVAL_SECONDS}s
  evaluation_interval: ${SCRAPE_INTERVAL_SECONDS}s

scrape_configs:
  - job_name: metrics-api
    file_sd_configs:
      - files: ['${targetsFile}']
`;
}

export interface PrometheusServer {
  service: Service;
  url: string;
  /** Scrapes `targets` from now on (the instances after a roll-out). */
  scrape(targets: ScrapeTarget[]): Promise<void>;
}

export async function startPrometheus(supervisor: Supervisor, program: string, port: number, targets: ScrapeTarget[]): Promise<PrometheusServer> {
  const config = path.join(supervisor.dir, 'prometheus.yml');
  const targetsFile = path.join(supervisor.dir, 'prometheus-targets.json');
  const store = path.join(supervisor.dir, 'prometheus');
  // Written whole and renamed into place: Prometheus never reads half a file.
  const scrape = async (current: ScrapeTarget[]) => {
    const groups = current.map((target) => ({ targets: [`127.0.0.1:${target.metricsPort}`], labels: { instance: target.id } }));
    await writeFile(`${targetsFile}.new`, `${JSON.stringify(groups, null, 2)}\n`);
    await rename(`${targetsFile}.new`, targetsFile);
  };
  await scrape(targets);
  await writeFile(config, prometheusConfig(targetsFile));
  await rm(store, { recursive: true, force: true });
  const url = `http://127.0.0.1:${port}`;
  const service = supervisor.start('prometheus', program, [`--config.file=${config}`, `--storage.tsdb.path=${store}`, `--web.listen-address=127.0.0.1:${port}`], {
    stopSignal: 'SIGTERM',
    graceMs: 10_000,
  });
  await waitFor('Prometheus to be ready', async () => ((await fetch(`${url}/-/ready`)).ok ? true : undefined), { timeoutMs: 30_000, service });
  supervisor.log(`Prometheus on ${url} (pid ${service.pid}), scraping ${targets.length} instance${targets.length === 1 ? '' : 's'} every ${SCRAPE_INTERVAL_SECONDS} s; configuration in ${config}`);
  return { service, url, scrape };
}

/** The samples of an instant query (Prometheus's HTTP API, /api/v1/query). */
export async function queryPrometheus(url: string, promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
  const body = (await response.json()) as { status: string; error?: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`Prometheus refused ${promql}: ${body.error}`);
  return body.data!.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
}
