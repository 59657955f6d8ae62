// Scalar's renderer for /docs/api, served as its authors build it for browsers (one self-contained
// script in the installed package, its styles inside) rather than bundled again by our build: bundling
// it was two thirds of `next build`'s CPU time. Read once; browsers revalidate it by its version.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ifNoneMatchHits } from '@/lib/http/headers';

// The server runs from the project's folder (npm start, the demo, the cluster, the tests).
const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');

interface Renderer {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

let renderer: Promise<Renderer> | undefined;

async function readRenderer(): Promise<Renderer> {
  const [bytes, manifest] = await Promise.all([
    readFile(path.join(PACKAGE_DIR, 'dist', 'browser', 'standalone.js')),
    readFile(path.join(PACKAGE_DIR, 'package.json'), 'utf8'),
  ]);
  const { version } = JSON.parse(manifest) as { version: string };
  return { bytes: new Uint8Array(bytes), etag: `"scalar-${version}"` };
}

export async function referenceRendererResponse(request: Request): Promise<Response> {
  // A failed read is not kept: the next request tries again.
  renderer ??= readRenderer().catch((error: unknown) => {
    renderer = undefined;
    throw error;
  });
  const { bytes, etag } = await renderer;
  const validators = { ETag: etag, 'Cache-Control': 'public, no-cache' };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: validators });
  return new Response(bytes, {
    headers: { ...validators, 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': String(bytes.length) },
  });
}
