// The Origin check every state-changing form runs before anything else. Next.js checks server actions
// the same way but lets a request without an Origin header through; browsers always send Origin on a
// form POST, so here a missing Origin is refused too.

/** The host the request was addressed to, as Next.js derives it (X-Forwarded-Host, else Host). */
function requestHost(headers: Headers): string | null {
  const forwarded = headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  return forwarded || headers.get('host');
}

export function isSameOriginRequest(headers: Headers): boolean {
  const origin = headers.get('origin');
  const host = requestHost(headers);
  if (!origin || origin === 'null' || !host) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Cookies are Secure everywhere except on a loopback host, where a developer runs plain http. */
export function isLoopbackHost(headers: Headers): boolean {
  const host = requestHost(headers);
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return LOOPBACK_HOSTS.has(name.toLowerCase());
}
