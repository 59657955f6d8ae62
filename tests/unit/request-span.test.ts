// A request's span as the production server names it (lib/telemetry/server.ts requestSpan), after
// OpenTelemetry's HTTP server conventions.
import { describe, expect, it } from 'vitest';
import { requestSpan, type ArrivingRequest } from '@/lib/telemetry/server';

const arriving = (fields: Partial<ArrivingRequest>): ArrivingRequest => ({
  method: 'GET',
  route: '/api/v1/me',
  headers: { host: 'api.example.com' },
  peerAddress: '10.0.0.7',
  encrypted: false,
  ...fields,
});

describe('requestSpan', () => {
  it('is named by the method and the route template, with the request\'s attributes', () => {
    const span = requestSpan(arriving({ route: '/settings/api-keys/[id]', headers: { host: 'localhost:3000', 'user-agent': 'curl/8.5.0' } }));
    expect(span).toEqual({
      name: 'GET /settings/api-keys/[id]',
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/settings/api-keys/[id]',
        'url.scheme': 'http',
        'server.address': 'localhost',
        'server.port': 3000,
        'network.peer.address': '10.0.0.7',
        'user_agent.original': 'curl/8.5.0',
      },
    });
  });

  it('is named by the method alone when no route serves the path', () => {
    const span = requestSpan(arriving({ route: '(unmatched)' }));
    expect(span.name).toBe('GET');
    expect(span.attributes).not.toHaveProperty('http.route');
  });

  it('reads an IPv6 host and a TLS connection', () => {
    const { attributes } = requestSpan(arriving({ headers: { host: '[::1]:8443' }, encrypted: true }));
    expect(attributes).toMatchObject({ 'url.scheme': 'https', 'server.address': '::1', 'server.port': 8443 });
  });

  it('leaves out what the request did not say', () => {
    const { attributes } = requestSpan(arriving({ headers: {}, peerAddress: undefined }));
    expect(Object.keys(attributes).sort()).toEqual(['http.request.method', 'http.route', 'url.scheme']);
  });

  it('names a method the conventions do not know _OTHER, keeping the method sent', () => {
    const span = requestSpan(arriving({ method: 'PROPFIND' }));
    expect(span.name).toBe('HTTP /api/v1/me');
    expect(span.attributes).toMatchObject({ 'http.request.method': '_OTHER', 'http.request.method_original': 'PROPFIND' });
  });
});
