// The Origin check every state-changing form runs before anything else. Next.js checks server actions
// the same way but lets a request without an Origin header through; browsers always send Origin on a
// form POST, so here a missing Origin is refused too.

const trustProxyDefault = () => process.env.TRUST_PROXY === '1';

/**
 * The host the request was addressed to, in lower case: X-Forwarded-Host only behind a proxy that
 * sets it (TRUST_PROXY=1, as for the client address in lib/http/client-address.ts), else Host.
 * Without such a proxy the header is whatever the caller chose.
 */
export function requestHost(headers: Headers, trustProxy = trustProxyDefault()): string | null {
  const forwarded = trustProxy ? headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return (forwarded || headers.get('host'))?.toLowerCase() ?? null;
}

export function isSameOriginRequest(headers: Headers, trustProxy = trustProxyDefault()): boolean {
  const origin = headers.get('origin');
  const host = requestHost(headers, trustProxy);
  if (!origin || origin === 'null' || !host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host;
  } catch {
    return false;
  }
}
