// The client's address, where it can be trusted. Behind a proxy that sets X-Forwarded-For
// (TRUST_PROXY=1) the header's first entry is the client. Without one, the header may be the
// caller's own choice (Next.js keeps a caller's header and only fills it in when absent), so an
// address taken from it could be changed at will to dodge any per-address limit: none is returned.
export function trustedClientAddress(headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): string | null {
  if (!trustProxy) return null;
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || null;
}
