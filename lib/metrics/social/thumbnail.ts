// /social/thumbnail: the stored image bytes of one post, with a strong validator for revalidation.
import type { Reach } from '../../reach/reach';
import { ApiError, notFound } from '../../contract/errors';
import { ifNoneMatchHits } from '../../http/headers';
import { findThumbnail } from './repository';

/**
 * The only types served. Anything else stored (image/svg+xml above all, which can carry script, or
 * text/html) is answered as "no thumbnail": bytes the dashboard fetched from a third party are never
 * handed out under a type a browser would execute or render as a document.
 */
export const SERVABLE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/**
 * `private`: the bytes belong to one organisation and are answered per key, so no shared cache may keep
 * them (and `Vary: Authorization` keeps a private cache shared by several keys from mixing them up).
 * One hour: social data syncs hourly, so a cached thumbnail is never more than one sync behind; after
 * that the client revalidates with `If-None-Match` and, as the image rarely changes, gets a body-less 304.
 */
export const THUMBNAIL_MAX_AGE_SECONDS = 3600;
const THUMBNAIL_CACHE_CONTROL = `private, max-age=${THUMBNAIL_MAX_AGE_SECONDS}`;

export function thumbnailPath(postId: string): string {
  return `/api/v1/social/thumbnail?post=${postId}`;
}

/** The media type without parameters, lower-cased, when it is one we serve; otherwise null. */
function servableType(contentType: string): (typeof SERVABLE_IMAGE_TYPES)[number] | null {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return SERVABLE_IMAGE_TYPES.find((type) => type === essence) ?? null;
}

export function isServableImageType(contentType: string): boolean {
  return servableType(contentType) !== null;
}

const NO_THUMBNAIL = new ApiError('not_found', 'This post has no stored thumbnail image.');

export async function getSocialThumbnail(reach: Reach, postId: string, request: Request): Promise<Response> {
  const row = await findThumbnail(reach, postId);
  if (!row) throw notFound('post');
  const type = row.content_type === null ? null : servableType(row.content_type);
  if (type === null || row.bytes === null || row.sha256 === null) throw NO_THUMBNAIL;

  // The stored SHA-256 of the bytes: equal tags mean byte-identical images, so the tag is strong.
  const etag = `"${row.sha256}"`;
  const validators = { ETag: etag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL, Vary: 'Authorization' };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers: validators });
  }
  return new Response(new Uint8Array(row.bytes), {
    status: 200,
    headers: {
      ...validators,
      'Content-Type': type,
      'Content-Length': String(row.bytes.length),
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
