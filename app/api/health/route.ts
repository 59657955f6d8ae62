// Liveness: touches nothing (no database, no limiter, no auth). The benchmark's baseline.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
