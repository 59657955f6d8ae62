// The cluster's child processes, and the order they stop in. Each runs in a process group of its own
// (detached), so that Ctrl-C in the terminal reaches only the orchestrator, which then stops them one
// by one in the reverse order of their start (the balancer before the instances, the instances before
// their databases) instead of all of them at once. Their output goes to a log file each, which
// outlives them and never blocks them when the orchestrator is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { exitCounter, type RestartPolicy } from './restart';

export interface Service {
  name: string;
  /** The running process's id (a new one after a restart). */
  readonly pid: number;
  logFile: string;
  /** The exit code, or the signal's name; null while it runs. */
  exitStatus(): string | null;
  /** Sends the program's own "shut down cleanly" signal, and kills it if it is still there after its grace time. */
  stop(): Promise<void>;
  /**
   * Starts the program again, as it was started, once it has stopped: for tests of an outage and its
   * end (Redis stopped then back). Its log goes on in the same file.
   */
  restart(): void;
}

export interface ServiceOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Runs the process as this user (set when the orchestrator runs as root, see postgresOsUser). */
  user?: { uid: number; gid: number };
  stopSignal: NodeJS.Signals;
  graceMs: number;
  /**
   * Started again when it exits without being asked to (see ./restart.ts); without one, such an exit
   * is only reported.
   */
  restart?: RestartPolicy;
  /**
   * How it is brought back (default: started again as it was). Resolves once it is back; a failure
   * counts as one more exit. Exits of the process meanwhile are this function's to notice.
   */
  recover?: (service: Service) => Promise<void>;
}

/** What processes.json keeps of a started process, so that a later run can stop it if this one was killed. */
interface StartedProcess {
  name: string;
  pid: number;
  command: string;
  stopSignal: NodeJS.Signals;
  graceMs: number;
}

