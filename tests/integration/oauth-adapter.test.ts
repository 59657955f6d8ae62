// The provider's storage on the real database: bearer secrets stored only as hashes, atomic consume
// (of two concurrent uses exactly one wins), a just-rotated refresh token read as missing rather than
// as a replay, expired rows never returned and deleted in the background, and registrations that
// expire unless a grant is approved for them.
import { randomBytes } from 'node:crypto';
import { errors } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { sql } from '@/lib/db';
import { deleteExpiredRows, PostgresAdapter, ROTATION_RACE_GRACE_S, storedId, UNUSED_REGISTRATION_LIFETIME_S } from '@/lib/oauth/adapter';

function secret(): string {
  return randomBytes(32).toString('base64url');
}

describe('PostgresAdapter', () => {
  it('stores a token under its SHA-256 without the token in its payload, and gives it back whole', async () => {
    const adapter = new PostgresAdapter('RefreshToken');
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId: 'grant-a', accountId: 'user-a', kind: 'RefreshToken' }, 60);
    const rows = await sql<{ id: string; payload: Record<string, unknown> }>(`SELECT id, payload FROM oauth_payloads WHERE model = 'RefreshToken' AND grant_id = 'grant-a'`);
    expect(rows).toEqual([{ id: storedId('RefreshToken', token), payload: { grantId: 'grant-a', accountId: 'user-a', kind: 'RefreshToken' } }]);
    expect(rows[0]!.id).not.toContain(token);
    expect(await adapter.find(token)).toEqual({ jti: token, grantId: 'grant-a', accountId: 'user-a', kind: 'RefreshToken' });
    expect(await adapter.find(secret())).toBeUndefined();
  });

  it('consumes atomically: of two concurrent consumes exactly one wins, the other is invalid_grant', async () => {
    const adapter = new PostgresAdapter('AuthorizationCode');
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId: 'grant-b' }, 60);
    const results = await Promise.allSettled([adapter.consume(token), adapter.consume(token)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const [lost] = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
    expect(lost!.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(await adapter.find(token)).toMatchObject({ consumed: true });
  });

  it('tells the loser of a refresh token’s consume that the token was rotated, and what to do', async () => {
    const adapter = new PostgresAdapter('RefreshToken');
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId: 'grant-b2' }, 60);
    const results = await Promise.allSettled([adapter.consume(token), adapter.consume(token)]);
    const [lost] = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
    expect(lost!.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(lost!.reason).toMatchObject({
      error: 'invalid_grant',
      error_description: 'this refresh token was already used: a concurrent request rotated it. Use the newest refresh token, or sign in again',
    });
  });

  it('never returns an expired row, and deletes expired rows', async () => {
    const adapter = new PostgresAdapter('AccessToken');
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId: 'grant-c' }, 60);
    await sql(`UPDATE oauth_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND id = $1`, [storedId('AccessToken', token)]);
    expect(await adapter.find(token)).toBeUndefined();
    const live = secret();
    await adapter.upsert(live, { jti: live, grantId: 'grant-c' }, 60);
    // What the adapter runs in the background every ten minutes at most.
    await deleteExpiredRows();
    expect(await sql(`SELECT 1 FROM oauth_payloads WHERE model = 'AccessToken' AND id = $1`, [storedId('AccessToken', token)])).toHaveLength(0);
    expect(await adapter.find(live)).toMatchObject({ jti: live });
  });

  it('gives a registration a day to lead to a grant, and keeps it once its expiry was cleared', async () => {
    const adapter = new PostgresAdapter('Client');
    const clientId = secret();
    await adapter.upsert(clientId, { client_id: clientId, redirect_uris: ['https://client.example/cb'] });
    const lifetime = async () =>
      (await sql<{ seconds: number | null }>(`SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM oauth_payloads WHERE model = 'Client' AND id = $1`, [clientId]))[0]!.seconds;
    expect(await lifetime()).toBe(UNUSED_REGISTRATION_LIFETIME_S);
    await sql(`UPDATE oauth_payloads SET expires_at = NULL WHERE model = 'Client' AND id = $1`, [clientId]);
    await adapter.upsert(clientId, { client_id: clientId, redirect_uris: ['https://client.example/cb'] });
    expect(await lifetime()).toBeNull();
  });

  it('revokes by grant one model at a time', async () => {
    const token = secret();
    const code = secret();
    await new PostgresAdapter('AccessToken').upsert(token, { jti: token, grantId: 'grant-d' }, 60);
    await new PostgresAdapter('AuthorizationCode').upsert(code, { jti: code, grantId: 'grant-d' }, 60);
    await new PostgresAdapter('AccessToken').revokeByGrantId('grant-d');
    expect(await sql<{ model: string }>(`SELECT model FROM oauth_payloads WHERE grant_id = 'grant-d'`)).toEqual([{ model: 'AuthorizationCode' }]);
  });
});

