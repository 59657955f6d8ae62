// The request log's page as an admin opens it, with a filter or cursor made by no page (the address is
// anyone's to write): an endpoint holding U+0000 and `before` cursors past bigint or outside the dates
// PostgreSQL holds are each answered with the first page, never a 500.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { mintKey } from '../support/api';
import { startTestServer, type TestServer } from '../support/http-server';
import { sessionOf } from '../support/oauth-flow';
import { newOrganisationAdmin } from './platform-support';

let server: TestServer;
let cookie: string;
let requestId: string;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  const admin = await newOrganisationAdmin('log-pages');
  cookie = `metrics_session=${await sessionOf(admin.userId)}`;
  const key = await mintKey({ orgId: admin.orgId, name: 'log pages key' });
  requestId = (await server.request('/api/v1/me', { key })).headers.get('x-request-id')!;
  // The log is written a second after its first record.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

const cursor = (text: string) => Buffer.from(text).toString('base64url');

it.each([
  ['an endpoint holding U+0000', 'endpoint=%00'],
  ['a cursor past bigint', `before=${cursor('2026-01-01T00:00:00.000Z|9223372036854775808')}`],
  ['a cursor before 4713 BC', `before=${cursor('-004714-01-01T00:00:00.000Z|1')}`],
  ['a cursor at JavaScript’s minimum date', `before=${cursor('-271821-04-20T00:00:00.000Z|1')}`],
])('answers %s with the first page', async (_label, query) => {
  const response = await server.request(`/settings/usage?${query}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const page = await response.text();
  expect(page).toContain(requestId);
  expect(page).not.toContain('(an older page)');
});
