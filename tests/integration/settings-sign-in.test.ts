// Sign-in and sessions on the seeded database: the demo people sign in, failures look alike (same
// answer, similar time), and the throttle refuses even the right password once an email is locked.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { sql } from '@/lib/db';
import { SESSION_LIFETIME_MS, deleteSession, findSession } from '@/lib/session/sessions';
import { signIn } from '@/lib/session/sign-in';
import { SignInThrottle } from '@/lib/session/throttle';

const PASSWORD = 'demo-password';

async function person(email: string) {
  const rows = await sql<{ user_id: string; name: string; org_id: string; org_name: string; role: string }>(
    `SELECT u.id AS user_id, u.name, m.org_id, o.name AS org_name, m.role::text AS role
       FROM users u JOIN memberships m ON m.user_id = u.id JOIN organizations o ON o.id = m.org_id
      WHERE u.email = $1 ORDER BY m.created_at, m.id LIMIT 1`,
    [email],
  );
  return rows[0]!;
}

async function signedIn(email: string, password = PASSWORD) {
  const result = await signIn({ email, password, address: '192.0.2.1' }, new SignInThrottle());
  if (result.kind !== 'signed_in') throw new Error(`expected a session, got ${result.kind}`);
  return result;
}

describe('signIn', () => {
  it.each(['admin@demo.agency', 'member@demo.agency', 'admin@other.agency'])('signs in %s with the demo password', async (email) => {
    const expected = await person(email);
    const before = Date.now();
    const { token, expiresAt } = await signedIn(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(SESSION_LIFETIME_MS - 1000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(SESSION_LIFETIME_MS);

    const stored = await sql<{ user_id: string; expires_at: Date }>('SELECT user_id, expires_at FROM dashboard_sessions WHERE token_hash = $1', [
      createHash('sha256').update(token).digest('hex'),
    ]);
    expect(stored).toEqual([{ user_id: expected.user_id, expires_at: expiresAt }]);
    expect(await sql('SELECT 1 FROM dashboard_sessions WHERE token_hash = $1', [token])).toHaveLength(0);

    expect(await findSession(token)).toEqual({
      user: { id: expected.user_id, email, name: expected.name },
      membership: { orgId: expected.org_id, orgName: expected.org_name, role: expected.role },
      expiresAt,
    });
  });

  it('matches the email whatever its case and surrounding spaces', async () => {
    const expected = await person('admin@demo.agency');
    const { token } = await signedIn('  Admin@Demo.Agency ');
    expect((await findSession(token))?.user.id).toBe(expected.user_id);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const throttle = new SignInThrottle();
    const wrong = await signIn({ email: 'admin@demo.agency', password: 'nope', address: '192.0.2.2' }, throttle);
    const unknown = await signIn({ email: 'nobody@demo.agency', password: 'nope', address: '192.0.2.2' }, throttle);
    expect(wrong).toEqual({ kind: 'invalid' });
    expect(unknown).toEqual({ kind: 'invalid' });
  });

  it('spends about as long on an unknown email as on a wrong password (a decoy hash is verified)', async () => {
    const median = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const start = performance.now();
        await signIn({ email, password: `wrong-${i}`, address: '192.0.2.3' }, new SignInThrottle());
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    await median('member@demo.agency'); // warm-up: connections and the decoy hash
    const [known, unknown] = [await median('member@demo.agency'), await median('nobody@demo.agency')];
    expect(unknown).toBeGreaterThan(known * 0.5);
    expect(unknown).toBeLessThan(known * 2);
  });

  it('refuses the right password once an email has 5 recent failures, and creates no session', async () => {
    const throttle = new SignInThrottle();
    const email = 'member@demo.agency';
    for (let i = 0; i < 5; i += 1) {
      expect(await signIn({ email, password: `wrong-${i}`, address: `192.0.2.${10 + i}` }, throttle)).toEqual({ kind: 'invalid' });
    }
    const { user_id } = await person(email);
    const [{ n: sessionsBefore }] = (await sql<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_sessions WHERE user_id = $1', [user_id])) as [{ n: number }];
    const result = await signIn({ email: email.toUpperCase(), password: PASSWORD, address: '192.0.2.99' }, throttle);
    expect(result.kind).toBe('throttled');
    if (result.kind === 'throttled') {
      expect(result.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(result.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    }
    expect(await sql('SELECT 1 FROM dashboard_sessions WHERE user_id = $1', [user_id])).toHaveLength(sessionsBefore);
  });
});

describe('sessions', () => {
  it('end at their expiry', async () => {
    const { token, expiresAt } = await signedIn('member@demo.agency');
    expect(await findSession(token, new Date(expiresAt.getTime() - 1))).not.toBeNull();
    expect(await findSession(token, expiresAt)).toBeNull();
  });

  it('end when deleted (sign-out), and an unknown token is no session', async () => {
    const { token } = await signedIn('member@demo.agency');
    await deleteSession(token);
    expect(await findSession(token)).toBeNull();
    expect(await findSession('not-a-token')).toBeNull();
  });
});