/** Whether a process with this id exists (signal 0 sends nothing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` is still the process that was started (and not another one that got its id since). */
function isSame(record: StartedProcess): boolean {
  try {
    // startsWith: some programs rewrite their title there (redis-server appends its address).
    return readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').startsWith(record.command);
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** A shutdown step that is not a process's own stop is given this long before the shutdown goes on. */
const STEP_TIMEOUT_MS = 10_000;
/** A process's stop step: its grace time, then this much for the SIGKILL to take effect. */
const KILL_TIMEOUT_MS = 5_000;

/** An error's message for a log line: its first line, without the end of a log that waitFor adds. */
export function reason(error: unknown): string {
  return (error as Error).message.split('\n')[0]!.replace(/\.? The end of \S+:$/, '');
}

/** The last lines of a log, for an error message. */
export function logTail(logFile: string, lines = 15): string {
  if (!existsSync(logFile)) return '';
  return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Starts processes and other pieces, and stops them again in the reverse order: every piece registers
 * how it stops as soon as it exists, so a start that fails halfway stops exactly what it had started.
 */
export class Supervisor {
  readonly logDir: string;
  readonly services: Service[] = [];
  private readonly steps: { name: string | (() => string); run: () => Promise<void>; timeoutMs: number; service?: Service }[] = [];
  private readonly recordsFile: string;
  private readonly records: StartedProcess[] = [];
  private stopping: Promise<void> | undefined;
  /** Restarts waiting for their time (see exitHandler): the shutdown cancels them. */
  private readonly pendingRestarts = new Set<NodeJS.Timeout>();
  /**
   * The last resort when the orchestrator exits without having stopped everything (an uncaught error,
   * or a second Ctrl-C that cuts the shutdown short): nothing is left running. Each process leads a
   * group of its own (detached): the group goes, PostgreSQL's server processes included.
   */
  private readonly killAll = () => {
    for (const service of this.services) {
      if (service.exitStatus() !== null || !isAlive(service.pid)) continue;
      try {
        process.kill(-service.pid, 'SIGKILL');
      } catch {
        process.kill(service.pid, 'SIGKILL');
      }
    }
  };

  constructor(
    readonly dir: string,
    readonly log: (line: string) => void,
  ) {
    this.logDir = path.join(dir, 'logs');
    this.recordsFile = path.join(dir, 'processes.json');
    process.on('exit', this.killAll);
  }

  /** Creates the folders, and stops what a previous run that was killed left running. */
  async prepare(): Promise<void> {
    await mkdir(this.logDir, { recursive: true });
    if (!existsSync(this.recordsFile)) return;
    const left = (JSON.parse(readFileSync(this.recordsFile, 'utf8')) as StartedProcess[]).filter((record) => isAlive(record.pid) && isSame(record));
    for (const record of left.reverse()) {
      this.log(`stopping ${record.name} (pid ${record.pid}), left running by an earlier run`);
      process.kill(record.pid, record.stopSignal);
      if (!(await waitForExit(record.pid, record.graceMs))) process.kill(record.pid, 'SIGKILL');
    }
    rmSync(this.recordsFile);
  }

  start(name: string, command: string, args: string[], options: ServiceOptions): Service {
    const logFile = path.join(this.logDir, `${name.replaceAll(' ', '-')}.log`);
    let child: ChildProcess;
    let status: string | null = null;
    let exited: Promise<void>;
    /** A stop asked for (by stop() or the shutdown): its exit is not reported as unexpected. */
    let stopAsked = false;
    let record: StartedProcess | undefined;
    const spawnChild = (logFlags: 'w' | 'a') => {
      // Once the shutdown has begun nothing new starts: it would be left out of it.
      if (this.stopping) throw new Error(`not starting ${name}: the cluster is stopping`);
      // Each run's logs from the start (the previous run's processes are stopped by then, see
      // prepare); a restart's appended to its first start's.
      const log = openSync(logFile, logFlags);
      const started = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', log, log], detached: true, ...options.user });
      closeSync(log);
      child = started;
      status = null;
      stopAsked = false;
      exited = new Promise<void>((resolve) => {
        started.once('exit', (code, signal) => {
          status = signal ?? String(code);
          if (!this.stopping && !stopAsked) afterExit.exited(status);
          resolve();
        });
        // A command that cannot be started (not found, not executable) fails here, with no exit event.
        started.once('error', (error) => {
          status = error.message;
          resolve();
        });
      });
      if (started.pid === undefined) return;
      if (record) record.pid = started.pid;
      else this.records.push((record = { name, pid: started.pid, command, stopSignal: options.stopSignal, graceMs: options.graceMs }));
      writeFileSync(this.recordsFile, JSON.stringify(this.records, null, 1));
    };
    spawnChild('w');
    const service: Service = {
      name,
      get pid() {
        return child.pid ?? -1;
      },
      logFile,
      exitStatus: () => status,
      async stop() {
        afterExit.cancel();
        if (status !== null) return;
        stopAsked = true;
        child.kill(options.stopSignal);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), options.graceMs)));
        if ((await Promise.race([exited, late])) === 'late') {
          child.kill('SIGKILL');
          await exited;
        }
        clearTimeout(timer);
      },
      restart() {
        if (status === null) throw new Error(`${name} is still running (pid ${service.pid})`);
        spawnChild('a');
      },
    };
    // Made once the service exists; the process cannot have exited before this synchronous code ends.
    const afterExit = this.exitHandler(service, options);
    this.services.push(service);
    this.steps.push({ name: () => `stopping ${name} (pid ${service.pid})`, run: () => service.stop(), timeoutMs: options.graceMs + KILL_TIMEOUT_MS, service });
    return service;
  }

  /**
   * What follows an exit the supervisor did not ask for: a report, and with a restart policy the
   * process brought back after the policy's wait, or left down once it has exited too often. An exit
   * 0 is a clean stop that someone else asked for (an instance's drain after a SIGTERM sent by hand),
   * not a crash, and is reported as such.
   */
  private exitHandler(service: Service, { restart: policy, recover = async (stopped: Service) => stopped.restart() }: ServiceOptions) {
    const exits = policy && exitCounter(policy);
    let timer: NodeJS.Timeout | undefined;
    /** Between an exit and the end of the recovery: further exits are the recovery's to notice. */
    let recovering = false;
    const schedule = (what: string) => {
      const delayMs = exits!.next();
      if (delayMs === null) {
        this.log(`${what}: ${exits!.recent} exits within ${policy!.windowMs / 1000} s, so it is not started again; see ${service.logFile}`);
        return;
      }
      this.log(`${what}; starting it again in ${delayMs / 1000} s`);
      recovering = true;
      timer = setTimeout(async () => {
        this.pendingRestarts.delete(timer!);
        timer = undefined;
        try {
          await recover(service);
          this.log(`${service.name} started again (pid ${service.pid})`);
          recovering = false;
        } catch (error) {
          recovering = false;
          if (!this.stopping) schedule(`${service.name} did not come back (${reason(error)})`);
        }
      }, delayMs);
      this.pendingRestarts.add(timer);
    };
    return {
      exited: (status: string) => {
        const what = status === '0' ? `${service.name} stopped cleanly (exit 0) without the cluster asking` : `${service.name} exited unexpectedly (${status})`;
        if (!exits) this.log(`${what}; see ${service.logFile}`);
        else if (!recovering) schedule(what);
      },
      /** A stop asked for while a restart waits for its time: the restart does not happen. */
      cancel: () => {
        if (!timer) return;
        clearTimeout(timer);
        this.pendingRestarts.delete(timer);
        timer = undefined;
        recovering = false;
        this.log(`${service.name} stopped by the cluster: not started again`);
      },
    };
  }

  /**
   * Registers a step of the shutdown; steps run in the reverse order of their registration. `name` is
   * logged when the step runs (a function: what it says then, e.g. a restarted process's new id).
   */
  onStop(name: string | (() => string), run: () => Promise<void>, timeoutMs = STEP_TIMEOUT_MS): void {
    this.steps.push({ name, run, timeoutMs });
  }

  /**
   * Makes `service`'s stop the first step of the shutdown, as if it had been started last: the
   * balancer, once instances have been started after it (a roll-out), so that it stops sending
   * requests before they stop.
   */
  stopFirst(service: Service): void {
    const index = this.steps.findIndex((step) => step.service === service);
    this.steps.push(...this.steps.splice(index, 1));
  }

  /**
   * Runs every shutdown step once, in order; a step that fails, or does not end within its time, is
   * reported and the others still run: a stop always ends.
   */
  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.pendingRestarts) clearTimeout(timer);
      for (let step = this.steps.pop(); step; step = this.steps.pop()) {
        const name = typeof step.name === 'string' ? step.name : step.name();
        this.log(name);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), step.timeoutMs)));
        try {
          if ((await Promise.race([step.run(), late])) === 'late') this.log(`${name}: not done after ${step.timeoutMs / 1000} s, going on`);
        } catch (error) {
          this.log(`${name} failed: ${(error as Error).message}`);
        } finally {
          clearTimeout(timer);
        }
      }
      rmSync(this.recordsFile, { force: true });
      process.off('exit', this.killAll);
    })();
    return this.stopping;
  }
}

