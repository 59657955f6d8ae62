import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isSameOriginRequest } from '@/lib/session/origin';

const headers = (values: Record<string, string>) => new Headers(values);

describe('isSameOriginRequest', () => {
  it('accepts an Origin whose host equals the Host header', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'app.example.com' }))).toBe(true);
    expect(isSameOriginRequest(headers({ origin: 'http://localhost:3105', host: 'localhost:3105' }))).toBe(true);
  });

  it('prefers X-Forwarded-Host, as Next.js does behind a proxy', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://app.example.com', host: 'internal:3000', 'x-forwarded-host': 'app.example.com' }))).toBe(true);
  });

  it('refuses another host, another port, a null or missing Origin', () => {
    expect(isSameOriginRequest(headers({ origin: 'https://evil.example', host: 'app.example.com' }))).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'http://localhost:3199', host: 'localhost:3105' }))).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'null', host: 'app.example.com' }))).toBe(false);
    expect(isSameOriginRequest(headers({ host: 'app.example.com' }))).toBe(false);
    expect(isSameOriginRequest(headers({ origin: 'not a url', host: 'app.example.com' }))).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it('is true only for loopback names', () => {
    expect(isLoopbackHost(headers({ host: 'localhost:3105' }))).toBe(true);
    expect(isLoopbackHost(headers({ host: '127.0.0.1:3000' }))).toBe(true);
    expect(isLoopbackHost(headers({ host: '[::1]:3000' }))).toBe(true);
    expect(isLoopbackHost(headers({ host: 'app.example.com' }))).toBe(false);
    expect(isLoopbackHost(headers({ host: 'localhost.example.com' }))).toBe(false);
    expect(isLoopbackHost(headers({ host: 'internal:3000', 'x-forwarded-host': 'app.example.com' }))).toBe(false);
  });
});
