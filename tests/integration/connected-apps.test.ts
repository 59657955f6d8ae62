// Connected apps' data on the real database: an app's detail within the list's reach (the same null
// for a foreign, revoked or impossible id), its redirect hosts and the approving user's reach as it is
// now, "revoke all" within the viewer's reach and audited, tool calls per day, and a revoked app's
// calls still named. Grants are written through the provider's own storage (PostgresAdapter) and then
// completed as the consent step completes them. What revokes grants or changes a member's clients runs
// in an organisation of its own (freshTeam), as other test files use the seeded ones meanwhile.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '@/lib/db';
import { PostgresAdapter } from '@/lib/oauth/adapter';
import { connectedAppDetail, listConnectedApps, revokeAllConnectedApps, revokeConnectedApp, type GrantViewer } from '@/lib/oauth/grants';
import { flushToolCalls, grantCallsPerDay, recentToolCalls, recordToolCall } from '@/lib/usage/tool-calls';
import { freshOrg, grantContext, personOf, seededOrgs } from './platform-support';

const { other } = seededOrgs();
const created: string[] = [];
const teams: { orgId: string; userIds: string[] }[] = [];

afterAll(async () => {
  await sql(`DELETE FROM oauth_payloads WHERE model = 'Grant' AND id = ANY($1)`, [created]);
  for (const team of teams) {
    await sql('DELETE FROM organizations WHERE id = $1', [team.orgId]);
    await sql('DELETE FROM users WHERE id = ANY($1)', [team.userIds]);
  }
});

interface Person {
  userId: string;
  orgId: string;
  membershipId: string;
}

/** An organisation of its own: three clients, an admin, and a member who sees the first two. */
async function freshTeam(): Promise<{ admin: Person; member: Person; clients: { id: string; name: string }[] }> {
  const org = await freshOrg(`apps ${randomUUID()}`);
  const clients = await sql<{ id: string; name: string }>(
    `INSERT INTO clients (id, org_id, name) SELECT gen_random_uuid(), $1, name FROM unnest(ARRAY['Acme', 'Birch', 'Cedar']) AS name RETURNING id, name`,
    [org.id],
  );
  clients.sort((a, b) => a.name.localeCompare(b.name));
  const person = async (role: 'admin' | 'member'): Promise<Person> => {
    const [row] = await sql<{ userId: string; membershipId: string }>(
      `WITH u AS (INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), $1, $2, 'not a hash') RETURNING id)
       INSERT INTO memberships (id, org_id, user_id, role) SELECT gen_random_uuid(), $3, u.id, $4::"Role" FROM u RETURNING user_id AS "userId", id AS "membershipId"`,
      [`${role}-${randomUUID()}@nowhere.example`, `Team ${role}`, org.id, role],
    );
    return { userId: row!.userId, orgId: org.id, membershipId: row!.membershipId };
  };
  const admin = await person('admin');
  const member = await person('member');
  await sql('INSERT INTO member_client_access (membership_id, client_id) SELECT $1, unnest($2::uuid[])', [member.membershipId, clients.slice(0, 2).map((c) => c.id)]);
  teams.push({ orgId: org.id, userIds: [admin.userId, member.userId] });
  return { admin, member, clients };
}

async function grantFor(who: { userId: string; orgId: string }, clientId: string, clientName: string, redirectUris: string[] = []): Promise<string> {
  const id = `grant-${randomUUID()}`;
  await new PostgresAdapter('Grant').upsert(id, { accountId: who.userId, clientId, resources: { 'http://localhost/api/mcp': 'social:read ads:read' } }, 3600);
  await sql(`UPDATE oauth_payloads SET org_id = $2, client_name = $3, redirect_uris = $4 WHERE model = 'Grant' AND id = $1`, [id, who.orgId, clientName, redirectUris]);
  created.push(id);
  return id;
}

function viewer(who: { userId: string; orgId: string }, isAdmin: boolean): GrantViewer {
  return { userId: who.userId, orgId: who.orgId, isAdmin };
}

