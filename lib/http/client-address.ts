// The client's address, taken only from where a caller cannot choose it.
//
// The production server (scripts/server.mjs) runs each request inside a store that holds its socket's
// remote address (the request's record, lib/telemetry/request.ts). A header could carry the address
// too, but a caller could send that header itself.
//
// Behind a proxy (TRUST_PROXY=1) the socket is the proxy's, so the address is the last entry of
// X-Forwarded-For: the one the proxy itself appended. The entries before it are whatever the caller
// sent and the proxy passed on, so the first one is the caller's choice.
//
// Unknown (null) only where no server of ours runs the request: under `next dev` or `next start`.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { requestStorage } from '../telemetry/request';

/** One spelling per address: an IPv4-mapped IPv6 address (a dual-stack socket's) as IPv4, IPv6 compressed. */
function canonical(address: string): string {
  return isIP(address) ? ipaddr.process(address).toString() : address;
}

/** The entry the proxy in front appended (see above), if any. */
function proxyAppendedEntry(headers: Headers): string | null {
  return headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || null;
}

/**
 * The address of the client: behind a trusted proxy the entry it appended to X-Forwarded-For (the
 * socket's when the header is missing), else the socket's. Null where the socket is unknown.
 */
export function trustedClientAddress(headers: Headers, trustProxy = process.env.TRUST_PROXY === '1'): string | null {
  const address = (trustProxy ? proxyAppendedEntry(headers) : null) ?? requestStorage().getStore()?.address ?? null;
  return address === null ? null : canonical(address);
}

/**
 * What per-address limits count by: an IPv4 address, or the /64 network of an IPv6 one. One
 * subscriber is usually given a whole /64, so counting its addresses one by one would let a single
 * client change address at will.
 */
export function addressNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  const { parts } = ipaddr.IPv6.parse(address);
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
