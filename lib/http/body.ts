// Reading a request body with bounds: at most MAX_BODY_BYTES (or a page form's FORM_MAX_BYTES), within
// BODY_TIMEOUT_MS. The REST gate reads bodies only to look for a misplaced key; the MCP door reads its
// JSON-RPC messages; the page gate checks that a form post fits. None lets a caller hold a request by
// trickling a body in, or fill memory with a large one. (Next.js itself waits for a page's form post
// to end before it sends the answer; scripts/server.mjs bounds that wait.)
export const MAX_BODY_BYTES = 64 * 1024;
/** A page's form post: Next.js's own server-action limit (1 MB), which it enforces with a 500. */
export const FORM_MAX_BYTES = 1024 * 1024;
export const BODY_TIMEOUT_MS = Number(process.env.API_BODY_TIMEOUT_MS ?? 2_000);

/**
 * The body as text, or null when it is over `maxBytes`, not received within BODY_TIMEOUT_MS, or cut
 * off by the client closing its connection (the server logs that in one line: scripts/server.mjs).
 */
export async function readBoundedBody(body: ReadableStream<Uint8Array>, maxBytes = MAX_BODY_BYTES): Promise<string | null> {
  const reader = body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel();
  }, BODY_TIMEOUT_MS);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return null;
      if (done) return Buffer.concat(chunks).toString('utf8');
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  } catch {
    // The only way a request body's stream fails: its connection closed before the body ended.
    return null;
  } finally {
    clearTimeout(timer);
  }
}
