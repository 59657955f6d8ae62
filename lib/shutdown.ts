// What the production server (scripts/server.mjs, plain JavaScript outside Next.js's bundles) and the
// app share within one process, through globalThis: whether the server is draining (readiness then
// answers 503 so that the load balancer sends no more), and the app's last work once the requests in
// flight are answered (writing what it batches, closing its pools). The names are the contract with
// server.mjs's drain.
const link = globalThis as unknown as { metricsDraining?: boolean; metricsShutdown?: () => Promise<void> };

export function isDraining(): boolean {
  return link.metricsDraining === true;
}

/** Sets the work the server runs last, after the requests in flight (instrumentation.ts registers it). */
export function onShutdown(task: () => Promise<void>): void {
  link.metricsShutdown = task;
}
