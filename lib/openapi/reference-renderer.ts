// Scalar's renderer for /docs/api, served as its authors build it for browsers (one self-contained
// script in the installed package, its styles inside) rather than bundled again by our build, where it
// took most of `next build`'s time (docs/performance/round-17-test-loop.md). Streamed from the package's
// file on each request, not held in memory: it is large and asked for once per browser and version
// (docs/performance/round-18-lean-and-fair.md); browsers revalidate it by its version.
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ifNoneMatchHits } from '@/lib/http/headers';

// The server runs from the project's folder (npm start, the demo, the cluster, the tests).
const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference');
const SCRIPT = path.join(PACKAGE_DIR, 'dist', 'browser', 'standalone.js');

let etag: Promise<string> | undefined;

async function readVersion(): Promise<string> {
  const { version } = JSON.parse(await readFile(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  return `"scalar-${version}"`;
}

export async function referenceRendererResponse(request: Request): Promise<Response> {
  // A failed read is not kept: the next request tries again.
  etag ??= readVersion().catch((error: unknown) => {
    etag = undefined;
    throw error;
  });
  const validators = { ETag: await etag, 'Cache-Control': 'public, no-cache' };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), validators.ETag)) return new Response(null, { status: 304, headers: validators });
  // The length is the opened file's own, so it matches the bytes streamed from it.
  const file = await open(SCRIPT);
  const { size } = await file.stat().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  const body = Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: { ...validators, 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': String(size) },
  });
}
