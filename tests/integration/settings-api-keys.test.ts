// The settings services for API keys on the seeded database: create (through createApiKey) with an
// audit event, list, revoke with an audit event, and the REST API's answer to the key at each step.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { InvalidKeyRequest } from '@/lib/keys/issuing';
import { sql } from '@/lib/db';
import { createApiKey } from '@/lib/keys/issuing';
import { createOrgApiKey, filterKeys, listApiKeys, listOrgClients, revokeOrgApiKey, rotateOrgApiKey, updateOrgApiKey } from '@/lib/keys/management';
import { listAuditEvents } from '@/lib/audit/events';
import { parseKeyForm } from '@/lib/settings/key-form';
import { api } from '../support/api';
import { freshOrg } from './platform-support';

const seed = inject('seed');
const mainOrg = seed.orgs[0]!;
const otherOrg = seed.orgs[1]!;

async function admin(orgId: string) {
  const [row] = await sql<{ user_id: string; name: string }>(
    `SELECT u.id AS user_id, u.name FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE m.org_id = $1 AND m.role = 'admin' ORDER BY m.created_at LIMIT 1`,
    [orgId],
  );
  return { userId: row!.user_id, name: row!.name, orgId };
}

async function clientsOf(orgId: string) {
  return sql<{ id: string; name: string }>('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name, id', [orgId]);
}

function form(fields: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
}

describe('createOrgApiKey', () => {
  it('mints a restricted key that reads only its clients, and records who created it', async () => {
    const actor = await admin(mainOrg.id);
    const clients = await clientsOf(mainOrg.id);
    const chosen = [clients[2]!, clients[0]!];
    const created = await createOrgApiKey(actor, { name: 'Looker', scopes: ['ads:read'], clientIds: chosen.map((c) => c.id), expiresAt: null });

    expect(created.key).toMatch(/^mk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    const [row] = await sql<Record<string, unknown>>(
      `SELECT org_id, name, prefix, hash, scopes, restricted_to_clients, created_by_id, created_via, revoked_at,
              ARRAY(SELECT client_id::text FROM api_key_clients WHERE api_key_id = k.id ORDER BY client_id) AS clients
         FROM api_keys k WHERE id = $1`,
      [created.id],
    );
    expect(row).toEqual({
      org_id: mainOrg.id,
      name: 'Looker',
      prefix: created.prefix,
      hash: createHash('sha256').update(created.key).digest('hex'),
      scopes: ['ads:read'],
      restricted_to_clients: true,
      created_by_id: actor.userId,
      created_via: 'settings',
      revoked_at: null,
      clients: chosen.map((c) => c.id).sort(),
    });

    const events = await sql<Record<string, unknown>>('SELECT org_id, actor_id, action, target_type, details FROM audit_events WHERE target_id = $1', [created.id]);
    expect(events).toEqual([
      {
        org_id: mainOrg.id,
        actor_id: actor.userId,
        action: 'api_key.created',
        target_type: 'api_key',
        details: { name: 'Looker', prefix: created.prefix, scopes: ['ads:read'], clientIds: chosen.map((c) => c.id), expiresAt: null, createdVia: 'settings' },
      },
    ]);

    const response = await api('/api/v1/clients', { key: created.key });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; name: string }[] };
    expect(body.data.map(({ id, name }) => ({ id, name }))).toEqual([chosen[1], chosen[0]]);
  });

  it("refuses another organisation's client and records nothing", async () => {
    const actor = await admin(mainOrg.id);
    const [foreign] = await clientsOf(otherOrg.id);
    const keysBefore = await sql('SELECT id FROM api_keys WHERE org_id = $1', [mainOrg.id]);
    await expect(createOrgApiKey(actor, { name: 'Sneaky', scopes: ['ads:read'], clientIds: [foreign!.id], expiresAt: null })).rejects.toBeInstanceOf(InvalidKeyRequest);
    expect(await sql('SELECT id FROM api_keys WHERE org_id = $1', [mainOrg.id])).toEqual(keysBefore);
    expect(await sql("SELECT 1 FROM audit_events WHERE details->>'name' = 'Sneaky'")).toHaveLength(0);
  });
});

