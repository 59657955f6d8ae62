// One copy of each of the server's chunk files that are the same. Turbopack writes the modules that
// several routes share into a chunk file for each of those routes, under a name of its own, byte for
// byte the same but for the last line (the name of its source map): in this app's build 37 of the
// server's chunk files repeat another, one content written seven times. Turbopack's runtime installs each
// module's code once, from the first such file it loads, but Node's require cache keeps every file it
// loaded alive, with its source text and its compiled code: an instance that had served every route
// held each repeated chunk once for every route that loads it. With this hook Node resolves a chunk
// file to the first file of the same folder with the same content, and so loads it once: 150 s of the
// mixed load that is mostly refused 429 held 322-324 MB instead of 334-360 MB
// (docs/performance/round-23-start-up.md).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

/** A chunk's last line names its source map, the one line in which two copies differ. */
const SOURCE_MAP_LINE = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

/**
 * From now on, a JavaScript file under `chunksDir` (and its folders) that Node is asked to load is
 * loaded as the first file of its folder with the same content, when one was loaded before.
 */
export function shareIdenticalChunks(chunksDir) {
  const prefix = pathToFileURL(chunksDir).href + '/';
  /** The file each chunk file is loaded as, by URL. */
  const loadedAs = new Map();
  /** The first file of each content, by its folder and the content's hash. */
  const firstOf = new Map();
  const sharedUrl = (url) => {
    let shared = loadedAs.get(url);
    if (shared === undefined) {
      const content = readFileSync(new URL(url), 'latin1').replace(SOURCE_MAP_LINE, '');
      const key = `${url.slice(0, url.lastIndexOf('/'))} ${createHash('sha256').update(content, 'latin1').digest('base64')}`;
      shared = firstOf.get(key) ?? url;
      firstOf.set(key, shared);
      loadedAs.set(url, shared);
    }
    return shared;
  };
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (!resolved.url.startsWith(prefix) || !resolved.url.endsWith('.js')) return resolved;
      const url = sharedUrl(resolved.url);
      return url === resolved.url ? resolved : { ...resolved, url };
    },
  });
}
