// The Origin check every state-changing form runs before anything else. Next.js checks server actions
// the same way but lets a request without an Origin header through; browsers always send Origin on a
// form POST, so here a missing Origin is refused too.

/**
 * The host the request was addressed to: X-Forwarded-Host only behind a proxy that sets it
 * (TRUST_PROXY=1, as for the client address in lib/http/client-address.ts), else Host. Without such a
 * proxy the header is whatever the caller chose.
 */
function requestHost(headers: Headers, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return forwarded || headers.get('host');
}

export function isSameOriginRequest(headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): boolean {
  const origin = headers.get('origin');
  const host = requestHost(headers, trustProxy);
  if (!origin || origin === 'null' || !host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