describe('a connected app’s detail', () => {
  it('says how the app identified itself, its redirect hosts once each, and the reach of its approver now', async () => {
    const { admin, member, clients } = await freshTeam();
    const cimd = 'https://apps.example/oauth/client.json';
    const adminGrant = await grantFor(admin, cimd, 'Visual Studio Code', [
      'http://127.0.0.1:33418/callback',
      'http://127.0.0.1:40000/other',
      'https://apps.example/callback',
      'https://apps.example/again',
      'cursor://anysphere.cursor-mcp/oauth/callback',
    ]);
    const memberGrant = await grantFor(member, 'registered-client-id', 'Claude Code', ['http://localhost:8787/callback']);

    const detail = await connectedAppDetail(viewer(admin, true), adminGrant);
    expect(detail).toMatchObject({
      grantId: adminGrant,
      clientName: 'Visual Studio Code',
      identity: { kind: 'metadata_document', url: cimd },
      redirectHosts: [
        { host: '127.0.0.1', kind: 'loopback' },
        { host: 'apps.example', kind: 'web' },
        { host: 'cursor://anysphere.cursor-mcp', kind: 'app' },
      ],
      scopes: ['ads:read', 'social:read'],
      approvedBy: { id: admin.userId },
      lastUsedAt: null,
      reach: { kind: 'every', clients },
    });
    // What the list shows for this grant, the detail shows too.
    const listed = (await listConnectedApps(viewer(admin, true))).find((app) => app.grantId === adminGrant);
    expect(detail).toMatchObject(listed!);

    const ofMember = await connectedAppDetail(viewer(member, false), memberGrant);
    expect(ofMember).toMatchObject({
      identity: { kind: 'registered', clientId: 'registered-client-id' },
      redirectHosts: [{ host: 'localhost', kind: 'loopback' }],
      reach: { kind: 'listed', clients: clients.slice(0, 2) },
    });
    // The reach is the member's as it is now: one client fewer, one fewer on the page; none, none.
    await sql('DELETE FROM member_client_access WHERE membership_id = $1 AND client_id = $2', [member.membershipId, clients[0]!.id]);
    expect((await connectedAppDetail(viewer(admin, true), memberGrant))?.reach).toEqual({ kind: 'listed', clients: clients.slice(1, 2) });
    await sql('DELETE FROM member_client_access WHERE membership_id = $1', [member.membershipId]);
    expect((await connectedAppDetail(viewer(admin, true), memberGrant))?.reach).toEqual({ kind: 'listed', clients: [] });
    // Once the member leaves, the app reads nothing (every request of it is refused).
    await sql('DELETE FROM memberships WHERE id = $1', [member.membershipId]);
    expect((await connectedAppDetail(viewer(admin, true), memberGrant))?.reach).toEqual({ kind: 'approver_left' });
  });

  it('is null for whatever the list would not show the viewer, and for values no grant id can be', async () => {
    const admin = await personOf('admin@demo.agency');
    const member = await personOf('member@demo.agency');
    const otherAdmin = await personOf('admin@other.agency');
    const adminGrant = await grantFor(admin, 'c1', 'Admin app');
    const memberGrant = await grantFor(member, 'c2', 'Member app');
    const foreignGrant = await grantFor(otherAdmin, 'c3', 'Foreign app');

    expect(await connectedAppDetail(viewer(admin, true), memberGrant)).not.toBeNull();
    expect(await connectedAppDetail(viewer(member, false), adminGrant)).toBeNull();
    expect(await connectedAppDetail(viewer(admin, true), foreignGrant)).toBeNull();
    expect(await connectedAppDetail(viewer(otherAdmin, true), adminGrant)).toBeNull();
    expect(await connectedAppDetail(viewer(admin, true), `grant-${randomUUID()}`)).toBeNull();
    expect(await connectedAppDetail(viewer(admin, true), 'a\u0000b')).toBeNull();
    expect(await connectedAppDetail(viewer(admin, true), 'x'.repeat(129))).toBeNull();
    await sql(`UPDATE oauth_payloads SET expires_at = now() - interval '1 second' WHERE model = 'Grant' AND id = $1`, [adminGrant]);
    expect(await connectedAppDetail(viewer(admin, true), adminGrant)).toBeNull();
  });
});

