// Liveness: touches nothing (no database, no limiter, no auth). The benchmark's baseline.
export const dynamic = 'force-dynamic';

export function GET() {
  // no-transform: too small to compress, like every answer under 1 KiB (see COMPRESSED_FROM_BYTES).
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store, no-transform' } });
}
