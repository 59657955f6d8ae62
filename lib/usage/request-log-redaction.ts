// What the request log keeps of a request's path and query: never a credential, and a bounded length.
import { looksLikeCredential, REDACTED, redactedPath, SECRET_NAME } from '../text/credential-redaction';

/** Bounds of what a record stores of a caller-chosen path and query. */
export const PATH_MAX = 512;
const QUERY_MAX = 1_024;

/**
 * The path and query of a request as the log keeps them: a path segment or a parameter value that
 * looks like a credential, and every value of a parameter named like one, replaced by `REDACTED`;
 * a parameter name that holds a key is itself replaced. Both are cut to a bounded length.
 */
export function redactUrl(url: string): { path: string; query: string } {
  const parsed = new URL(url);
  const path = redactedPath(parsed.pathname).slice(0, PATH_MAX);
  const query = new URLSearchParams();
  for (const [name, value] of parsed.searchParams) {
    const safeName = looksLikeCredential(name) ? REDACTED : name;
    query.append(safeName, SECRET_NAME.test(name) || safeName === REDACTED || looksLikeCredential(value) ? REDACTED : value);
  }
  return { path, query: query.toString().slice(0, QUERY_MAX) };
}
