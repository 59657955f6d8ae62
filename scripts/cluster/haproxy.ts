// The balancer: HAProxy from the operating system's packages, round robin over the instances with no
// stickiness (any instance can answer any request: sessions, OAuth state and rate limits live in
// PostgreSQL and Redis), taking an instance out of rotation while its readiness check fails.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Service, Supervisor } from './processes';

export interface Backend {
  id: string;
  port: number;
}

/**
 * The instances run with TRUST_PROXY=1 and take the first X-Forwarded-For entry as the client, so the
 * balancer drops whatever X-Forwarded-For and X-Forwarded-Host a caller sent before adding its own:
 * otherwise a caller could choose the address its requests are rate-limited under.
 */
export function haproxyConfig(port: number, backends: Backend[]): string {
  return `# Written by the cluster script (scripts/cluster/haproxy.ts). The log goes to its standard output.
global
    log stdout format raw local0
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
    # Out of rotation after 3 failed checks in a row, back after 2 good ones (HAProxy's defaults).
    default-server check inter 2s
${backends.map((backend) => `    server ${backend.id} 127.0.0.1:${backend.port}`).join('\n')}
`;
}

export async function startHaproxy(supervisor: Supervisor, program: string, port: number, backends: Backend[]): Promise<Service> {
  const config = path.join(supervisor.dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig(port, backends));
  // -db: stay in the foreground, as a child of this process. SIGUSR1: a graceful stop, which lets the
  // requests in flight finish (hard-stop-after bounds it).
  const service = supervisor.start('haproxy', program, ['-db', '-f', config], { stopSignal: 'SIGUSR1', graceMs: 15_000 });
  supervisor.log(`HAProxy balancing on 127.0.0.1:${port} (pid ${service.pid}), configuration in ${config}`);
  return service;
}