describe('the cap on active keys of an organisation', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const request = { name: 'Capped', scopes: ['ads:read' as const], clientIds: null, expiresAt: null };
  const activeKeys = async (orgId: string) =>
    (await sql<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())', [orgId]))[0]!.n;

  it('refuses a key past API_KEYS_PER_ORG_MAX active ones with a clear message; revoked and expired keys free their place', async () => {
    vi.stubEnv('API_KEYS_PER_ORG_MAX', '2');
    const org = await freshOrg('Key cap');
    const actor = { userId: (await admin(mainOrg.id)).userId, orgId: org.id };
    const first = await createOrgApiKey(actor, request);
    const second = await createOrgApiKey(actor, request);
    const refused = createOrgApiKey(actor, request);
    await expect(refused).rejects.toBeInstanceOf(InvalidKeyRequest);
    await expect(refused).rejects.toThrow('The organisation has 2 active keys and may have at most 2. Revoke a key it no longer uses, then create this one.');
    expect(await sql("SELECT 1 FROM audit_events WHERE org_id = $1 AND action = 'api_key.created'", [org.id])).toHaveLength(2);

    expect(await revokeOrgApiKey(actor, first.id)).toBe(true);
    await createOrgApiKey(actor, request);
    await sql("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [second.id]);
    await createOrgApiKey(actor, request);
    expect(await activeKeys(org.id)).toBe(2);
    await expect(createOrgApiKey(actor, request)).rejects.toBeInstanceOf(InvalidKeyRequest);
  });

  it('lets only one of several simultaneous mints take the last place', async () => {
    vi.stubEnv('API_KEYS_PER_ORG_MAX', '1');
    const org = await freshOrg('Key cap race');
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => createApiKey({ ...request, orgId: org.id, createdById: null })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) expect(outcome.reason).toBeInstanceOf(InvalidKeyRequest);
    expect(await activeKeys(org.id)).toBe(1);
  });
});

describe('a key minted by a command-line program', () => {
  it('is recorded as created via the command line, with a creation event that has no actor, and is listed so', async () => {
    // What `npm run key:create` and `npm run demo` call: no person behind the key.
    const created = await createApiKey({ orgId: mainOrg.id, name: 'Minted by CLI', scopes: ['web:read'], clientIds: null, expiresAt: null, createdById: null });
    const [row] = await sql<{ created_by_id: string | null; created_via: string }>('SELECT created_by_id, created_via FROM api_keys WHERE id = $1', [created.id]);
    expect(row).toEqual({ created_by_id: null, created_via: 'cli' });
    const events = await sql<Record<string, unknown>>('SELECT org_id, actor_id, action, target_type, details FROM audit_events WHERE target_id = $1', [created.id]);
    expect(events).toEqual([
      {
        org_id: mainOrg.id,
        actor_id: null,
        action: 'api_key.created',
        target_type: 'api_key',
        details: { name: 'Minted by CLI', prefix: created.prefix, scopes: ['web:read'], clientIds: null, expiresAt: null, createdVia: 'cli' },
      },
    ]);

    const listed = (await listApiKeys(mainOrg.id)).find((k) => k.id === created.id);
    expect(listed).toMatchObject({ createdVia: 'cli', createdByName: null });
    const entry = (await listAuditEvents(mainOrg.id, 'api_key')).find((e) => e.targetPrefix === created.prefix);
    expect(entry).toMatchObject({ action: 'api_key.created', actorName: null, fromCommandLine: true, targetName: 'Minted by CLI' });
  });

  it('a settings key whose creator has left stays a settings key', async () => {
    const [user] = await sql<{ id: string }>(`INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), 'leaver-keys@demo.agency', 'Leaver', 'x') RETURNING id`);
    const created = await createOrgApiKey({ userId: user!.id, orgId: mainOrg.id }, { name: 'Left behind', scopes: ['ads:read'], clientIds: null, expiresAt: null });
    await sql('DELETE FROM users WHERE id = $1', [user!.id]);
    const listed = (await listApiKeys(mainOrg.id)).find((k) => k.id === created.id);
    expect(listed).toMatchObject({ createdVia: 'settings', createdByName: null });
    const entry = (await listAuditEvents(mainOrg.id, 'api_key')).find((e) => e.targetPrefix === created.prefix);
    expect(entry).toMatchObject({ actorName: null, fromCommandLine: false });
  });
});

