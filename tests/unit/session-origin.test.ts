import { describe, expect, it } from 'vitest';
import { isSameOriginRequest, requestHost } from '@/lib/session/origin';

const headers = (values: Record<string, string>) => new Headers(values);

describe('isSameOriginRequest', () => {
  it('accepts an Origin whose host equals the Host header', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'app.example.com' }), false)).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'http://localhost:3105', host: 'localhost:3105' }), false)).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'https://APP.example.com', host: 'app.EXAMPLE.com' }), false)).toBe(true);
  });

  it('behind a trusted proxy (TRUST_PROXY=1) compares with X-Forwarded-Host, its first entry', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'internal:3000', 'x-forwarded-host': 'app.example.com' }), true)).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'internal:3000', 'x-forwarded-host': 'app.example.com, internal:3000' }), true)).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'http://internal:3000', host: 'internal:3000', 'x-forwarded-host': 'app.example.com' }), true)).toBe(false);
  });

  it('without a trusted proxy ignores X-Forwarded-Host: a caller chooses it', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://evil.example', host: 'app.example.com', 'x-forwarded-host': 'evil.example' }), false)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'app.example.com', 'x-forwarded-host': 'evil.example' }), false)).toBe(true);
  });

  it('reads TRUST_PROXY from the environment by default', () => {
    const forged = headers({ origin: 'https://evil.example', host: 'app.example.com', 'x-forwarded-host': 'evil.example' });
    const saved = process.env.TRUST_PROXY;
    try {
      delete process.env.TRUST_PROXY;
      expect(isSameOriginRequest(forged)).toBe(false);
      process.env.TRUST_PROXY = '1';
      expect(isSameOriginRequest(forged)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
  });

  it('refuses another host, another port, a null or missing Origin', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://evil.example', host: 'app.example.com' }), false)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'http://localhost:3199', host: 'localhost:3105' }), false)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'null', host: 'app.example.com' }), false)).toBe(false);
    expect(isSameOriginRequest(headers({ host: 'app.example.com' }), false)).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'not a url', host: 'app.example.com' }), false)).toBe(false);
  });
});

describe('requestHost', () => {
  it('is the host the Origin is compared with, in lower case: X-Forwarded-Host only behind a trusted proxy', () => {
    const forwarded = headers({ host: 'Internal:3000', 'x-forwarded-host': 'APP.example.com, internal:3000' });
    expect(requestHost(forwarded, true)).toBe('app.example.com');
    expect(requestHost(forwarded, false)).toBe('internal:3000');
    expect(requestHost(headers({}), false)).toBeNull();
  });
});
