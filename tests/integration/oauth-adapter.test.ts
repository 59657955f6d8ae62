// The provider's storage on the real database: bearer secrets stored only as hashes, atomic consume
// (of two concurrent uses exactly one wins), expired rows never returned and deleted in the background,
// and registrations that expire unless a grant is approved for them.
import { randomBytes } from 'node:crypto';
import { errors } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { sql } from '@/lib/db';
import { deleteExpiredRows, PostgresAdapter, storedId, UNUSED_REGISTRATION_LIFETIME_S } from '@/lib/oauth/adapter';

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
    const adapter = new PostgresAdapter('RefreshToken');
    const token = secret();
    await adapter.upsert(token, { jti: token, grantId: 'grant-b' }, 60);
    const results = await Promise.allSettled([adapter.consume(token), adapter.consume(token)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const [lost] = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
    expect(lost!.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(await adapter.find(token)).toMatchObject({ consumed: true });
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
