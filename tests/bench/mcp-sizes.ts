// The size of every MCP tool's default answer for a whole organisation over a year: the fit-for-a-model
// check (a tool answer must stay under 25,000 tokens; Claude Code refuses larger ones). Each tool is run
// through the same invoke step as the MCP door with an unrestricted credential, and the text block a
// model reads is counted by gpt-tokenizer's o200k_base encoding (a published BPE tokenizer standing in
// for the models' own; JSON of numbers runs about 2.5 bytes a token, far from the 4 of prose). Used by
// `npm run bench` (on the `large` dataset) and by mcp-answer-sizes.ts (any scale).
import { countTokens } from 'gpt-tokenizer';
import { sql } from '@/lib/db';
import { invoke } from '@/lib/operations/invoke';
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';

export const TOKEN_BUDGET = 25_000;

export interface ToolAnswerSize {
  tool: string;
  bytes: number;
  tokens: number;
}

export async function measureToolAnswers(org: { id: string; name: string }, year: { from: string; to: string }): Promise<ToolAnswerSize[]> {
  // Breakdowns are served from the dashboard's cache of one entity and range: the largest one cached.
  const [largest] = await sql<{ level: string; entityId: string; from: string; to: string }>(
    `SELECT c.level::text AS level, c.entity_id AS "entityId", to_char(c.date_from, 'YYYY-MM-DD') AS "from", to_char(c.date_to, 'YYYY-MM-DD') AS "to"
       FROM ad_breakdown_cache c JOIN ad_breakdown_cache_rows r ON r.cache_id = c.id
      WHERE c.org_id = $1 GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1`,
    [org.id],
  );
  const auth = {
    kind: 'api_key' as const,
    keyId: 'size-check',
    keyName: 'size check',
    keyPrefix: 'mk_live_size',
    expiresAt: null,
    orgId: org.id,
    orgName: org.name,
    scopes: ['ads:read' as const, 'social:read' as const],
    clientIds: null,
  };
  const specific: Record<string, Record<string, unknown>> = {
    list_ad_entities: { ...year, level: 'ad' },
    ...(largest ? { get_ad_breakdowns: { ...largest } } : {}),
  };
  const sizes: ToolAnswerSize[] = [];
  for (const operation of TOOL_OPERATIONS) {
    const tool = operation.tool!.name;
    if (tool === 'get_ad_breakdowns' && !largest) continue;
    const args = specific[tool] ?? ('from' in (operation.tool!.query ?? operation.query).shape ? year : {});
    const answer = await invoke(operation, auth, { kind: 'arguments', args }, new Request('http://localhost/api/mcp'));
    // The result carries the JSON twice, as structuredContent and as the text block; a model reads the text.
    const text = JSON.stringify(answer);
    sizes.push({ tool, bytes: Buffer.byteLength(text), tokens: countTokens(text) });
  }
  return sizes;
}

export function sizeTable(sizes: ToolAnswerSize[]): string {
  const rows = sizes.map(({ tool, bytes, tokens }) => `| \`${tool}\` | ${bytes.toLocaleString('en-GB')} | ${tokens.toLocaleString('en-GB')} | ${tokens < TOKEN_BUDGET ? 'yes' : '**no**'} |`);
  return ['| tool | bytes | tokens (o200k) | under 25,000 |', '|---|---:|---:|:---:|', ...rows].join('\n');
}
