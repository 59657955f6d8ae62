// What looks like a credential in a URL, for the two places that keep URLs: the request log
// (lib/usage/request-log-redaction.ts) and each request's log line (lib/telemetry/server.ts). Relative imports
// with their extension only: Node runs the telemetry's files as they are.
//
// One of our keys, a bearer-style opaque token or JWT (a run of 32 or more base64 characters besides
// the UUIDs this API takes, which no parameter of this API has), and any value of a parameter whose
// name says it holds one. Each is looked for in the decoded text (a key percent-encoded in a path
// segment is still a key), and with the characters between pieces of a secret ignored: a key split in
// two by a `+` (read as a space) or a `%2C` is still a key.
import { KEY_PREFIX } from '../key-format.ts';

export const REDACTED = 'REDACTED';
export const SECRET_NAME = /key|token|secret|pass|pwd|auth|bearer|credential|signature|session|code|sig$/i;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const OPAQUE_RUN = /[A-Za-z0-9_\-.~+/=]{32,}/;
/** Anything outside the alphabets of keys, tokens and JWTs: what may split a secret, ignored when looking for one. */
const SEPARATORS = /[^A-Za-z0-9_\-.~+/=]+/g;

export function looksLikeCredential(text: string): boolean {
  return text.split(UUIDS).some((part) => {
    const joined = part.replace(SEPARATORS, '');
    return joined.includes(KEY_PREFIX) || OPAQUE_RUN.test(joined);
  });
}

/** A path segment as the app reads it; one whose percent-encoding does not decode, as it came. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A URL's path with every segment that looks like a credential replaced by `REDACTED`. */
export function redactedPath(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (looksLikeCredential(decodedSegment(segment)) ? REDACTED : segment))
    .join('/');
}