/**
 * Waits until `probe` answers something other than undefined. Fails when `timeoutMs` passes, or at
 * once when `service` exits meanwhile, with the end of its log.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, options: { timeoutMs: number; service?: Service }): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const { service } = options;
  const logEnd = () => (service ? ` The end of ${service.logFile}:\n${logTail(service.logFile)}` : '');
  let lastError = '';
  for (;;) {
    if (service && service.exitStatus() !== null) throw new Error(`${service.name} exited (${service.exitStatus()}) before ${what}.${logEnd()}`);
    try {
      const answer = await probe();
      if (answer !== undefined) return answer;
    } catch (error) {
      lastError = (error as Error).message;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${options.timeoutMs / 1000} s waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}.${logEnd()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * TCP ports on the loopback address that nothing listens on at the moment, all different: each is held
 * until all are found.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * The path of a program from the operating system's packages, or an error saying how to install it.
 * /usr/sbin is searched too: haproxy and pgbouncer live there and a non-root PATH often lacks it.
 */
export function requireProgram(name: string, debianPackage: string, purpose: string): string {
  const folders = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  const found = folders.filter(Boolean).map((folder) => path.join(folder, name)).find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${name} (${purpose}) is not installed. On Debian or Ubuntu: sudo apt-get install -y ${debianPackage}`);
  return found;
}
