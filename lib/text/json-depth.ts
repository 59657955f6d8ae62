// How deep JSON text nests, read from the text itself before anything parses it. JSON.parse copes
// with deep nesting, but whatever walks the parsed value recursively afterwards (JSON.stringify, a
// library's checks) runs out of stack on a few kilobytes of `[[[[…`, and that is a 500.

/**
 * Whether `text` nests arrays and objects at most `max` deep. Exact for valid JSON; text that is not
 * JSON may be misjudged, which does not matter as JSON.parse refuses it next.
 */
export function jsonDepthWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > max) return false;
    } else if (char === ']' || char === '}') depth -= 1;
  }
  return true;
}
