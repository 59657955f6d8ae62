// The UTF-8 bytes of a value's JSON text: exactly `Buffer.from(JSON.stringify(value))`, in less time for
// a large answer (docs/performance/round-08-json-bytes-compression-pieces.md). Encoding the string
// JSON.stringify returns for a large answer cost more than the stringify itself: V8 hands back a text
// that long as a chain of parts, which is joined into one new large string before it is encoded.
// Stringified in pieces of a few kilobytes, a long list never makes such a string. JSON.stringify
// still writes every piece, so the bytes are its own.
import { processWide } from '../process-wide';

/** Items of a long array stringified together: their text stays a few kilobytes (an ad is one or two lines of JSON). */
const ITEMS_PER_PIECE = 16;

/** JSON.stringify writes what a value's toJSON returns instead of the value: such a value is left to it whole. */
function hasToJSON(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** An object JSON.stringify would write member by member: plain (not an array, a Date, a class instance). */
function isPlainObject(value: object): value is Record<string, unknown> {
  return Object.getPrototypeOf(value) === Object.prototype && !hasToJSON(value);
}

/**
 * Appends the JSON text of `value` to `pieces`, splitting long arrays and descending into plain objects.
 * `path`: the arrays and objects being written around it. JSON.stringify refuses a value inside itself
 * with a TypeError; without this check the descent would instead run out of stack (a RangeError).
 */
function collect(value: unknown, pieces: string[], path: Set<object>): void {
  if (value !== null && typeof value === 'object' && path.has(value)) throw new TypeError('Converting circular structure to JSON');
  if (Array.isArray(value) && value.length > ITEMS_PER_PIECE && !hasToJSON(value)) {
    path.add(value);
    for (let start = 0; start < value.length; start += ITEMS_PER_PIECE) {
      // The items' text without the brackets of their slice: JSON.stringify writes holes and undefined as null.
      // The bracket or comma before it is a piece of its own: joined to the items, it would make a string
      // of two parts, which measuring and writing its bytes first copies into one.
      pieces.push(start === 0 ? '[' : ',', JSON.stringify(value.slice(start, start + ITEMS_PER_PIECE)).slice(1, -1));
    }
    pieces.push(']');
    path.delete(value);
  } else if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    path.add(value);
    let separator = '{';
    for (const key of Object.keys(value)) {
      const inner = value[key];
      // The members JSON.stringify leaves out of an object.
      if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
      pieces.push(`${separator}${JSON.stringify(key)}:`);
      separator = ',';
      collect(inner, pieces, path);
    }
    pieces.push(separator === '{' ? '{}' : '}');
    path.delete(value);
  } else {
    pieces.push(JSON.stringify(value));
  }
}

/** UTF-8 takes at most 3 bytes for a UTF-16 code unit (4 for the 2 units of a surrogate pair). */
const MAX_BYTES_PER_CODE_UNIT = 3;

/** Room up to this size is kept between calls (a year's list of ads needs less); a larger text gets room of its own. */
const KEPT_ROOM_BYTES = 2 * 1024 * 1024;

/** The room kept between calls: one for the process, where a module's own would be one per route bundle. */
const keptRoom = processWide('json-room', () => ({ buffer: Buffer.allocUnsafeSlow(0) }));

/** A buffer of at least `bytes` whose content is not needed (jsonBytes is synchronous: no two calls share it at once). */
function room(bytes: number): Buffer {
  const kept = keptRoom();
  if (bytes <= kept.buffer.length) return kept.buffer;
  if (bytes > KEPT_ROOM_BYTES) return Buffer.allocUnsafeSlow(bytes);
  kept.buffer = Buffer.allocUnsafeSlow(bytes);
  return kept.buffer;
}

/**
 * The JSON text of `value` (anything JSON.stringify turns into text) as UTF-8 bytes. The pieces are
 * encoded into room enough for any text and then copied into a buffer of their size: measuring each
 * piece first read it twice, and a text with any character past U+00FF (an en dash in a name) is two
 * bytes a character, which is as slow to measure as to encode.
 */
export function jsonBytes(value: unknown): Buffer<ArrayBuffer> {
  const pieces: string[] = [];
  collect(value, pieces, new Set());
  let units = 0;
  for (const piece of pieces) units += piece.length;
  const into = room(units * MAX_BYTES_PER_CODE_UNIT);
  let length = 0;
  for (const piece of pieces) length += into.write(piece, length);
  const bytes = Buffer.allocUnsafe(length);
  into.copy(bytes, 0, 0, length);
  return bytes;
}
