// Client ID Metadata Documents: a `client_id` that is an https URL is the address of the client's
// metadata. oidc-provider fetches it (redirects refused, only a 200 accepted, the body size capped,
// cached for the document's max-age between 30 s and a day, and its own check of the connected
// address). Before any fetch we resolve the host and refuse private, loopback, link-local and other
// special-use addresses, so a `client_id` can never make the server call into its own network.
//
// OAUTH_CIMD_ALLOW_LOOPBACK=1 is a test-only setting: it lets the end-to-end tests serve a document
// from a local https server. It never allows private or link-local networks.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { parseClientMetadata } from './request-rules';

export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
export const METADATA_DOCUMENT_MAX_BYTES = 20 * 1024;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

function loopbackAllowed(): boolean {
  return process.env.OAUTH_CIMD_ALLOW_LOOPBACK === '1';
}

/** Whether a resolved address may be fetched from. */
export function isFetchableAddress(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  // (BlockList itself treats IPv4 rules as covering their mapped forms, so mapped ranges are not listed.)
  if (family === 'ipv6' && /^::ffff:/i.test(address)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return mapped !== undefined && isFetchableAddress(mapped);
  }
  if (LOOPBACK.check(address, family)) return loopbackAllowed();
  return !NOT_PUBLIC.check(address, family);
}

/** features.clientIdMetadataDocument.allowFetch: https only, and every address of the host public. */
export async function allowMetadataDocumentFetch(clientId: string): Promise<boolean> {
  const url = URL.parse(clientId);
  if (!url || url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true });
    return addresses.length > 0 && addresses.every(({ address }) => isFetchableAddress(address));
  } catch {
    return false;
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The provider's outgoing fetch (used only for metadata documents): a 5 s limit, and the document
 * checked and normalised as a registration is (nesting bounded; names, strings and redirect URIs
 * checked; fields we do not support dropped, not fatal). Anything we refuse becomes a non-200
 * answer, which the provider reports as `invalid_client`.
 */
export async function fetchClientMetadata(url: URL | string | Request, options?: RequestInit): Promise<Response> {
  const init: RequestInit & { dispatcher?: unknown } = { ...options, signal: AbortSignal.timeout(METADATA_DOCUMENT_TIMEOUT_MS) };
  // The provider's guard destroys connections to loopback addresses; the test setting lifts it.
  if (loopbackAllowed()) delete init.dispatcher;
  const response = await fetch(url, init);
  if (response.status !== 200) return response;
  const body = await readCapped(response, METADATA_DOCUMENT_MAX_BYTES);
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
