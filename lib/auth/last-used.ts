// `lastUsedAt` of API keys: written at most once a minute per key, never on the request's critical
// path. The in-process map skips the database entirely for a key used in the last minute; the SQL
// condition keeps it at most once a minute across several server processes too.
import { sql } from '../db';

export const LAST_USED_INTERVAL_MS = 60_000;

const globalForLastUsed = globalThis as unknown as { metricsKeyLastWritten?: Map<string, number> };

function lastWritten(): Map<string, number> {
  globalForLastUsed.metricsKeyLastWritten ??= new Map();
  return globalForLastUsed.metricsKeyLastWritten;
}

/** Records a use of the key in the background; the returned promise is for tests only. */
export function recordKeyUse(keyId: string, now = Date.now()): Promise<void> {
  const written = lastWritten();
  const previous = written.get(keyId);
  if (previous !== undefined && now - previous < LAST_USED_INTERVAL_MS) return Promise.resolve();
  written.set(keyId, now);
  if (written.size > 10_000) {
    for (const [id, at] of written) if (now - at >= LAST_USED_INTERVAL_MS) written.delete(id);
  }
  return sql(
    `UPDATE api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - interval '1 minute')`,
    [keyId],
  ).then(
    () => undefined,
    (error: Error) => {
      // Losing one timestamp is harmless; the next use after a minute writes it again.
      written.delete(keyId);
      console.warn(`[api-keys] could not record the use of key ${keyId}: ${error.message}`);
    },
  );
}
