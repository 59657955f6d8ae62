// The response cache: answers of the data endpoints, reused until the organisation's data changes.
// One interface (get/set by key) so that a shared store can replace the in-process one when several
// server processes run; today it is an LRU in this process, bounded in bytes. What goes into a key —
// organisation, reach, the parsed query and the data version — is decided in one place: `answerKey`.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { jsonBytes } from '../http/json-bytes';
import { canonicalJson } from '../text/canonical-json';

/** A cached answer: the exact JSON bytes of the envelope and their strong ETag. */
export interface CachedAnswer {
  body: Buffer<ArrayBuffer>;
  etag: string;
}

/**
 * The store. Asynchronous so that a shared store (Redis: GET/SET of `key` with the body and ETag, and
 * a memory cap with `maxmemory-policy allkeys-lru`) fits behind it unchanged.
 */
export interface ResponseCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, answer: CachedAnswer): Promise<void>;
}

/**
 * The JSON bytes of a success and their strong ETag (the SHA-256 of exactly those bytes: equal tags
 * mean byte-identical bodies). A body is sent as bytes: a string body makes the Response check every
 * character for lone surrogates first, which costs a long list time on every answer
 * (docs/performance/round-02-web-layer-web-dimension-org-rollups.md#the-web-layer).
 */
export function jsonAnswer(body: unknown): CachedAnswer {
  const bytes = jsonBytes(body);
  return { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url')}"` };
}

/**
 * The bound when none is set. The cache's answers are Buffers beside V8's heap: under the mixed load
 * of many keys and ranges the cache fills to its bound, and 64 MiB of it took an instance past its
 * memory target (docs/performance/round-22-fairness-and-the-web-layer.md). 32 MiB still holds
 * hundreds of answers.
 */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** `RESPONSE_CACHE_MAX_BYTES` (default 32 MiB); 0 turns the cache off. */
export function maxBytesFromEnv(value = process.env.RESPONSE_CACHE_MAX_BYTES): number {
  if (value === undefined || value.trim() === '') return DEFAULT_MAX_BYTES;
  const bytes = Number(value);
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new Error(`RESPONSE_CACHE_MAX_BYTES must be a whole number of bytes (0 turns the cache off), not ${JSON.stringify(value)}`);
  }
  return bytes;
}

/** What an entry costs: its body, its key and tag (UTF-16 in memory), and a little bookkeeping. */
function entryBytes(key: string, answer: CachedAnswer): number {
  return answer.body.length + 2 * (key.length + answer.etag.length) + 64;
}

/**
 * An in-process LRU holding at most `maxBytes` of entries; an entry bigger than that is not kept.
 * The least recently used entries are evicted first.
 */
export function memoryResponseCache(maxBytes: number): ResponseCache & { readonly bytes: number; readonly size: number } {
  const lru = new LRUCache<string, CachedAnswer>({ maxSize: maxBytes, sizeCalculation: (answer, key) => entryBytes(key, answer) });
  return {
    async get(key) {
      return lru.get(key);
    },
    async set(key, answer) {
      if (entryBytes(key, answer) <= maxBytes) lru.set(key, answer);
    },
    get bytes() {
      return lru.calculatedSize;
    },
    get size() {
      return lru.size;
    },
  };
}

export interface AnswerKeyParts {
  /** The credential's organisation. */
  orgId: string;
  /** The credential's client list (null: every client); a `client` narrowing is part of `query`. */
  clientIds: string[] | null;
  /** The operation's id: REST and MCP calls of the same operation with the same parsed query share entries. */
  operationId: string;
  /** The parsed, validated query (defaults applied), never the raw string. */
  query: unknown;
  /** The organisation's data version, read before the answer is computed. */
  dataVersion: string;
}

/**
 * The cache key. Everything an answer depends on is in it: the organisation and the reach (so no
 * organisation or reach is ever served another's answer), the operation and its parsed query, and the
 * data version (so no answer outlives a write to its organisation's data). The credential itself is
 * not: two keys of one organisation with the same client list read the same rows.
 */
export function answerKey(parts: AnswerKeyParts): string {
  const clients = parts.clientIds === null ? null : [...parts.clientIds].sort();
  return canonicalJson([parts.orgId, clients, parts.operationId, parts.query, parts.dataVersion]);
}
