// Shared helpers of the platform's integration tests: the seeded organisations and their clients
// (read with independent SQL), and a minimal valid query for any operation, derived from its schema.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { z } from 'zod';
import { sql } from '@/lib/db';
import type { OAuthGrantContext } from '@/lib/contract/credential';
import type { Operation } from '@/lib/contract/operation';
import { SEED_END_DATE } from '../support/global-setup';

export const RANGE = { from: '2026-06-01', to: SEED_END_DATE };

export function seededOrgs(): { main: { id: string; name: string }; other: { id: string; name: string } } {
  const { orgs } = inject('seed');
  return { main: orgs[0]!, other: orgs[1]! };
}

/** A seeded person's user id and first membership. */
export async function personOf(email: string): Promise<{ userId: string; orgId: string; membershipId: string }> {
  const [row] = await sql<{ userId: string; orgId: string; membershipId: string }>(
    `SELECT u.id AS "userId", m.org_id AS "orgId", m.id AS "membershipId" FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE u.email = $1 ORDER BY m.created_at LIMIT 1`,
    [email],
  );
  if (!row) throw new Error(`No seeded person ${email}`);
  return row;
}

/** A new organisation with nothing in it, for a test that counts what one organisation holds. */
export async function freshOrg(name: string): Promise<{ id: string; slug: string; name: string }> {
  const [org] = await sql<{ id: string; slug: string; name: string }>(
    `INSERT INTO organizations (id, slug, name) VALUES (gen_random_uuid(), 'test-' || gen_random_uuid(), $1) RETURNING id, slug, name`,
    [name],
  );
  return org!;
}

export async function clientsOf(orgId: string): Promise<{ id: string; name: string }[]> {
  return sql<{ id: string; name: string }>('SELECT id, name FROM clients WHERE org_id = $1 ORDER BY name, id', [orgId]);
}

/** The query an operation needs to pass validation: required parameters filled with valid values. */
export function minimalQuery(operation: Operation, extra: Record<string, string> = {}): string {
  const schema = z.toJSONSchema(operation.query, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { enum?: string[]; const?: string; format?: string; pattern?: string }>;
    required?: string[];
  };
  const params = new URLSearchParams();
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name] ?? {};
    if (name === 'from' || name === 'to') params.set(name, RANGE[name]);
    else if (property.enum) params.set(name, property.enum[0]!);
    else if (property.const) params.set(name, property.const);
    else if (property.format === 'uuid') params.set(name, '00000000-0000-4000-8000-000000000000');
    else params.set(name, 'x');
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const text = params.toString();
  return `/api/v1${operation.path}${text ? `?${text}` : ''}`;
}

/**
 * An organisation of its own with one admin and one client: for tests that create keys or grants
 * through the pages, so that the seeded organisations' lists change only where a test expects it.
 */
export async function newOrganisationAdmin(label: string): Promise<{ userId: string; orgId: string; clientId: string }> {
  const [orgId, userId, clientId] = [randomUUID(), randomUUID(), randomUUID()];
  await sql('INSERT INTO organizations (id, slug, name) VALUES ($1, $2, $3)', [orgId, `${label}-${orgId.slice(0, 8)}`, `${label} agency`]);
  await sql(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, 'x')`, [userId, `admin-${userId}@${label}.test`, `${label} admin`]);
  await sql(`INSERT INTO memberships (id, org_id, user_id, role) VALUES ($1, $2, $3, 'admin')`, [randomUUID(), orgId, userId]);
  await sql('INSERT INTO clients (id, org_id, name) VALUES ($1, $2, $3)', [clientId, orgId, `${label} client`]);
  return { userId, orgId, clientId };
}


/** The context of a connected app's token (as verifyAccessToken makes it), for code that records or reads its calls. */
export function grantContext(orgId: string, fields: Partial<OAuthGrantContext> = {}): OAuthGrantContext {
  return {
    kind: 'oauth_grant',
    grantId: `grant-${randomUUID()}`,
    clientId: 'https://client.example/metadata.json',
    clientName: 'Client',
    userId: randomUUID(),
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    orgId,
    orgName: 'org',
    scopes: ['ads:read'],
    clientIds: null,
    ...fields,
  };
}
