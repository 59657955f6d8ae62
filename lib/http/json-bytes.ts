// The UTF-8 bytes of a value's JSON text: exactly `Buffer.from(JSON.stringify(value))`, in less time for
// a large answer (docs/performance/round-08-json-bytes-compression-pieces.md). Encoding the string
// JSON.stringify returns for a large answer cost more than the stringify itself: V8 hands back a text
// that long as a chain of parts, which is joined into one new large string before it is encoded.
// Stringified in pieces of a few kilobytes, a long list never makes such a string. JSON.stringify
// still writes every piece, so the bytes are its own.

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
      const items = JSON.stringify(value.slice(start, start + ITEMS_PER_PIECE)).slice(1, -1);
      pieces.push(start === 0 ? `[${items}` : `,${items}`);
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

/** The JSON text of `value` (anything JSON.stringify turns into text) as UTF-8 bytes. */
export function jsonBytes(value: unknown): Buffer<ArrayBuffer> {
  const pieces: string[] = [];
  collect(value, pieces, new Set());
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes;
}
