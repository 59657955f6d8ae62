// Client ID Metadata Documents: a `client_id` that is an https URL is the address of the client's
// metadata. oidc-provider fetches it (only a 200 accepted, the body size capped, cached for the
// document's max-age between 30 s and a day). The fetch is ours (fetchClientMetadata), so that a
// `client_id` can never make the server call into its own network:
// - only global unicast addresses are fetched from (isFetchableAddress), judged on the addresses the
//   connection is actually made to: the host is resolved once, checked, and connected to as checked,
//   so a name that resolves differently the second time (DNS rebinding) gains nothing;
// - redirects are never followed (a 3xx is refused like any answer but 200), so no redirect can lead
//   to a private address;
// - allowFetch refuses early what can be known before the fetch: not https, or a host that is, or
//   resolves to, an address that is not global unicast.
//
// OAUTH_CIMD_ALLOW_LOOPBACK=1 is a test-only setting: it lets the end-to-end tests serve a document
// from a local https server. It allows loopback addresses and nothing else.
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { errors } from 'oidc-provider';
import { Agent, fetch as undiciFetch } from 'undici';
import { parseClientMetadata } from './request-rules';

export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
export const METADATA_DOCUMENT_MAX_BYTES = 20 * 1024;

/** 2000::/3, the IPv6 global unicast space (RFC 4291 §2.4). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/**
 * The notation ::a.b.c.d of an IPv4-compatible address (::/96), which glibc prints such addresses in.
 * ipaddr.js reads exactly this notation as IPv4-mapped (::ffff:a.b.c.d), so it is refused before.
 */
const IPV4_COMPATIBLE_NOTATION = /^::\d+\.\d+\.\d+\.\d+$/;

function loopbackAllowed(): boolean {
  return process.env.OAUTH_CIMD_ALLOW_LOOPBACK === '1';
}

/**
 * Whether an address may be fetched from: global unicast only, by ipaddr.js's classification of the
 * special-purpose registries (private, loopback, link-local, CGNAT, multicast, reserved, documentation,
 * benchmarking, unique-local, site-local...). An IPv4-mapped address (::ffff:a.b.c.d, the form in which a
 * dual-stack socket reports an IPv4 peer) is judged as the IPv4 address it is. Every other address that
 * wraps an IPv4 one (IPv4-compatible ::/96, 6to4, Teredo, NAT64) is refused outright: it reaches
 * whatever address it wraps, and no client's metadata is served from one. IPv6 must also be in
 * 2000::/3, as ipaddr.js calls `unicast` whatever its lists do not name (::7f00:1, unassigned space
 * such as 4000::/3).
 */
export function isFetchableAddress(address: string): boolean {
  if (!isIP(address) || IPV4_COMPATIBLE_NOTATION.test(address)) return false;
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'loopback') return loopbackAllowed();
  if (range !== 'unicast') return false;
  return ip.kind() === 'ipv4' || ip.match(GLOBAL_UNICAST_V6);
}

/**
 * Why a metadata document could not be had, as the user reads it on the error page (both are
 * `invalid_client`): its host could not be resolved or reached (no such name, DNS failure, connection
 * refused or reset, timeout), or we refuse to fetch from it (plain http, or an address that is not
 * global unicast). The provider's own words, "fetch not allowed" or "fetch failed", say neither.
 */
export const METADATA_HOST_UNREACHABLE = 'the client metadata document’s host could not be resolved or reached';
export const METADATA_HOST_REFUSED = 'the client metadata document’s host is refused: only https on a public address is fetched';

/** A host we refuse to fetch from. */
class RefusedHost extends Error {}

/** Error codes of a name that does not resolve, or of a connection that cannot be made or times out. */
const UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/**
 * The description for an error met while resolving a client's metadata document, found anywhere in
 * its chain of causes (the provider wraps our fetch's errors), or null when it is neither kind.
 */
export function metadataDocumentProblem(error: unknown): string | null {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    if (cause instanceof RefusedHost) return METADATA_HOST_REFUSED;
    const code = (cause as NodeJS.ErrnoException).code;
    if ((code && UNREACHABLE_CODES.has(code)) || cause.name === 'TimeoutError') return METADATA_HOST_UNREACHABLE;
  }
  return null;
}

/** Every address of a host (an IP address is its own); throws RefusedHost when any of them may not be fetched from. */
async function fetchableAddresses(host: string): Promise<{ address: string; family: number }[]> {
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0 || !addresses.every(({ address }) => isFetchableAddress(address))) {
    throw new RefusedHost(`${host} is not a public address or resolves to one that is not`);
  }
  return addresses;
}

/**
 * features.clientIdMetadataDocument.allowFetch: https only, and every address of the host public.
 * A refusal is `invalid_client` with the description that says why (see metadataDocumentProblem).
 */
export async function allowMetadataDocumentFetch(clientId: string): Promise<boolean> {
  const url = URL.parse(clientId);
  if (!url || url.protocol !== 'https:') throw new errors.InvalidClient(METADATA_HOST_REFUSED);
  try {
    await fetchableAddresses(url.hostname.replace(/^\[|\]$/g, ''));
    return true;
  } catch (error) {
    throw new errors.InvalidClient(metadataDocumentProblem(error) ?? METADATA_HOST_UNREACHABLE);
  }
}

/** The connection's own name resolution: what it connects to is what was checked. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  fetchableAddresses(hostname).then(
    (addresses) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, ''),
  );
};

/**
 * A connection pool of its own, replacing the provider's (which checks the connected address against a
 * shorter list and refuses loopback even under the test setting). An IP address in the URL is not
 * resolved by the connection: allowFetch has checked it, and it cannot change.
 */
const documentAgent = new Agent({ connect: { lookup: checkedLookup } });

async function readCapped(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The provider's outgoing fetch (used only for metadata documents): the checked connection above, no
 * redirects, a 5 s limit, and the document checked and normalised as a registration is (nesting
 * bounded; names, strings and redirect URIs checked; fields we do not support dropped, not fatal).
 * Anything we refuse becomes a non-200 answer, which the provider reports as `invalid_client`.
 */
export async function fetchClientMetadata(url: URL | string | Request, options?: RequestInit): Promise<Response> {
  const response = await undiciFetch(url instanceof Request ? url.url : url, {
    method: 'GET',
    headers: Object.fromEntries(new Headers(options?.headers)),
    redirect: 'manual',
    dispatcher: documentAgent,
    signal: AbortSignal.timeout(METADATA_DOCUMENT_TIMEOUT_MS),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return new Response(null, { status: response.status });
  }
  const body = await readCapped(response.body, METADATA_DOCUMENT_MAX_BYTES);
  if (body === null) return new Response(null, { status: 413 });
  const result = parseClientMetadata(new TextDecoder().decode(body));
  if ('error' in result) return new Response(null, { status: 422 });
  // Only what the provider reads: the caching headers (its cache follows max-age or Expires).
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const name of ['cache-control', 'expires']) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(JSON.stringify(result.metadata), { status: 200, headers });
}
