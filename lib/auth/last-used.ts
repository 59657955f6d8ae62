// "Last used" of credentials (API keys, OAuth grants): written at most once a minute per credential,
// never on the request's critical path. The in-process map skips the database entirely for a
// credential used in the last minute; the SQL condition keeps it at most once a minute across several
// server processes too.
import { sql } from '../db';
import { logger } from '../telemetry/logger';
import { processWide } from '../process-wide';

export const LAST_USED_INTERVAL_MS = 60_000;

/** The writes under way, which the server's shutdown waits for (flushLastUsed). */
const writesUnderWay = processWide('last-used-writes', () => new Set<Promise<void>>());
/** When each credential's last use was last written, by kind of credential. */
const lastWrittenByKind = processWide('last-used-written', () => new Map<string, Map<string, number>>());

function lastWritten(kind: string): Map<string, number> {
  const byKind = lastWrittenByKind();
  let written = byKind.get(kind);
  if (!written) byKind.set(kind, (written = new Map()));
  return written;
}

/**
 * A recorder of uses for one kind of credential: `update` is a statement taking the id as $1 that
 * sets the timestamp only when it is older than a minute. The returned promise is for tests only.
 */
function lastUsedRecorder(kind: string, update: string): (id: string, now?: number) => Promise<void> {
  return (id, now = Date.now()) => {
    const written = lastWritten(kind);
    const previous = written.get(id);
    if (previous !== undefined && now - previous < LAST_USED_INTERVAL_MS) return Promise.resolve();
    written.set(id, now);
    if (written.size > 10_000) {
      for (const [seen, at] of written) if (now - at >= LAST_USED_INTERVAL_MS) written.delete(seen);
    }
    const write = sql(update, [id]).then(
      () => undefined,
      (error: Error) => {
        // Losing one timestamp is harmless; the next use after a minute writes it again.
        written.delete(id);
        logger().warn(`[last-used] could not record the use of ${kind} ${id}: ${error.message}`);
      },
    );
    const underWay = writesUnderWay();
    underWay.add(write);
    void write.finally(() => underWay.delete(write));
    return write;
  };
}

/** Waits for every write under way (the server's shutdown, before the pools close). */
export async function flushLastUsed(): Promise<void> {
  await Promise.all(writesUnderWay());
}

/** Records a use of an API key in the background. */
export const recordKeyUse = lastUsedRecorder(
  'key',
  `UPDATE api_keys SET last_used_at = now()
    WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - interval '1 minute')`,
);

/** Records a use of an OAuth grant (any of its access tokens) in the background. */
export const recordGrantUse = lastUsedRecorder(
  'grant',
  `UPDATE oauth_payloads SET last_used_at = now()
    WHERE model = 'Grant' AND id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - interval '1 minute')`,
);
