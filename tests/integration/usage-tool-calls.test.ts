// The record of MCP tool calls on the real database: batched writes, counts per key and per grant,
// the organisation's recent calls, arguments kept only as a hash, and a bounded queue.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiKeyContext } from '@/lib/contract/credential';
import { sql } from '@/lib/db';
import { argumentsHash, flushToolCalls, recentToolCalls, recordToolCall, toolCallCounts } from '@/lib/usage/tool-calls';
import { mintKey } from '../support/api';
import { grantContext, seededOrgs } from './platform-support';

const { main, other } = seededOrgs();

async function keyContext(orgId: string, name: string): Promise<ApiKeyContext> {
  await mintKey({ orgId, name });
  const [row] = await sql<{ id: string; prefix: string }>('SELECT id, prefix FROM api_keys WHERE org_id = $1 AND name = $2', [orgId, name]);
  return { kind: 'api_key', keyId: row!.id, keyName: name, keyPrefix: row!.prefix, expiresAt: null, orgId, orgName: 'org', scopes: ['ads:read'], clientIds: null };
}

describe('tool-call records', () => {
  it('are written in a batch, counted per key and per grant, and listed newest first for the organisation only', async () => {
    const name = `usage ${randomUUID()}`;
    const key = await keyContext(main.id, name);
    const grant = grantContext(main.id);
    const foreign = await keyContext(other.id, `usage ${randomUUID()}`);
    // An hour ahead, whole seconds: newer than the calls other tests record meanwhile (at the real time)
    // in the same organisation, so that these are its newest whatever the day the tests run.
    const base = Math.floor(Date.now() / 1000) * 1000 + 3_600_000;
    const at = (seconds: number) => new Date(base + seconds * 1000);
    recordToolCall({ auth: key, tool: 'list_clients', args: {}, rows: 3, durationMs: 12.4, outcome: 'ok' }, at(1));
    recordToolCall({ auth: key, tool: 'get_ads_overview', args: { from: '2026-06-01', to: '2026-06-30' }, rows: 1, durationMs: 40, outcome: 'ok' }, at(2));
    recordToolCall({ auth: grant, tool: 'list_ad_entities', args: { level: 'ad' }, rows: null, durationMs: 3, outcome: 'validation_failed' }, at(3));
    recordToolCall({ auth: foreign, tool: 'list_clients', args: {}, rows: 1, durationMs: 5, outcome: 'ok' }, at(4));
    await flushToolCalls();

    const counts = await toolCallCounts(main.id);
    expect(counts.byKey.get(key.keyId)).toEqual({ calls: 2, lastCallAt: at(2) });
    expect(counts.byGrant.get(grant.grantId)).toEqual({ calls: 1, lastCallAt: at(3) });
    expect(counts.byKey.has(foreign.keyId)).toBe(false);

    const recent = (await recentToolCalls(main.id, 50)).filter((call) => call.caller === name || call.caller === 'Client (revoked)');
    expect(recent.slice(0, 3)).toEqual([
      { at: at(3), tool: 'list_ad_entities', caller: 'Client (revoked)', callerKind: 'oauth_grant', rows: null, durationMs: 3, outcome: 'validation_failed' },
      { at: at(2), tool: 'get_ads_overview', caller: name, callerKind: 'api_key', rows: 1, durationMs: 40, outcome: 'ok' },
      { at: at(1), tool: 'list_clients', caller: name, callerKind: 'api_key', rows: 3, durationMs: 12, outcome: 'ok' },
    ]);
  });

  it('keep the arguments only as a hash that does not depend on their order', async () => {
    const key = await keyContext(main.id, `usage ${randomUUID()}`);
    const args = { to: '2026-06-30', from: '2026-06-01', client: randomUUID() };
    recordToolCall({ auth: key, tool: 'get_ads_overview', args, rows: 1, durationMs: 1, outcome: 'ok' });
    await flushToolCalls();
    const [row] = await sql<{ argumentsHash: string }>('SELECT arguments_hash AS "argumentsHash" FROM mcp_tool_calls WHERE api_key_id = $1', [key.keyId]);
    expect(row!.argumentsHash).toBe(argumentsHash({ from: args.from, client: args.client, to: args.to }));
    expect(row!.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(args.client);
  });

  it('keep at most 10,000 unwritten records, dropping the oldest', async () => {
    const key = await keyContext(main.id, `usage ${randomUUID()}`);
    for (let i = 0; i < 10_050; i += 1) recordToolCall({ auth: key, tool: 'list_clients', args: { i }, rows: i, durationMs: 1, outcome: 'ok' });
    await flushToolCalls();
    const [kept] = await sql<{ calls: string; first: number }>('SELECT count(*) AS calls, min(rows) AS first FROM mcp_tool_calls WHERE api_key_id = $1', [key.keyId]);
    expect(Number(kept!.calls)).toBe(10_000);
    expect(kept!.first).toBe(50);
  });
});
