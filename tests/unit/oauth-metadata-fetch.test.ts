// Where a client's metadata document may be fetched from: global unicast addresses only, wrapped IPv4
// addresses refused outright, checked on the addresses the connection is made to, and no redirect followed.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allowMetadataDocumentFetch,
  fetchClientMetadata,
  isFetchableAddress,
  METADATA_HOST_REFUSED,
  METADATA_HOST_UNREACHABLE,
  metadataDocumentProblem,
} from '@/lib/oauth/client-metadata';

afterEach(() => {
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK;
});

describe('isFetchableAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback 127/8'],
    ['127.255.255.254', 'loopback 127/8'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.5.4', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local 169.254/16 (cloud metadata)'],
    ['100.64.0.1', 'shared address space 100.64/10'],
    ['0.0.0.0', '"this network" 0/8'],
    ['0.1.2.3', '"this network" 0/8'],
    ['224.0.0.1', 'multicast 224/4'],
    ['239.255.255.250', 'multicast 224/4'],
    ['240.0.0.1', 'reserved 240/4'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['::1', 'IPv6 loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456::1', 'unique local fc00::/7'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf::1', 'link-local fe80::/10'],
    ['fec0::1', 'site-local fec0::/10'],
    ['feff::1', 'site-local fec0::/10'],
    ['ff02::1', 'multicast ff00::/8'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::127.0.0.1', 'IPv4-compatible ::/96 wrapping loopback'],
    ['::a9fe:a9fe', 'IPv4-compatible ::/96 wrapping 169.254.169.254'],
    ['::8.8.8.8', 'IPv4-compatible ::/96, even wrapping a public address'],
    ['2002:7f00:1::', '6to4 2002::/16 wrapping 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 2002::/16 wrapping 169.254.169.254'],
    ['2002:808:808::1', '6to4 2002::/16, even wrapping a public address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo 2001::/32'],
    ['2001::1', 'Teredo 2001::/32'],
    ['64:ff9b::7f00:1', 'NAT64 64:ff9b::/96 wrapping 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 64:ff9b::/96 wrapping 169.254.169.254'],
    ['64:ff9b::808:808', 'NAT64 64:ff9b::/96, even wrapping a public address'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48'],
    ['100::1', 'discard-only 100::/64'],
    ['4000::1', 'outside global unicast 2000::/3'],
    ['localhost', 'not an address'],
    ['0x7f.1', 'not an address in standard notation'],
    ['', 'empty'],
  ])('refuses %s (%s)', (address) => {
    expect(isFetchableAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:2800:220:1:248:1893:25c8:1946', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(isFetchableAddress(address)).toBe(true);
    },
  );

  it('the test-only setting allows loopback and nothing else, wrapped loopback included', () => {
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK = '1';
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(isFetchableAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '169.254.169.254', '::127.0.0.1', '2002:7f00:1::', '64:ff9b::7f00:1', 'fe80::1']) {
      expect(isFetchableAddress(address), address).toBe(false);
    }
  });
});

/** The `error_description` of what a promise rejects with (an oidc-provider error). */
async function refusal(promise: Promise<unknown>): Promise<{ error: string; description: string }> {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as { error?: string; error_description?: string } | null;
  return { error: error?.error ?? 'none', description: error?.error_description ?? '' };
}

describe('allowMetadataDocumentFetch', () => {
  it('refuses anything but https, and a host that is or resolves to an address that is not public, saying so', async () => {
    for (const url of [
      'http://93.184.216.34/client.json',
      'https://localhost/client.json',
      'https://10.0.0.1/client.json',
      'https://[::1]/client.json',
      'https://[::127.0.0.1]/client.json',
      'https://[2002:a9fe:a9fe::]/client.json',
      'https://[64:ff9b::7f00:1]/client.json',
      'https://[fec0::1]/client.json',
      'not a url',
    ]) {
      expect(await refusal(allowMetadataDocumentFetch(url)), url).toEqual({ error: 'invalid_client', description: METADATA_HOST_REFUSED });
    }
  });

  it('says a host that cannot be resolved could not be resolved or reached, not that it is refused', async () => {
    expect(await refusal(allowMetadataDocumentFetch('https://client.invalid/client.json'))).toEqual({ error: 'invalid_client', description: METADATA_HOST_UNREACHABLE });
  });

  it('allows https to a public address', async () => {
    expect(await allowMetadataDocumentFetch('https://93.184.216.34/client.json')).toBe(true);
    expect(await allowMetadataDocumentFetch('https://[2606:2800:220:1:248:1893:25c8:1946]/client.json')).toBe(true);
  });
});

/** A loopback server that counts the connections made to it. */
async function listen(server: net.Server): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('fetchClientMetadata', () => {
  it('checks the addresses it connects to: a name that resolves to loopback is never connected to', async () => {
    const target = await listen(net.createServer((socket) => socket.destroy()));
    try {
      await expect(fetchClientMetadata(`https://localhost:${target.port}/client.json`)).rejects.toThrow();
      expect(target.connections()).toBe(0);
      // The same fetch under the test-only setting does connect (and fails on this server, which speaks no TLS).
      process.env.OAUTH_CIMD_ALLOW_LOOPBACK = '1';
      await expect(fetchClientMetadata(`https://localhost:${target.port}/client.json`)).rejects.toThrow();
      expect(target.connections()).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  });

  it('tells a host it could not reach (connection refused, no such name) from one it refuses, through the errors it throws', async () => {
    const problemOf = (url: string) => fetchClientMetadata(url).then(() => 'fetched', metadataDocumentProblem);
    expect(await problemOf('https://localhost/client.json')).toBe(METADATA_HOST_REFUSED);
    expect(await problemOf('https://client.invalid/client.json')).toBe(METADATA_HOST_UNREACHABLE);
    // A port on which nothing listens, on an address the test-only setting allows: connection refused.
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK = '1';
    const closed = await listen(net.createServer());
    await closed.close();
    expect(await problemOf(`https://127.0.0.1:${closed.port}/client.json`)).toBe(METADATA_HOST_UNREACHABLE);
    expect(metadataDocumentProblem(new Error('anything else'))).toBeNull();
  });

  it('follows no redirect, even when asked to: the 3xx is the answer, and the provider refuses it', async () => {
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK = '1';
    const target = await listen(http.createServer((_request, response) => response.end('{}')));
    const redirecting = await listen(
      http.createServer((_request, response) => {
        response.writeHead(302, { location: `http://localhost:${target.port}/client.json` }).end();
      }),
    );
    try {
      const response = await fetchClientMetadata(`http://localhost:${redirecting.port}/client.json`, { redirect: 'follow' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBeNull();
      expect(target.connections()).toBe(0);
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });
});
