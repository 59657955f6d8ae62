// The app instances (`npm start` each): started with the next INSTANCE_ID (i1, i2, …), each brought back
// with its own INSTANCE_ID, port and build when it crashes (the supervisor's restart policy), and
// replaced one at a time by instances of a new build in a roll-out.
import path from 'node:path';
import { removeBuild, type Build } from './builds';
import type { Balancer } from './haproxy';
import { freePort, reason, waitFor, type Service, type Supervisor } from './processes';
import type { RestartPolicy } from './restart';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_SCRIPT = path.join(ROOT, 'scripts/server.mjs');
const INSTANCE_START_TIMEOUT_MS = 120_000;

export interface RunningInstance {
  id: string;
  port: number;
  /** Its metrics listener (METRICS_PORT), which Prometheus scrapes. */
  metricsPort: number;
  service: Service;
  build: Build;
}

export class Instances {
  /** The instances serving now, in the order of their start. */
  readonly running: RunningInstance[] = [];
  private started = 0;
  private rollingOut: Promise<void> | undefined;

  /** `env`: what every instance gets (the shared settings); each adds its id and its build. */
  constructor(
    private readonly supervisor: Supervisor,
    private readonly env: NodeJS.ProcessEnv,
    private readonly restart: RestartPolicy,
  ) {}

  /**
   * Starts an instance of `build` on `port`; resolves once its readiness answers `ready`. One that
   * does not get there is stopped (not started again) and the start fails.
   */
  async start(build: Build, port: number): Promise<RunningInstance> {
    const id = `i${++this.started}`;
    const metricsPort = await freePort();
    const service = this.supervisor.start(`instance ${id}`, process.execPath, [SERVER_SCRIPT, '-p', String(port), '-H', '127.0.0.1'], {
      cwd: ROOT,
      env: { ...this.env, INSTANCE_ID: id, METRICS_PORT: String(metricsPort), NEXT_DIST_DIR: build.distDir, ...(build.deploymentId ? { NEXT_DEPLOYMENT_ID: build.deploymentId } : {}) },
      // The server lets requests in flight finish for up to 10 s after SIGTERM (SHUTDOWN_GRACE_MS).
      stopSignal: 'SIGTERM',
      graceMs: 15_000,
      restart: this.restart,
    });
    const instance = { id, port, metricsPort, service, build };
    this.running.push(instance);
    try {
      await waitFor(
        `instance ${id} to be ready`,
        async () => {
          const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
          return response.status === 200 && ((await response.json()) as { status: string }).status === 'ready' ? true : undefined;
        },
        { timeoutMs: INSTANCE_START_TIMEOUT_MS, service },
      );
    } catch (error) {
      await service.stop();
      this.running.splice(this.running.indexOf(instance), 1);
      throw error;
    }
    this.supervisor.log(`instance ${id} ready on 127.0.0.1:${port} (pid ${service.pid}, build ${build.id})`);
    return instance;
  }

  /**
   * Replaces every instance, one at a time, by one of `build`: the new one is started and put into
   * the balancer once ready, then the old one is taken out of it (no new request reaches it) and sent
   * SIGTERM, and drains. The cluster never has fewer instances in rotation than before. One roll-out
   * at a time; a new instance that does not become ready stops the roll-out there, the instances not
   * yet replaced still serving.
   */
  rollOut(build: Build, balancer: Balancer): Promise<void> {
    if (this.rollingOut) throw new Error('a roll-out is under way');
    this.rollingOut = this.replaceAll(build, balancer).finally(() => (this.rollingOut = undefined));
    return this.rollingOut;
  }

  private async replaceAll(build: Build, balancer: Balancer): Promise<void> {
    const { supervisor } = this;
    const old = [...this.running];
    for (const previous of old) {
      let next: RunningInstance;
      try {
        next = await this.start(build, await freePort());
      } catch (error) {
        throw new Error(`stopped before instance ${previous.id} was replaced (those not replaced keep serving): ${reason(error)}`);
      }
      supervisor.stopFirst(balancer.service);
      await balancer.add({ id: next.id, port: next.port });
      await balancer.takeOut(previous.id);
      await previous.service.stop();
      this.running.splice(this.running.indexOf(previous), 1);
      await balancer.remove(previous.id);
      supervisor.log(`instance ${previous.id} (build ${previous.build.id}) replaced by ${next.id} (build ${build.id})`);
    }
    for (const replaced of new Set(old.map((instance) => instance.build))) {
      if (replaced.id !== build.id) await removeBuild(replaced);
    }
  }
}
