// `npm run key:create` against the test database: the printed key works, only its hash is stored,
// and bad input gets a clear error.
import { createHash } from 'node:crypto';
import { describe, expect, inject, it, vi } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { InvalidKeyRequest, KEY_PATTERN } from '@/lib/auth/api-keys';
import { createKeyFromArgs, UsageError } from '@/scripts/key-create';
import { sql } from '@/lib/db';
import { api } from '../support/api';
import { expectContract } from '../support/contract';
import { clientsOf, freshOrg, seededOrgs } from './platform-support';

const { main, other } = seededOrgs();
const slugOf = (id: string) => inject('seed').orgs.find((org) => org.id === id)!.slug;

describe('key:create', () => {
  it('mints a working key by org slug, prints it once and stores only its hash', async () => {
    const client = (await clientsOf(main.id))[0]!.id;
    const lines = await createKeyFromArgs(['--org', slugOf(main.id), '--scopes', 'ads:read', '--clients', client, '--name', 'cli test']);
    const key = lines[lines.length - 1]!;
    expect(key).toMatch(KEY_PATTERN);
    expect(lines.filter((line) => line.includes(key))).toHaveLength(1);
    const [row] = await sql<{ name: string; scopes: string[]; org_id: string }>('SELECT name, scopes, org_id FROM api_keys WHERE hash = $1', [
      createHash('sha256').update(key).digest('hex'),
    ]);
    expect(row).toEqual({ name: 'cli test', scopes: ['ads:read'], org_id: main.id });
    const me = await expectContract<{ data: { clientIds: string[] } }>(meOperation, await api('/api/v1/me', { key }));
    expect(me.data.clientIds).toEqual([client]);
  });

  it('accepts the organisation id too', async () => {
    const lines = await createKeyFromArgs(['--org', other.id, '--scopes', 'store:read']);
    expect(lines[0]).toContain(other.name);
  });

  it("refuses a key past the organisation's cap on active keys, saying so", async () => {
    vi.stubEnv('API_KEYS_PER_ORG_MAX', '1');
    try {
      const org = await freshOrg('CLI key cap');
      await createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read']);
      const refused = createKeyFromArgs(['--org', org.slug, '--scopes', 'ads:read']);
      await expect(refused).rejects.toBeInstanceOf(InvalidKeyRequest);
      await expect(refused).rejects.toThrow('The organisation has 1 active key and may have at most 1. Revoke a key it no longer uses, then create this one.');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses an unknown organisation and a client of another organisation', async () => {
    await expect(createKeyFromArgs(['--org', 'no-such-org', '--scopes', 'ads:read'])).rejects.toThrow(UsageError);
    const foreign = (await clientsOf(other.id))[0]!.id;
    await expect(createKeyFromArgs(['--org', main.id, '--scopes', 'ads:read', '--clients', foreign])).rejects.toThrow(InvalidKeyRequest);
  });
});
