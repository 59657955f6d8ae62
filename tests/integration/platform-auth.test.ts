// The spec's authentication rules (numbered as in "Authentication › API keys") and the error table,
// through the route handlers in-process, gate included. HTTP-level behaviour (rate limits in Redis,
// headers on every response, request bodies) is in platform-http.test.ts.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientsOperation, meOperation } from '@/lib/account/operations';
import { KEY_PREFIX } from '@/lib/key-format';
import { SCOPES, type Scope } from '@/lib/contract/scopes';
import { sql } from '@/lib/db';
import { allOperations } from '@/lib/operations/registry';
import { api, mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { clientsOf, minimalQuery, seededOrgs } from './platform-support';

type Me = { data: { org: { id: string }; scopes: string[]; clientIds: string[] | null; key: { id: string } } };

const { main, other } = seededOrgs();
let key: string;

beforeAll(async () => {
  key = await mintKey({ orgId: main.id });
});

async function expectUnauthorized(response: Response, challengeError?: string) {
  const body = await expectProblem(response, 401, 'unauthorized');
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer realm="metrics-api"/);
  if (challengeError) expect(challenge).toContain(`error="${challengeError}"`);
  return body;
}

describe('rule 1: the key goes in the Authorization header only', () => {
  it('accepts `Authorization: Bearer <key>`', async () => {
    await expectContract(meOperation, await api('/api/v1/me', { key }));
  });

  it('accepts the scheme name in any case', async () => {
    await expectContract(meOperation, await api('/api/v1/me', { headers: { authorization: `bearer ${key}` } }));
  });

  it('refuses a key in the query string even with a valid header, and says to use the header', async () => {
    const body = await expectUnauthorized(await api(`/api/v1/me?api_key=${key}`, { key }), 'invalid_request');
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it('refuses a key in a cookie even with a valid header', async () => {
    const body = await expectUnauthorized(await api('/api/v1/me', { key, headers: { cookie: `session=1; key=${key}` } }), 'invalid_request');
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it('refuses another scheme (Basic, a bare key)', async () => {
    await expectUnauthorized(await api('/api/v1/me', { headers: { authorization: `Basic ${key}` } }), 'invalid_request');
    await expectUnauthorized(await api('/api/v1/me', { headers: { authorization: key } }), 'invalid_request');
  });
});

describe('rule 2: a fixed prefix followed by 43 characters', () => {
  it('mints keys of that shape', () => {
    expect(key).toMatch(new RegExp(`^${KEY_PREFIX}[A-Za-z0-9_-]{43}$`));
  });

  it.each([
    ['42 characters', () => key.slice(0, -1)],
    ['44 characters', () => `${key}A`],
    ['another prefix', () => `sk_live_${key.slice(KEY_PREFIX.length)}`],
    ['a character outside base64url', () => `${key.slice(0, -1)}+`],
    ['nothing after Bearer', () => ''],
  ])('refuses a malformed key (%s) with 401', async (_, make) => {
    await expectUnauthorized(await api('/api/v1/me', { headers: { authorization: `Bearer ${make()}` } }));
  });
});

describe('rule 4: shown once, only a hash stored', () => {
  it('stores the SHA-256 of the key and a display prefix, never the key', async () => {
    const me = await expectContract<Me>(meOperation, await api('/api/v1/me', { key }));
    const [row] = await sql<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [me.data.key.id]);
    expect(row!.hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(key.startsWith(row!.prefix as string)).toBe(true);
    expect((row!.prefix as string).length).toBeLessThan(key.length / 2);
    expect(JSON.stringify(row)).not.toContain(key.slice(KEY_PREFIX.length));
  });
});

describe('rule 5: a key belongs to the organisation, not its creator', () => {
  it('keeps working after its creator is deleted', async () => {
    const [user] = await sql<{ id: string }>(
      `INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), $1, 'Leaver', 'x') RETURNING id`,
      [`leaver-${Date.now()}@example.test`],
    );
    await sql(`INSERT INTO memberships (id, org_id, user_id, role) VALUES (gen_random_uuid(), $1, $2, 'admin')`, [main.id, user!.id]);
    const { createApiKey } = await import('@/lib/keys/issuing');
    const created = await createApiKey({ orgId: main.id, name: 'leaver key', scopes: ['ads:read'], clientIds: null, expiresAt: null, createdById: user!.id });
    await sql('DELETE FROM users WHERE id = $1', [user!.id]);
    const me = await expectContract<Me>(meOperation, await api('/api/v1/me', { key: created.key }));
    expect(me.data.org.id).toBe(main.id);
  });
});

describe('rules 6 and 9: scopes gate endpoints', () => {
  const scoped = allOperations().filter((operation) => operation.scope !== null);

  it('covers every scope', () => {
    expect(new Set(scoped.map((operation) => operation.scope))).toEqual(new Set(SCOPES));
  });

  it.each(scoped.map((operation) => [operation.path, operation] as const))(
    '%s without its scope is 403 naming the scope',
    async (_, operation) => {
      const lacking = await mintKey({ orgId: main.id, scopes: SCOPES.filter((scope) => scope !== operation.scope) as Scope[] });
      const body = await expectProblem(await api(minimalQuery(operation), { key: lacking }), 403, 'forbidden');
      expect(body.detail).toContain(operation.scope!);
    },
  );

  it('checks the scope before the query: a bad query without the scope is still 403', async () => {
    const operation = scoped[0]!;
    const lacking = await mintKey({ orgId: main.id, scopes: SCOPES.filter((scope) => scope !== operation.scope) as Scope[] });
    await expectProblem(await api(`/api/v1${operation.path}?nonsense=1`, { key: lacking }), 403, 'forbidden');
  });
});

describe('rules 7 and 10: the client list gates rows; outside reach is the same 404 as absent', () => {
  const withClient = allOperations().filter((operation) => 'client' in operation.query.shape);
  let listed: string;
  let unlisted: string;
  let otherOrgClient: string;
  let restricted: string;

  beforeAll(async () => {
    const clients = await clientsOf(main.id);
    expect(clients.length).toBeGreaterThanOrEqual(2);
    listed = clients[0]!.id;
    unlisted = clients[1]!.id;
    otherOrgClient = (await clientsOf(other.id))[0]!.id;
    restricted = await mintKey({ orgId: main.id, clientIds: [listed] });
  });

  it('has endpoints taking `client`', () => {
    expect(withClient.length).toBeGreaterThan(0);
  });

  it.each(withClient.map((operation) => [operation.path, operation] as const))(
    '%s: a client outside the list, of another org, or absent: identical 404s',
    async (_, operation) => {
      const absent = '7d1f3c2e-0000-4000-8000-000000000000';
      const bodies = [];
      for (const [client, credential] of [
        [unlisted, restricted],
        [otherOrgClient, restricted],
        [otherOrgClient, key],
        [absent, key],
      ] as const) {
        bodies.push(await expectProblem(await api(minimalQuery(operation, { client }), { key: credential }), 404, 'not_found'));
      }
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(JSON.stringify(bodies[0])).not.toContain(unlisted);
    },
  );

  it('a listed client is readable', async () => {
    const operation = withClient[0]!;
    const response = await api(minimalQuery(operation, { client: listed }), { key: restricted });
    expect(response.status).toBe(200);
    await expectContract(operation, response);
  });

  it('the client list does not widen the scopes, nor the scopes the client list', async () => {
    const operation = withClient.find((o) => o.scope)!;
    const listOnly = await mintKey({ orgId: main.id, clientIds: [listed], scopes: SCOPES.filter((s) => s !== operation.scope) as Scope[] });
    await expectProblem(await api(minimalQuery(operation, { client: listed }), { key: listOnly }), 403, 'forbidden');
    const allScopes = await mintKey({ orgId: main.id, clientIds: [listed] });
    await expectProblem(await api(minimalQuery(operation, { client: unlisted }), { key: allScopes }), 404, 'not_found');
  });
});

describe('rule 8: /me and /clients need any valid key', () => {
  it.each(SCOPES.map((scope) => [scope]))('a key with only %s reads both', async (scope) => {
    const only = await mintKey({ orgId: main.id, scopes: [scope] });
    await expectContract(meOperation, await api('/api/v1/me', { key: only }));
    await expectContract(clientsOperation, await api('/api/v1/clients', { key: only }));
  });

  it('without a key both are 401', async () => {
    await expectUnauthorized(await api('/api/v1/me'));
    await expectUnauthorized(await api('/api/v1/clients'));
  });
});

describe('rule 11: missing, malformed, unknown, revoked or expired keys are 401', () => {
  it('missing', async () => {
    const body = await expectUnauthorized(await api('/api/v1/me'));
    expect(body.detail).toContain('Authorization: Bearer');
  });

  it('unknown, revoked and expired get one identical answer', async () => {
    const unknown = `${KEY_PREFIX}${'A'.repeat(43)}`;
    const revoked = await mintKey({ orgId: main.id });
    await sql('UPDATE api_keys SET revoked_at = now() WHERE hash = $1', [createHash('sha256').update(revoked).digest('hex')]);
    const expired = await mintKey({ orgId: main.id, expiresAt: new Date(Date.now() + 60_000) });
    await sql(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE hash = $1`, [createHash('sha256').update(expired).digest('hex')]);
    const bodies = [];
    for (const credential of [unknown, revoked, expired]) {
      bodies.push(await expectUnauthorized(await api('/api/v1/me', { key: credential }), 'invalid_token'));
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    // Alike for all, it names every case and the way out of each, without saying which one this is.
    expect(bodies[0]!.detail).toBe(
      'The API key is not valid: it is unknown, revoked or expired, or it was rotated and its overlap has ended. If this key was rotated or revoked, use the key that replaced it or ask an organisation admin for a new one: admins make keys in Settings → API keys (/settings/api-keys).',
    );
  });

  it('a key that expires later works until then', async () => {
    const later = await mintKey({ orgId: main.id, expiresAt: new Date(Date.now() + 3_600_000) });
    await expectContract(meOperation, await api('/api/v1/me', { key: later }));
  });
});

describe('organisation isolation', () => {
  it('a key of the other organisation sees only its own organisation and clients', async () => {
    const otherKey = await mintKey({ orgId: other.id });
    const me = await expectContract<Me>(meOperation, await api('/api/v1/me', { key: otherKey }));
    expect(me.data.org.id).toBe(other.id);
    const clients = await expectContract<{ data: { id: string }[] }>(clientsOperation, await api('/api/v1/clients', { key: otherKey }));
    expect(clients.data.map((c) => c.id)).toEqual((await clientsOf(other.id)).map((c) => c.id));
  });
});
