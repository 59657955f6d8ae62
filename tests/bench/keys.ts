// Pools of real API keys, so that the benchmark goes through the real rate limiter (60 requests per
// minute per key, fixed window). mintKeyPool's keys are never limited: each key is handed out for at
// most USES_PER_KEY requests in the whole run, fewer than the limit, so no window of any key can
// overflow whatever the timing (a 429 would still be counted and reported by the load runner).
// overrunKeyPool's are used past their limits on purpose, as clients that overrun them do.
import { createApiKey } from '../../lib/keys/issuing';
import { SCOPES } from '../../lib/contract/scopes';
import { RATE_LIMIT } from '../../lib/contract/limits';
import { sql } from '../../lib/db';

/** Below the limit, so a request or two sent past `amount` by the load generator cannot reach it. */
export const USES_PER_KEY = RATE_LIMIT.limit - 5;
const KEY_NAME_PREFIX = 'bench run ';

export interface KeyPool {
  /** The key for the next request. */
  next(): string;
  readonly minted: number;
  readonly handedOut: number;
}

/** Mints `count` unrestricted, all-scope keys in the organisation named `prefix`…; removes earlier runs' keys of that name first. */
async function mintKeys(orgId: string, count: number, prefix: string): Promise<string[]> {
  await sql(`DELETE FROM api_keys WHERE org_id = $1 AND name LIKE $2`, [orgId, `${prefix}%`]);
  const runName = `${prefix}${new Date().toISOString()}`;
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const { key } = await createApiKey({ orgId, name: `${runName} #${i + 1}`, scopes: [...SCOPES], clientIds: null, expiresAt: null, createdById: null });
    keys.push(key);
  }
  return keys;
}

/** Mints enough unrestricted, all-scope keys for `requests` requests; removes earlier runs' keys first. */
export async function mintKeyPool(orgId: string, requests: number, log: (line: string) => void, prefix = KEY_NAME_PREFIX): Promise<KeyPool> {
  const count = Math.ceil(requests / USES_PER_KEY);
  const keys = await mintKeys(orgId, count, prefix);
  log(`minted ${count} keys (${USES_PER_KEY} requests each at most, limit ${RATE_LIMIT.limit}/${RATE_LIMIT.windowSeconds} s per key) for ${requests} planned requests`);
  let handedOut = 0;
  return {
    next() {
      if (handedOut >= keys.length * USES_PER_KEY) throw new Error(`the key pool is exhausted after ${handedOut} requests: the plan undercounted its requests`);
      // Round robin: requests in flight together use different keys, so none meets the cap on
      // requests at once per key (API_CONCURRENCY_PER_CREDENTIAL); each key still serves at most USES_PER_KEY.
      const key = keys[handedOut % keys.length]!;
      handedOut++;
      return key;
    },
    get minted() {
      return keys.length;
    },
    get handedOut() {
      return handedOut;
    },
  };
}

/**
 * `count` keys handed out round robin for ever: traffic as clients that overrun their limits send it,
 * most of it answered 429 once each key's window is used up.
 */
export async function overrunKeyPool(orgId: string, count: number, log: (line: string) => void, prefix = KEY_NAME_PREFIX): Promise<KeyPool> {
  const keys = await mintKeys(orgId, count, prefix);
  log(`minted ${count} keys, used round robin past their limit of ${RATE_LIMIT.limit}/${RATE_LIMIT.windowSeconds} s`);
  let handedOut = 0;
  return {
    next: () => keys[handedOut++ % keys.length]!,
    minted: count,
    get handedOut() {
      return handedOut;
    },
  };
}