describe('revoking every app', () => {
  it('revokes what the viewer sees and nothing else, each revocation audited', async () => {
    const { admin, member } = await freshTeam();
    const otherAdmin = await personOf('admin@other.agency');
    const adminGrant = await grantFor(admin, 'c5', 'Admin app');
    const memberGrants = [await grantFor(member, 'c6', 'Member app one'), await grantFor(member, 'c7', 'Member app two')];
    const foreignGrant = await grantFor(otherAdmin, 'c8', 'Foreign app');
    const alive = async (id: string) => (await sql(`SELECT 1 FROM oauth_payloads WHERE model = 'Grant' AND id = $1`, [id])).length === 1;

    // A member: their own apps only.
    expect(await revokeAllConnectedApps(viewer(member, false))).toBe(2);
    expect(await Promise.all(memberGrants.map(alive))).toEqual([false, false]);
    expect(await alive(adminGrant)).toBe(true);
    const events = await sql<{ targetId: string; actorId: string; details: Record<string, string> }>(
      `SELECT target_id AS "targetId", actor_id AS "actorId", details FROM audit_events WHERE action = 'oauth_grant.revoked' AND target_id = ANY($1) ORDER BY details->>'name'`,
      [memberGrants],
    );
    expect(events).toEqual([
      { targetId: memberGrants[0], actorId: member.userId, details: { name: 'Member app one', clientId: 'c6', revokedWith: 'revoke_all' } },
      { targetId: memberGrants[1], actorId: member.userId, details: { name: 'Member app two', clientId: 'c7', revokedWith: 'revoke_all' } },
    ]);

    // An admin: the organisation's, not another organisation's.
    expect(await revokeAllConnectedApps(viewer(admin, true))).toBe(1);
    expect(await alive(adminGrant)).toBe(false);
    expect(await alive(foreignGrant)).toBe(true);
    expect(await listConnectedApps(viewer(admin, true))).toEqual([]);
    expect(await revokeAllConnectedApps(viewer(admin, true))).toBe(0);
    expect(await revokeConnectedApp(viewer(admin, true), foreignGrant)).toBe(false);
  });
});

describe('an app’s tool calls', () => {
  it('are counted per UTC day and tool over the last 30 days', async () => {
    const admin = await personOf('admin@demo.agency');
    const grant = await grantFor(admin, 'c9', 'Counted app');
    const elsewhere = await grantFor(admin, 'c10', 'Another app');
    // Days counted back from today (the record is kept 90 days, so no fixed calendar date would do).
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime();
    const day = (back: number) => new Date(today - back * 86_400_000).toISOString().slice(0, 10);
    const at = (back: number, time: string) => `${day(back)}T${time}Z`;
    const now = new Date(at(0, '10:00:00'));
    const call = (grantId: string, tool: string, when: string) =>
      recordToolCall({ auth: grantContext(admin.orgId, { grantId, clientName: 'Counted app' }), tool, args: {}, rows: 1, durationMs: 1, outcome: 'ok' }, new Date(when));
    call(grant, 'list_clients', at(0, '00:00:00'));
    call(grant, 'list_clients', at(0, '09:59:00'));
    call(grant, 'get_ads_overview', at(0, '01:00:00'));
    call(grant, 'get_ads_overview', at(2, '23:59:59'));
    call(grant, 'get_ads_overview', at(29, '00:00:00')); // the first day of the window
    call(grant, 'get_ads_overview', at(30, '23:59:59')); // the day before it
    call(grant, 'list_clients', at(-1, '00:00:00')); // tomorrow
    call(elsewhere, 'list_clients', at(0, '02:00:00'));
    await flushToolCalls();

    const perDay = await grantCallsPerDay(admin.orgId, grant, now);
    expect(perDay.tools).toEqual(['get_ads_overview', 'list_clients']);
    expect(perDay.days).toHaveLength(30);
    expect(perDay.days[0]).toEqual({ day: day(29), counts: { get_ads_overview: 1 }, total: 1 });
    expect(perDay.days.at(-1)).toEqual({ day: day(0), counts: { get_ads_overview: 1, list_clients: 2 }, total: 3 });
    expect(perDay.days.find((entry) => entry.day === day(2))).toEqual({ day: day(2), counts: { get_ads_overview: 1 }, total: 1 });
    expect(perDay.days.reduce((sum, entry) => sum + entry.total, 0)).toBe(5);
    // Another organisation asking for this grant gets nothing.
    expect((await grantCallsPerDay(other.id, grant, now)).tools).toEqual([]);
  });

  it('keep naming the app once it is revoked', async () => {
    const { admin } = await freshTeam();
    const grant = await grantFor(admin, 'c11', 'Soon revoked');
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    recordToolCall({ auth: grantContext(admin.orgId, { grantId: grant, clientName: 'Soon revoked' }), tool: 'list_clients', args: {}, rows: 1, durationMs: 1, outcome: 'ok' }, at);
    await flushToolCalls();
    expect((await recentToolCalls(admin.orgId, 1))[0]).toMatchObject({ at, caller: 'Soon revoked', callerKind: 'oauth_grant' });
    expect(await revokeConnectedApp(viewer(admin, true), grant)).toBe(true);
    expect((await recentToolCalls(admin.orgId, 1))[0]).toMatchObject({ at, caller: 'Soon revoked (revoked)', callerKind: 'oauth_grant' });
  });
});
