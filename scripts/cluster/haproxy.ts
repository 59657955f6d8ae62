// The balancer: HAProxy from the operating system's packages, round robin over the instances with no
// stickiness (any instance can answer any request: sessions, OAuth state and rate limits live in
// PostgreSQL and Redis), taking an instance out of rotation while its readiness check fails. Its
// runtime API (a Unix socket) adds and removes instances while it runs, for a roll-out.
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { RestartPolicy } from './restart';
import { reason, waitFor, type Service, type Supervisor } from './processes';

export interface Backend {
  id: string;
  port: number;
}

/**
 * The instances run with TRUST_PROXY=1 and take the first X-Forwarded-For entry as the client, so the
 * balancer drops whatever X-Forwarded-For and X-Forwarded-Host a caller sent before adding its own:
 * otherwise a caller could choose the address its requests are rate-limited under.
 */
export function haproxyConfig(port: number, backends: Backend[], socket: string): string {
  return `# Written by the cluster script (scripts/cluster/haproxy.ts), again whenever the instances change,
# so that HAProxy started again after a crash balances over the instances of the moment. The log goes
# to its standard output.
global
    log stdout format raw local0
    # The runtime API: the cluster adds and removes instances through it during a roll-out.
    stats socket ${socket} mode 600 level admin
    # On a graceful stop (SIGUSR1), requests in flight get this long to finish.
    hard-stop-after 10s

defaults
    mode http
    log global
    option httplog
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    # The readiness route bounds its own checks at 2 s: the balancer waits for its verdict.
    timeout check 5s
    # A request whose instance refuses the connection (it is draining, or gone) is sent to another
    # one. So is a request sent on a kept-alive connection that the instance closed at that moment (a
    # draining instance closes its idle connections): without empty-response HAProxy would close the
    # caller's connection unanswered, for the caller to retry, which a browser does and fetch() does not.
    retries 3
    option redispatch
    retry-on conn-failure empty-response

frontend balancer
    bind 127.0.0.1:${port}
    http-request del-header X-Forwarded-For
    http-request set-header X-Forwarded-Host %[req.hdr(host)]
    option forwardfor
    default_backend instances

backend instances
    balance roundrobin
    # Which instance answered (its INSTANCE_ID, as /api/health names it): for the tests and for
    # anyone following a request through the cluster.
    http-response set-header X-Cluster-Instance %s
    option httpchk GET /api/health/ready
    http-check expect status 200
${backends.map((backend) => `    server ${backend.id} 127.0.0.1:${backend.port} ${SERVER_SETTINGS}`).join('\n')}
`;
}

/**
 * Each instance's settings, on its line and when added at run time (a server added through the
 * runtime API takes nothing from a default-server line): out of rotation after 3 failed checks in a
 * row, back after 2 good ones (HAProxy's defaults), one every 2 s.
 */
const SERVER_SETTINGS = 'check inter 2s';

/** One command on HAProxy's runtime API; resolves with its answer (HAProxy closes the connection after it). */
function runtimeCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(socket, () => connection.end(`${command}\n`));
    let answer = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => (answer += chunk));
    connection.once('error', reject);
    connection.once('close', () => resolve(answer.trim()));
    connection.setTimeout(5_000, () => connection.destroy(new Error(`HAProxy did not answer "${command}" within 5 s`)));
  });
}

export interface Balancer {
  service: Service;
  /** Puts an instance into rotation (its health checks decide from then on) and into the configuration. */
  add(backend: Backend): Promise<void>;
  /** Takes an instance out of rotation at once: no new request goes to it; those under way finish. */
  takeOut(id: string): Promise<void>;
  /** Forgets an instance taken out (once it has stopped), in the running HAProxy and in the configuration. */
  remove(id: string): Promise<void>;
}

export async function startHaproxy(supervisor: Supervisor, program: string, port: number, backends: Backend[], restart: RestartPolicy): Promise<Balancer> {
  const config = path.join(supervisor.dir, 'haproxy.cfg');
  const socket = path.join(supervisor.dir, 'haproxy.sock');
  const current = [...backends];
  const writeConfig = () => writeFile(config, haproxyConfig(port, current, socket));
  await writeConfig();
  // -db: stay in the foreground, as a child of this process. SIGUSR1: a graceful stop, which lets the
  // requests in flight finish (hard-stop-after bounds it).
  const service = supervisor.start('haproxy', program, ['-db', '-f', config], { stopSignal: 'SIGUSR1', graceMs: 15_000, restart });
  supervisor.log(`HAProxy balancing on 127.0.0.1:${port} (pid ${service.pid}), configuration in ${config}`);
  /** A command that must succeed: HAProxy answers nothing, or one of these lines, when it does. */
  const run = async (command: string) => {
    const answer = await runtimeCommand(socket, command);
    if (answer && !/^(New server registered|Server deleted)\.?$/.test(answer)) throw new Error(`HAProxy refused "${command}": ${answer}`);
  };
  return {
    service,
    async add(backend) {
      await run(`add server instances/${backend.id} 127.0.0.1:${backend.port} ${SERVER_SETTINGS}`);
      await run(`enable health instances/${backend.id}`);
      await run(`enable server instances/${backend.id}`);
      // Columns: be_id be_name srv_id srv_name srv_addr srv_op_state (2: running) …
      await waitFor(
        `HAProxy to put instance ${backend.id} into rotation`,
        async () => {
          const state = await runtimeCommand(socket, 'show servers state instances');
          const row = state.split('\n').map((line) => line.split(' ')).find((fields) => fields[3] === backend.id);
          return row?.[5] === '2' ? true : undefined;
        },
        { timeoutMs: 30_000, service },
      );
      current.push(backend);
      await writeConfig();
    },
    takeOut: (id) => run(`set server instances/${id} state maint`),
    async remove(id) {
      current.splice(current.findIndex((backend) => backend.id === id), 1);
      await writeConfig();
      try {
        // Refused while HAProxy still holds a connection to it, which it closes once it sees the instance gone.
        await waitFor(`HAProxy to let go of instance ${id}`, () => run(`del server instances/${id}`).then(() => true), { timeoutMs: 10_000 });
      } catch (error) {
        // Harmless: it stays in maintenance, receiving nothing, until HAProxy next starts.
        supervisor.log(`instance ${id} stays listed in HAProxy, in maintenance: ${reason(error)}`);
      }
    },
  };
}
