// Whose requests a reading of the request log or of the daily counts covers, and the status classes
// both group by (the settings pages: a key's page, the organisation's usage, a connected app's page).
import type { SqlParams } from '../db';

/** Whose requests: the organisation's, one key's, one grant's, or every grant of one OAuth client. */
export type RequestScope =
  | { orgId: string; kind: 'org' }
  | { orgId: string; kind: 'key'; keyId: string }
  | { orgId: string; kind: 'grant'; grantId: string }
  | { orgId: string; kind: 'oauth_client'; clientId: string };

/** The status classes, disjoint, as the charts stack them. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The WHERE conditions of a scope, on a table with org_id, api_key_id/subject, grant_id and oauth_client_id. */
export function scopeConditions(scope: RequestScope, params: SqlParams, table: 'log' | 'counts'): string[] {
  const conditions = [`org_id = ${params.add(scope.orgId)}::uuid`];
  if (scope.kind === 'key') conditions.push(table === 'log' ? `api_key_id = ${params.add(scope.keyId)}::uuid` : `subject = ${params.add(`key:${scope.keyId}`)}`);
  if (scope.kind === 'grant') conditions.push(table === 'log' ? `grant_id = ${params.add(scope.grantId)}` : `subject = ${params.add(`grant:${scope.grantId}`)}`);
  if (scope.kind === 'oauth_client') conditions.push(`oauth_client_id = ${params.add(scope.clientId)}`);
  return conditions;
}
