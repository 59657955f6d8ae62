// Conditional requests and content types of /social/thumbnail, without a database.
import { describe, expect, it } from 'vitest';
import { ifNoneMatchHits } from '@/lib/http/headers';
import { isServableImageType, thumbnailPath } from '@/lib/metrics/social/thumbnail';

const etag = '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"';

describe('ifNoneMatchHits (RFC 9110 weak comparison)', () => {
  it('hits on the same tag, alone or in a list, weak or strong', () => {
    expect(ifNoneMatchHits(etag, etag)).toBe(true);
    expect(ifNoneMatchHits(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits(`"other", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits(`"other",W/${etag} , "third"`, etag)).toBe(true);
  });

  it('hits on * (any current representation)', () => {
    expect(ifNoneMatchHits('*', etag)).toBe(true);
    expect(ifNoneMatchHits(' * ', etag)).toBe(true);
  });

  it('misses on no header, other tags, unquoted or partial tags', () => {
    expect(ifNoneMatchHits(null, etag)).toBe(false);
    expect(ifNoneMatchHits('"other"', etag)).toBe(false);
    expect(ifNoneMatchHits(etag.slice(1, -1), etag)).toBe(false);
    expect(ifNoneMatchHits(`"${etag.slice(2)}`, etag)).toBe(false);
    expect(ifNoneMatchHits('', etag)).toBe(false);
  });
});

describe('isServableImageType', () => {
  it('serves raster images, ignoring case and parameters', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'IMAGE/PNG', 'image/jpeg; charset=binary']) {
      expect(isServableImageType(type), type).toBe(true);
    }
  });

  it('refuses types that can carry script or be rendered as documents', () => {
    for (const type of ['image/svg+xml', 'text/html', 'application/octet-stream', 'image/png+xml', '', 'image/jpg2']) {
      expect(isServableImageType(type), type).toBe(false);
    }
  });
});

describe('thumbnailPath', () => {
  it('is the thumbnail endpoint of this API for the post id', () => {
    expect(thumbnailPath('6f1c1c1e-8d1a-4d2e-9a7b-0c6f2f5b9e01')).toBe('/api/v1/social/thumbnail?post=6f1c1c1e-8d1a-4d2e-9a7b-0c6f2f5b9e01');
  });
});
