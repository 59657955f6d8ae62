// Dashboard passwords: argon2id via @node-rs/argon2 (the seed hashes with the same library and defaults).
import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** A hash of a password nobody knows, computed once, so that an unknown email costs a real verification. */
let dummyHash: Promise<string> | undefined;

function decoyHash(): Promise<string> {
  dummyHash ??= hash(`decoy-${Math.random()}-${Date.now()}`);
  return dummyHash;
}

/**
 * Checks a password against a stored hash. With no hash (no such user) it verifies against a decoy,
 * so that "unknown email" and "wrong password" take the same time and give the same answer.
 */
export async function checkPassword(storedHash: string | null, password: string): Promise<boolean> {
  try {
    if (storedHash === null) {
      await verify(await decoyHash(), password);
      return false;
    }
    return await verify(storedHash, password);
  } catch {
    // A malformed stored hash is a wrong password, not a crash of the sign-in page.
    return false;
  }
}

/**
 * What a session records of the password it was opened with: the SHA-256 (hex) of the stored hash.
 * Any change of the hash (a new password, or the same one hashed again) ends every older session,
 * whichever code path or SQL made it; the digest gives away nothing of the hash or its salt.
 * The sign-in migration computes the same value in SQL for the sessions it found.
 */
export function passwordFingerprint(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('hex');
}
