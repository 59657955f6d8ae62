// The client address: the socket's, handed over by the production server through the shared store;
// behind a trusted proxy the X-Forwarded-For entry the proxy appended; and the network per-address
// limits count by. (That the server really hands the socket's address to routes and actions is proved
// through the production server: tests/integration/production-server.test.ts.)
import { describe, expect, it } from 'vitest';
import { addressNetwork, trustedClientAddress } from '@/lib/http/client-address';
import { rateLimitIdentity } from '@/lib/ratelimit/identity';
import { requestStorage } from '@/lib/telemetry/request';

/** As scripts/server.mjs runs a request: inside the store, with the socket's address. */
const fromSocket = <T>(address: string | undefined, run: () => T): T => requestStorage().run({ address }, run);

// A caller's own entries first, then the one the proxy appended.
const forwarded = new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' });

describe('trustedClientAddress', () => {
  it("is the socket's address, whatever X-Forwarded-For says, without a trusted proxy", () => {
    expect(fromSocket('192.0.2.10', () => trustedClientAddress(forwarded, false))).toBe('192.0.2.10');
    expect(fromSocket('192.0.2.10', () => trustedClientAddress(new Headers({ 'x-forwarded-for': '127.0.0.1' }), false))).toBe('192.0.2.10');
  });

  it('behind a trusted proxy is the last X-Forwarded-For entry (the one the proxy appended), else the socket', () => {
    expect(fromSocket('10.0.0.2', () => trustedClientAddress(forwarded, true))).toBe('203.0.113.7');
    // A proxy that adds a header of its own instead of appending: the last line counts.
    const twoLines = new Headers([
      ['x-forwarded-for', '198.51.100.1'],
      ['x-forwarded-for', '203.0.113.7'],
    ]);
    expect(fromSocket('10.0.0.2', () => trustedClientAddress(twoLines, true))).toBe('203.0.113.7');
    expect(fromSocket('10.0.0.2', () => trustedClientAddress(new Headers(), true))).toBe('10.0.0.2');
  });

  it('writes each address one way: IPv4-mapped IPv6 as IPv4, IPv6 compressed in lower case', () => {
    expect(fromSocket('::ffff:127.0.0.2', () => trustedClientAddress(new Headers(), false))).toBe('127.0.0.2');
    expect(fromSocket('2001:DB8:0:0:0:0:0:1', () => trustedClientAddress(new Headers(), false))).toBe('2001:db8::1');
    expect(fromSocket('10.0.0.2', () => trustedClientAddress(new Headers({ 'x-forwarded-for': 'evil, 2001:0db8::0001' }), true))).toBe('2001:db8::1');
  });

  it('is unknown only where no server of ours set the socket address (next dev)', () => {
    expect(trustedClientAddress(forwarded, false)).toBeNull();
    expect(fromSocket(undefined, () => trustedClientAddress(forwarded, false))).toBeNull();
  });
});

describe('addressNetwork', () => {
  it('is an IPv4 address itself, and the /64 of an IPv6 address', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8::/64');
  });
});

describe('rateLimitIdentity', () => {
  it('counts requests without a valid key per socket address (an IPv6 client by its /64), never by a header the caller wrote', () => {
    expect(fromSocket('192.0.2.10', () => rateLimitIdentity(null, forwarded, false))).toBe('addr:192.0.2.10');
    expect(fromSocket('192.0.2.11', () => rateLimitIdentity(null, forwarded, false))).toBe('addr:192.0.2.11');
    expect(fromSocket('2001:db8:1:2::7', () => rateLimitIdentity(null, forwarded, false))).toBe('addr:2001:db8:1:2::/64');
    expect(fromSocket('10.0.0.2', () => rateLimitIdentity(null, forwarded, true))).toBe('addr:203.0.113.7');
  });

  it('puts requests whose address is unknown (next dev) in one window', () => {
    expect(rateLimitIdentity(null, forwarded, false)).toBe('addr:anonymous');
  });
});
