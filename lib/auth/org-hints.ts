// Which organisation a credential belonged to when it was last looked up, by the digest under which it
// is looked up: the lane its next lookup waits in for the gate's connections (gateSql in lib/db.ts), so
// that one organisation's flood of lookups, however many keys it spreads over, cannot keep another
// organisation's waiting. Only a hint: it decides nothing but the order of waiting, and every lookup
// still reads the credential afresh. One map for the whole process (lib/process-wide.ts), as Next.js
// bundles lib/ into each route separately.
import { processWide } from '../process-wide';

/** The lane of a credential never seen (or forgotten): all of them share it, guesses included. */
export const UNKNOWN_CREDENTIAL_LANE = 'unknown credential';

/** Enough for every live key and token of a busy instance; the least recently seen are forgotten first. */
const MAX_HINTS = 10_000;

const hints = processWide('org-hints', () => new Map<string, string>());

/** The lane for the lookup of the credential with this digest. */
export function lookupLane(digest: string): string {
  return hints().get(digest) ?? UNKNOWN_CREDENTIAL_LANE;
}

/** Remembers the organisation a lookup found for the credential with this digest. */
export function rememberOrg(digest: string, orgId: string): void {
  const known = hints();
  known.delete(digest);
  known.set(digest, orgId);
  if (known.size > MAX_HINTS) known.delete(known.keys().next().value!);
}
