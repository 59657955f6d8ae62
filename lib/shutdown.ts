// What the production server (scripts/server.mjs, plain JavaScript outside Next.js's bundles) and the
// app share within one process, in the process-wide slot `shutdown` (lib/process-wide.ts): whether the
// server is draining (readiness then answers 503 so that the load balancer sends no more), and the
// app's last work once the requests in flight are answered (writing what it batches, closing its
// pools). The slot's key, Symbol.for('metrics-api.shutdown'), and its fields `draining` and `shutdown`
// are the contract with server.mjs's drain (scripts/drain.mjs).
import { processWide } from './process-wide';

const link = processWide('shutdown', (): { draining?: boolean; shutdown?: () => Promise<void> } => ({}));

export function isDraining(): boolean {
  return link().draining === true;
}

/** Sets the work the server runs last, after the requests in flight (instrumentation.ts registers it). */
export function onShutdown(task: () => Promise<void>): void {
  link().shutdown = task;
}
