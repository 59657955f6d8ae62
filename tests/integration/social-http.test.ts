// The social endpoints on a real production server (`npm start`: scripts/server.mjs): the rate-limit
// headers on every response (the thumbnail's bytes and 304s included), and the thumbnail's own caching
// headers as a client receives them (the API's no-store must not replace them).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { socialOverviewOperation, socialPostsOperation } from '@/lib/metrics/social/operations';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { startTestServer, type TestServer } from '../support/http-server';
import { awayFromWindowEdge } from '../support/rate-limit-window';
import { createOrg, createPage, insertPost, insertThumbnail, PNG_1PX } from './social-fixtures';

let server: TestServer;
let orgId: string;
let post: string;
const etag = `"${createHash('sha256').update(PNG_1PX).digest('hex')}"`;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  orgId = await createOrg('http');
  const page = await createPage(orgId, { name: 'HTTP Page' });
  post = await insertPost(orgId, page.id, { platform: 'facebook', publishedAt: '2026-06-10T06:00:00Z', likes: 2 });
  await insertThumbnail(post, 'image/png', PNG_1PX);
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** Each test has a key of its own, so `remaining` counts exactly that test's requests. */
function expectRateLimited(response: Response, remaining: number) {
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT.limit));
  expect(response.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  expect(Number(response.headers.get('x-ratelimit-reset')) % RATE_LIMIT.windowSeconds).toBe(0);
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
}

describe('social endpoints over HTTP', () => {
  it('carry the rate-limit headers on JSON, image bytes, 304s and problems alike', async () => {
    // The counts below assume one fixed window: a burst across its edge would start counting again.
    await awayFromWindowEdge();
    const key = await mintKey({ orgId, scopes: ['social:read'] });
    let used = 0;
    const next = async (path: string, headers?: Record<string, string>) => {
      const response = await server.request(path, { key, headers });
      expectRateLimited(response, RATE_LIMIT.limit - ++used);
      return response;
    };

    await expectContract(socialOverviewOperation, await next('/api/v1/social/overview?from=2026-06-01&to=2026-06-30'));
    const posts = await expectContract<{ data: { posts: { thumbnailHref: string | null }[] } }>(
      socialPostsOperation,
      await next('/api/v1/social/posts?from=2026-06-01&to=2026-06-30'),
    );
    const href = posts.data.posts[0]!.thumbnailHref!;
    expect(href).toBe(`/api/v1/social/thumbnail?post=${post}`);

    const image = await next(href);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG_1PX)).toBe(true);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('etag')).toBe(etag);

    const notModified = await next(href, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);

    await expectProblem(await next('/api/v1/social/thumbnail?post=00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    await expectProblem(await next('/api/v1/social/posts?from=2026-06-01&to=2026-06-30&limit=0'), 400, 'validation_failed');
  });

  it("keep the thumbnail's own caching headers (the API's no-store must not replace them)", async () => {
    const key = await mintKey({ orgId, scopes: ['social:read'] });
    const image = await server.request(`/api/v1/social/thumbnail?post=${post}`, { key });
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(image.headers.get('vary')).toContain('Authorization');
    const notModified = await server.request(`/api/v1/social/thumbnail?post=${post}`, { key, headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('private, max-age=3600');
  });
});
