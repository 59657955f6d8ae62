// Organisations, their people and their clients.
import { hash } from '@node-rs/argon2';
import { clientIdentities } from './catalog';
import type { TableData } from './copy';
import type { OrgModel, SeedContext } from './context';
import { IdSource, Rng } from './random';
import type { OrgShape } from './scales';

export function buildOrg(ctx: SeedContext, shape: OrgShape, index: number): OrgModel {
  const rng = new Rng(ctx.seed, `org/${index}`);
  const ids = new IdSource(rng);
  const cal = ctx.calendar;
  // Organisations and clients predate the synced range, so every resource's history fits inside them.
  const orgDay = -60 - index * 7;
  const clients = clientIdentities(index, shape.clients).map((identity, i) => ({
    ...identity,
    id: ids.uuid('client'),
    index: i,
    createdAt: cal.istTime(orgDay + 5 + Math.floor((i * 30) / shape.clients), 10 + (i % 8)),
  }));
  const users = shape.users.map((user, i) => ({
    ...user,
    id: ids.uuid('user'),
    membershipId: ids.uuid('membership'),
    createdAt: cal.istTime(orgDay + i, 9.5),
  }));
  return {
    index,
    id: ids.uuid('org'),
    slug: shape.slug,
    name: shape.name,
    createdAt: cal.istTime(orgDay, 9),
    shape,
    rng,
    ids,
    clients,
    users,
    // Members see roughly two clients in three: never the first, which holds the most ads data.
    memberClientIds: clients.filter((c) => c.index % 3 !== 0).map((c) => c.id),
  };
}

/** argon2id hashes with salts drawn from the seed, so that the users table is reproducible too. */
export async function hashPasswords(seed: number, orgs: readonly OrgModel[], password: string): Promise<Map<string, string>> {
  const users = orgs.flatMap((org) => org.users);
  // Hashed concurrently: argon2 runs on libuv's thread pool.
  const hashes = await Promise.all(
    users.map((user) => {
      const saltRng = new Rng(seed, `salt/${user.email}`);
      return hash(password, { salt: Uint8Array.from({ length: 16 }, () => saltRng.int(0, 255)) });
    }),
  );
  return new Map(users.map((user, i) => [user.email, hashes[i] ?? '']));
}

export function peopleTables(orgs: readonly OrgModel[], passwordHashes: Map<string, string>): TableData[] {
  const users = orgs.flatMap((org) => org.users);
  return [
    {
      table: 'organizations',
      columns: ['id', 'slug', 'name', 'created_at'],
      expectedRows: orgs.length,
      rows: () => orgs.map((o) => [o.id, o.slug, o.name, o.createdAt]),
    },
    {
      table: 'users',
      columns: ['id', 'email', 'name', 'password_hash', 'created_at'],
      expectedRows: users.length,
      rows: () => users.map((u) => [u.id, u.email, u.name, passwordHashes.get(u.email) ?? null, u.createdAt]),
    },
    {
      table: 'memberships',
      columns: ['id', 'org_id', 'user_id', 'role', 'created_at'],
      expectedRows: users.length,
      rows: () => orgs.flatMap((o) => o.users.map((u) => [u.membershipId, o.id, u.id, u.role, u.createdAt])),
    },
    {
      table: 'clients',
      columns: ['id', 'org_id', 'name', 'created_at'],
      expectedRows: orgs.reduce((n, o) => n + o.clients.length, 0),
      rows: () => orgs.flatMap((o) => o.clients.map((c) => [c.id, o.id, c.name, c.createdAt])),
    },
    {
      table: 'member_client_access',
      columns: ['membership_id', 'client_id'],
      expectedRows: orgs.reduce((n, o) => n + o.users.filter((u) => u.role === 'member').length * o.memberClientIds.length, 0),
      rows: () =>
        orgs.flatMap((o) =>
          o.users.filter((u) => u.role === 'member').flatMap((u) => o.memberClientIds.map((clientId) => [u.membershipId, clientId])),
        ),
    },
  ];
}