describe('revokeOrgApiKey', () => {
  it('revokes once, records who did it, and the key answers 401 from then on', async () => {
    const actor = await admin(mainOrg.id);
    const created = await createOrgApiKey(actor, { name: 'Short-lived', scopes: ['social:read'], clientIds: null, expiresAt: null });
    expect((await api('/api/v1/clients', { key: created.key })).status).toBe(200);

    expect(await revokeOrgApiKey(actor, created.id)).toBe(true);
    expect(await revokeOrgApiKey(actor, created.id)).toBe(false);

    const [row] = await sql<{ revoked_at: Date | null; revoked_by_id: string | null }>('SELECT revoked_at, revoked_by_id FROM api_keys WHERE id = $1', [created.id]);
    expect(row!.revoked_at).toBeInstanceOf(Date);
    expect(row!.revoked_by_id).toBe(actor.userId);
    const events = await sql<{ action: string; actor_id: string }>('SELECT action, actor_id FROM audit_events WHERE target_id = $1 ORDER BY created_at', [created.id]);
    expect(events).toEqual([
      { action: 'api_key.created', actor_id: actor.userId },
      { action: 'api_key.revoked', actor_id: actor.userId },
    ]);

    const response = await api('/api/v1/clients', { key: created.key });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it("cannot touch another organisation's key", async () => {
    const owner = await admin(mainOrg.id);
    const stranger = await admin(otherOrg.id);
    const created = await createOrgApiKey(owner, { name: 'Not yours', scopes: ['ads:read'], clientIds: null, expiresAt: null });
    expect(await revokeOrgApiKey(stranger, created.id)).toBe(false);
    expect(await sql('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [created.id])).toHaveLength(1);
    expect(await sql("SELECT 1 FROM audit_events WHERE target_id = $1 AND action = 'api_key.revoked'", [created.id])).toHaveLength(0);
  });
});

describe('listApiKeys and listAuditEvents', () => {
  it("list the organisation's keys newest first with creator, clients and status", async () => {
    const actor = await admin(otherOrg.id);
    const [client] = await clientsOf(otherOrg.id);
    const expiresAt = new Date(Date.now() + 86_400_000);
    const first = await createOrgApiKey(actor, { name: 'Everything', scopes: ['ads:read', 'web:read'], clientIds: null, expiresAt: null });
    const second = await createOrgApiKey(actor, { name: 'One client', scopes: ['store:read'], clientIds: [client!.id], expiresAt });
    await revokeOrgApiKey(actor, first.id);

    const keys = await listApiKeys(otherOrg.id);
    const orgKeyIds = await sql<{ id: string }>('SELECT id FROM api_keys WHERE org_id = $1 ORDER BY created_at DESC, id DESC', [otherOrg.id]);
    expect(keys.map((k) => k.id)).toEqual(orgKeyIds.map((k) => k.id));
    expect(keys.find((k) => k.id === second.id)).toMatchObject({
      name: 'One client',
      prefix: second.prefix,
      scopes: ['store:read'],
      clients: [{ id: client!.id, name: client!.name }],
      createdByName: actor.name,
      lastUsedAt: null,
      expiresAt,
      revokedAt: null,
      status: 'active',
    });
    expect(keys.find((k) => k.id === first.id)).toMatchObject({ clients: null, status: 'revoked', revokedByName: actor.name });
    // A day later the expiring key reads as expired.
    const later = await listApiKeys(otherOrg.id, new Date(expiresAt.getTime() + 1));
    expect(later.find((k) => k.id === second.id)?.status).toBe('expired');

    const events = await listAuditEvents(otherOrg.id, 'api_key');
    expect(events.slice(0, 3).map((e) => [e.action, e.actorName, e.targetName])).toEqual([
      ['api_key.revoked', actor.name, 'Everything'],
      ['api_key.created', actor.name, 'One client'],
      ['api_key.created', actor.name, 'Everything'],
    ]);
    // Nothing of the other organisation.
    const mainKeyIds = new Set((await sql<{ id: string }>('SELECT id FROM api_keys WHERE org_id = $1', [mainOrg.id])).map((k) => k.id));
    expect(keys.some((k) => mainKeyIds.has(k.id))).toBe(false);
  });

  it('filterKeys keeps the keys matching every word, by name, prefix, scope, client or status', async () => {
    const actor = await admin(otherOrg.id);
    const [client] = await clientsOf(otherOrg.id);
    const looker = await createOrgApiKey(actor, { name: 'Looker Studio', scopes: ['ads:read'], clientIds: [client!.id], expiresAt: null });
    const bot = await createOrgApiKey(actor, { name: 'Reporting bot', scopes: ['store:read'], clientIds: null, expiresAt: null });
    await revokeOrgApiKey(actor, bot.id);
    const keys = (await listApiKeys(otherOrg.id)).filter((k) => k.id === looker.id || k.id === bot.id);
    const ids = (query: string) => filterKeys(keys, query).map((k) => k.id);
    expect(ids('')).toEqual([bot.id, looker.id]);
    expect(ids('  ')).toEqual([bot.id, looker.id]);
    expect(ids('LOOKER')).toEqual([looker.id]);
    expect(ids(bot.prefix)).toEqual([bot.id]);
    expect(ids('store:read')).toEqual([bot.id]);
    expect(ids(client!.name)).toEqual([looker.id]);
    expect(ids('revoked')).toEqual([bot.id]);
    expect(ids('active ads')).toEqual([looker.id]);
    expect(ids('active store')).toEqual([]);
  });

  it('listOrgClients returns the organisation’s clients by name', async () => {
    expect(await listOrgClients(mainOrg.id)).toEqual(await clientsOf(mainOrg.id));
  });
});

describe('parseKeyForm', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const client = '00000000-0000-4000-8000-000000000001';

  it('reads a complete form', () => {
    expect(
      parseKeyForm(
        form([['name', '  Bot  '], ['scopes', 'ads:read'], ['scopes', 'store:read'], ['clientAccess', 'selected'], ['clients', client], ['expiry', 'date'], ['expiresOn', '2026-11-22']]),
        now,
      ),
    ).toEqual({ request: { name: 'Bot', scopes: ['ads:read', 'store:read'], clientIds: [client], expiresAt: new Date('2026-11-22T23:59:59.999Z') } });
  });

  it('ignores the client list when all clients are allowed, and an empty expiry means none', () => {
    expect(parseKeyForm(form([['name', 'Bot'], ['scopes', 'web:read'], ['clientAccess', 'all'], ['clients', client], ['expiry', 'never'], ['expiresOn', '']]), now)).toEqual({
      request: { name: 'Bot', scopes: ['web:read'], clientIds: null, expiresAt: null },
    });
    // A day left in the hidden date field counts only when "On a day" is chosen.
    expect(parseKeyForm(form([['name', 'Bot'], ['scopes', 'web:read'], ['expiry', 'never'], ['expiresOn', '2020-01-01']]), now)).toEqual({
      request: { name: 'Bot', scopes: ['web:read'], clientIds: null, expiresAt: null },
    });
  });

  it('reads the presets as the end of the day so many days from today (UTC)', () => {
    const preset = (days: string) => parseKeyForm(form([['name', 'Bot'], ['scopes', 'ads:read'], ['expiry', days]]), now);
    expect(preset('30')).toEqual({ request: { name: 'Bot', scopes: ['ads:read'], clientIds: null, expiresAt: new Date('2026-12-22T23:59:59.999Z') } });
    expect(preset('90')).toMatchObject({ request: { expiresAt: new Date('2027-02-20T23:59:59.999Z') } });
    expect(preset('365')).toMatchObject({ request: { expiresAt: new Date('2027-11-22T23:59:59.999Z') } });
    expect(preset('7')).toEqual({ errors: { expiresOn: 'Choose when the key expires.' } });
    expect(parseKeyForm(form([['name', 'Bot'], ['scopes', 'ads:read'], ['expiry', 'date']]), now)).toEqual({ errors: { expiresOn: 'Choose the day the key expires.' } });
  });

  it('reports one message per field', () => {
    expect(parseKeyForm(form([['name', ' '], ['scopes', 'admin:write'], ['clientAccess', 'selected'], ['expiry', 'date'], ['expiresOn', '2026-02-30']]), now)).toEqual({
      errors: { name: 'Give the key a name.', scopes: 'Unknown scope.', clients: 'Choose at least one client, or allow all clients.', expiresOn: 'Enter a date such as 2026-12-31.' },
    });
    expect(parseKeyForm(form([['name', 'Bot'], ['clientAccess', 'all']]), now)).toEqual({ errors: { scopes: 'Choose at least one scope.' } });
    // A past day, posted past the date field's `min`, is refused by the action's own check.
    expect(parseKeyForm(form([['name', 'Bot'], ['scopes', 'ads:read'], ['clientAccess', 'all'], ['expiry', 'date'], ['expiresOn', '2026-11-21']]), now)).toEqual({
      errors: { expiresOn: 'Choose today or a later day.' },
    });
  });
});

describe('rotateOrgApiKey and updateOrgApiKey', () => {
  it('treat another organisation’s key as absent and change nothing of it', async () => {
    const actor = await admin(mainOrg.id);
    const foreign = await createOrgApiKey(await admin(otherOrg.id), { name: 'Foreign key', scopes: ['ads:read'], clientIds: null, expiresAt: null });
    await expect(rotateOrgApiKey(actor, foreign.id, '1h')).rejects.toThrow(
      new InvalidKeyRequest('There is no active key to rotate: it may have been revoked, have expired or have retired.'),
    );
    expect(await updateOrgApiKey(actor, foreign.id, { name: 'Taken over', note: null })).toBe(false);
    expect(await sql('SELECT name, retires_at FROM api_keys WHERE id = $1', [foreign.id])).toEqual([{ name: 'Foreign key', retires_at: null }]);
    expect(await sql('SELECT 1 FROM api_keys WHERE rotated_from_id = $1', [foreign.id])).toHaveLength(0);
  });

  it('list the rotation on both keys, with the statuses retiring and then retired', async () => {
    const actor = await admin(mainOrg.id);
    const old = await createOrgApiKey(actor, { name: 'Listed rotation', scopes: ['ads:read'], clientIds: null, expiresAt: null });
    const rotated = await rotateOrgApiKey(actor, old.id, '7d');
    const listed = await listApiKeys(mainOrg.id);
    const oldItem = listed.find((k) => k.id === old.id)!;
    const newItem = listed.find((k) => k.id === rotated.id)!;
    expect(oldItem).toMatchObject({ status: 'retiring', replacedBy: { id: rotated.id, prefix: rotated.prefix, retiresAt: rotated.retiring.retiresAt }, rotatedFrom: null });
    expect(newItem).toMatchObject({ status: 'active', rotatedFrom: { id: old.id, prefix: old.prefix }, replacedBy: null, name: 'Listed rotation' });
    const later = await listApiKeys(mainOrg.id, new Date(rotated.retiring.retiresAt.getTime() + 1));
    expect(later.find((k) => k.id === old.id)!.status).toBe('retired');
    expect(filterKeys(listed, 'listed retiring').map((k) => k.id)).toEqual([old.id]);
  });

  it('records a rename once, with the name before, and records nothing for a save that changes nothing', async () => {
    const actor = await admin(mainOrg.id);
    const key = await createOrgApiKey(actor, { name: 'Before rename', scopes: ['ads:read'], clientIds: null, expiresAt: null });
    expect(await updateOrgApiKey(actor, key.id, { name: 'After rename', note: 'Deployed on the reporting server.' })).toBe(true);
    expect(await updateOrgApiKey(actor, key.id, { name: 'After rename', note: 'Deployed on the reporting server.' })).toBe(true);
    const events = await sql<{ actor_id: string; details: unknown }>("SELECT actor_id, details FROM audit_events WHERE target_id = $1 AND action = 'api_key.updated'", [key.id]);
    expect(events).toEqual([{ actor_id: actor.userId, details: { name: 'After rename', prefix: key.prefix, previousName: 'Before rename', noteChanged: true } }]);
    const entry = (await listAuditEvents(mainOrg.id, 'api_key', 50)).find((e) => e.action === 'api_key.updated' && e.targetPrefix === key.prefix)!;
    expect(entry).toMatchObject({ targetName: 'After rename', previousName: 'Before rename', rotatedFromPrefix: null, retiresAt: null });
  });
});