describe('a rotated refresh token', () => {
  const adapter = new PostgresAdapter('RefreshToken');

  async function firstToken(grantId: string): Promise<string> {
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId, rotations: 0, kind: 'RefreshToken' }, 60);
    return token;
  }

  type Decision = { outcome: 'missing' | 'replay' | 'lost' } | { outcome: 'won'; successor: string };

  /**
   * One refresh request as the provider decides it (actions/grants/refresh_token.js): a token not found
   * is refused; one found consumed is a replay (the provider revokes the grant); otherwise it is consumed,
   * which only one request wins, and the winner saves the successor.
   */
  async function refreshDecision(token: string): Promise<Decision> {
    const found = await adapter.find(token);
    if (!found) return { outcome: 'missing' };
    if (found.consumed) return { outcome: 'replay' };
    try {
      await adapter.consume(token);
    } catch (error) {
      expect(error).toBeInstanceOf(errors.InvalidGrant);
      return { outcome: 'lost' };
    }
    const successor = secret();
    await adapter.upsert(successor, { jti: successor, grantId: found.grantId, rotations: (found.rotations as number) + 1, kind: 'RefreshToken' }, 60);
    return { outcome: 'won', successor };
  }

  async function rotate(token: string): Promise<string> {
    const decision = await refreshDecision(token);
    if (decision.outcome !== 'won') throw new Error(`expected the rotation to win, got ${decision.outcome}`);
    return decision.successor;
  }

  it('reads as missing within the grace while its successor is unused (a request that lost the race)', async () => {
    const first = await firstToken('grant-race-a');
    const second = await rotate(first);
    expect(await adapter.find(first)).toBeUndefined();
    expect(await adapter.find(second)).toEqual({ jti: second, grantId: 'grant-race-a', rotations: 1, kind: 'RefreshToken' });
  });

  it('reads as consumed (a replay) once its successor has been used', async () => {
    const first = await firstToken('grant-race-b');
    const second = await rotate(first);
    await rotate(second);
    expect(await adapter.find(first)).toEqual({ jti: first, grantId: 'grant-race-b', rotations: 0, kind: 'RefreshToken', consumed: true });
    // The successor itself was only just rotated, and its own successor is unused.
    expect(await adapter.find(second)).toBeUndefined();
  });

  it(`reads as consumed (a replay) ${ROTATION_RACE_GRACE_S} s after its rotation`, async () => {
    const first = await firstToken('grant-race-c');
    await rotate(first);
    await sql(`UPDATE oauth_payloads SET consumed_at = now() - make_interval(secs => $2) WHERE model = 'RefreshToken' AND id = $1`, [
      storedId('RefreshToken', first),
      ROTATION_RACE_GRACE_S + 1,
    ]);
    expect(await adapter.find(first)).toMatchObject({ consumed: true });
  });

  it.each([2, 10, 50])('%i concurrent refreshes over the pool’s connections, five rounds: one wins, none is taken for a replay', async (count) => {
    const grantId = `grant-race-${count}`;
    let token = await firstToken(grantId);
    for (let round = 0; round < 5; round += 1) {
      const decisions = await Promise.all(Array.from({ length: count }, () => refreshDecision(token)));
      const won = decisions.filter((decision) => decision.outcome === 'won');
      const [winner] = won;
      expect(won).toHaveLength(1);
      expect(decisions.filter((decision) => decision.outcome === 'replay')).toEqual([]);
      if (winner?.outcome !== 'won') throw new Error('no winner');
      token = winner.successor;
      // The next round starts from the winner's token, which is the grant's only unused one.
      const unused = await sql<{ id: string }>(`SELECT id FROM oauth_payloads WHERE model = 'RefreshToken' AND grant_id = $1 AND consumed_at IS NULL`, [grantId]);
      expect(unused).toEqual([{ id: storedId('RefreshToken', token) }]);
    }
  });
});
