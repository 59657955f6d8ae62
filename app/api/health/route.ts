// Liveness: touches nothing (no database, no limiter, no auth). The benchmark's baseline.
// `instance` names the process that answered (INSTANCE_ID, else host:pid), so that a request through a
// load balancer shows which instance served it. An identifier, not a secret.
import { hostname } from 'node:os';

export const dynamic = 'force-dynamic';

const INSTANCE = process.env.INSTANCE_ID || `${hostname()}:${process.pid}`;

export function GET() {
  // no-transform: too small to compress, like every answer under 1 KiB (see COMPRESSED_FROM_BYTES).
  return Response.json({ status: 'ok', instance: INSTANCE }, { headers: { 'Cache-Control': 'no-store, no-transform' } });
}
