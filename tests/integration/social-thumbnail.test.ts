// GET /social/thumbnail: the stored bytes with their type, nosniff, a strong ETag and 304s, private
// caching; 404 alike for absent posts, posts outside the reach and posts without a servable image.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import { api, mintKey } from '../support/api';
import { expectProblem } from '../support/contract';
import { createClient, createOrg, createPage, insertPost, insertThumbnail, PNG_1PX } from './social-fixtures';

const thumbnail = (post: string, key?: string, headers?: Record<string, string>) =>
  api(`/api/v1/social/thumbnail?post=${post}`, { key, headers });

const seed = inject('seed');
const otherOrg = seed.orgs[1]!;

describe('GET /social/thumbnail', () => {
  let orgId: string;
  let key: string;
  const posts = {} as Record<'png' | 'webp' | 'none' | 'svg' | 'html' | 'unassigned', string>;
  const webp = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', 'latin1');
  let clientId: string;

  beforeAll(async () => {
    orgId = await createOrg('thumbnail');
    clientId = await createClient(orgId, 'Thumb client');
    const page = await createPage(orgId, { name: 'Thumb Page', clientId });
    const unassigned = await createPage(orgId, { name: 'Unassigned Page' });
    key = await mintKey({ orgId, scopes: ['social:read'] });
    const at = '2026-05-10T10:00:00Z';
    posts.png = await insertPost(orgId, page.id, { platform: 'facebook', publishedAt: at });
    posts.webp = await insertPost(orgId, page.id, { platform: 'instagram', publishedAt: at });
    posts.none = await insertPost(orgId, page.id, { platform: 'facebook', publishedAt: at });
    posts.svg = await insertPost(orgId, page.id, { platform: 'facebook', publishedAt: at });
    posts.html = await insertPost(orgId, page.id, { platform: 'facebook', publishedAt: at });
    posts.unassigned = await insertPost(orgId, unassigned.id, { platform: 'facebook', publishedAt: at });
    await insertThumbnail(posts.png, 'image/png', PNG_1PX);
    await insertThumbnail(posts.webp, 'IMAGE/WEBP', webp);
    await insertThumbnail(posts.svg, 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    await insertThumbnail(posts.html, 'text/html', Buffer.from('<script>alert(1)</script>'));
    await insertThumbnail(posts.unassigned, 'image/png', PNG_1PX);
  });

  it('serves the stored bytes with their type, nosniff, a strong ETag and private caching', async () => {
    const response = await thumbnail(posts.png, key);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(PNG_1PX)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(PNG_1PX.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toBe(`"${createHash('sha256').update(PNG_1PX).digest('hex')}"`);
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(response.headers.get('vary')).toBe('Authorization');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('sends the type normalised (lower case) for a WebP stored as IMAGE/WEBP', async () => {
    const response = await thumbnail(posts.webp, key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await response.arrayBuffer()).equals(webp)).toBe(true);
  });

  it('answers If-None-Match with 304 and no body when a tag matches (weakly), 200 otherwise', async () => {
    const etag = `"${createHash('sha256').update(PNG_1PX).digest('hex')}"`;
    for (const header of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const response = await thumbnail(posts.png, key, { 'If-None-Match': header });
      expect(response.status, header).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(response.headers.get('content-type')).toBeNull();
    }
    const changed = await thumbnail(posts.png, key, { 'If-None-Match': '"an-older-image"' });
    expect(changed.status).toBe(200);
    expect(Buffer.from(await changed.arrayBuffer()).equals(PNG_1PX)).toBe(true);
  });

  it('answers 404 for a post without a stored image, and for a stored SVG or HTML (never served)', async () => {
    for (const post of [posts.none, posts.svg, posts.html]) {
      const problem = await expectProblem(await thumbnail(post, key), 404, 'not_found');
      expect(problem.detail).toBe('This post has no stored thumbnail image.');
    }
  });

  it('answers a post outside the reach exactly like an absent one', async () => {
    const absent = await expectProblem(await thumbnail(randomUUID(), key), 404, 'not_found');
    // Another organisation's post, read with this organisation's key.
    const [foreign] = await sql<{ id: string }>(
      'SELECT po.id FROM social_posts po JOIN social_post_thumbnails t ON t.post_id = po.id WHERE po.org_id = $1 LIMIT 1',
      [otherOrg.id],
    );
    expect(foreign).toBeDefined();
    expect(await expectProblem(await thumbnail(foreign!.id, key), 404, 'not_found')).toEqual(absent);
    // A client-restricted key: a post of a page assigned to no client is outside it.
    const restricted = await mintKey({ orgId, scopes: ['social:read'], clientIds: [clientId] });
    expect(await expectProblem(await thumbnail(posts.unassigned, restricted), 404, 'not_found')).toEqual(absent);
    expect((await thumbnail(posts.png, restricted)).status).toBe(200);
    // The unrestricted key of the same organisation reads the unassigned page's post.
    expect((await thumbnail(posts.unassigned, key)).status).toBe(200);
  });

  it('needs social:read (403), a key (401) and a UUID post id (400)', async () => {
    const adsOnly = await mintKey({ orgId, scopes: ['ads:read'] });
    const forbidden = await expectProblem(await thumbnail(posts.png, adsOnly), 403, 'forbidden');
    expect(forbidden.detail).toContain('social:read');
    await expectProblem(await thumbnail(posts.png), 401, 'unauthorized');
    const invalid = await expectProblem(await thumbnail('not-a-uuid', key), 400, 'validation_failed');
    expect(invalid.errors).toEqual([{ path: 'post', message: 'must be a post id (a UUID) from /social/posts' }]);
    const missing = await expectProblem(await api('/api/v1/social/thumbnail', { key }), 400, 'validation_failed');
    expect(missing.errors).toEqual([{ path: 'post', message: 'is required' }]);
  });
});
