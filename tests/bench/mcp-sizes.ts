// The size of every MCP tool's answer for a whole organisation over a year, with default arguments and
// with its largest ones: the fit-for-a-model check of lib/mcp/budget.ts (at most ANSWER_TOKEN_BUDGET
// tokens whatever the arguments, DEFAULT_ANSWER_TOKENS with the defaults). Each tool is answered as the
// MCP door answers it (toolAnswer: the shared invoke step, then the budget) with an unrestricted
// credential, and the text a model reads is counted by gpt-tokenizer's o200k_base encoding (a published
// BPE tokenizer standing in for the models' own). Used by `npm run bench` (on the `large` dataset), by
// mcp-answer-sizes.ts (any scale) and by tests/integration/mcp-answer-sizes.test.ts.
import { countTokens } from 'gpt-tokenizer';
import { sql } from '@/lib/db';
import type { AuthContext } from '@/lib/contract/credential';
import { ANSWER_TOKEN_BUDGET, DEFAULT_ANSWER_TOKENS } from '@/lib/contract/limits';
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';
import { toolAnswer } from '@/lib/mcp/tools';

export interface ToolAnswerSize {
  tool: string;
  /** `default`: only the required arguments; `largest`: every argument at its largest. */
  arguments: 'default' | 'largest';
  args: Record<string, unknown>;
  bytes: number;
  tokens: number;
  /** Whether the answer came cut (`meta.truncated`), by its limit or by the budget. */
  truncated: boolean;
}

/** The most a case may cost: the budget, and the defaults' smaller one. */
export function allowedTokens(size: Pick<ToolAnswerSize, 'arguments'>): number {
  return size.arguments === 'default' ? DEFAULT_ANSWER_TOKENS : ANSWER_TOKEN_BUDGET;
}

/** An unrestricted API key of the organisation. */
export function sizeCheckAuth(org: { id: string; name: string }): AuthContext {
  return {
    kind: 'api_key',
    keyId: 'size-check',
    keyName: 'size check',
    keyPrefix: 'mk_live_size',
    expiresAt: null,
    orgId: org.id,
    orgName: org.name,
    scopes: ['ads:read', 'social:read'],
    clientIds: null,
  };
}

/** Each tool's default and largest arguments for the organisation over `year`. */
async function cases(org: { id: string }, year: { from: string; to: string }): Promise<Record<string, { default: Record<string, unknown>; largest: Record<string, unknown>[] }>> {
  // Breakdowns are served from the dashboard's cache of one entity and range: the largest one cached.
  const [largest] = await sql<{ level: string; entityId: string; from: string; to: string }>(
    `SELECT c.level::text AS level, c.entity_id AS "entityId", to_char(c.date_from, 'YYYY-MM-DD') AS "from", to_char(c.date_to, 'YYYY-MM-DD') AS "to"
       FROM ad_breakdown_cache c JOIN ad_breakdown_cache_rows r ON r.cache_id = c.id
      WHERE c.org_id = $1 GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1`,
    [org.id],
  );
  const breakdowns = largest ? { ...largest } : { ...year, level: 'campaign', entityId: 'none' };
  return {
    list_clients: { default: {}, largest: [{ limit: 50 }] },
    get_ads_overview: { default: year, largest: [{ ...year, limit: 500, series: 'all' }] },
    list_ad_entities: { default: { ...year, level: 'ad' }, largest: [{ ...year, level: 'ad', limit: 500 }] },
    get_ad_breakdowns: { default: breakdowns, largest: [breakdowns] },
    get_social_overview: { default: year, largest: [{ ...year, series: 'all' }] },
    list_social_posts: { default: year, largest: [{ ...year, limit: 500 }] },
    describe_metrics: {
      default: {},
      largest: [{ surface: 'ads' }, { surface: 'social' }, ...TOOL_OPERATIONS.filter((operation) => operation.tool!.name !== 'describe_metrics').map((operation) => ({ tool: operation.tool!.name }))],
    },
  };
}

export async function measureToolAnswers(org: { id: string; name: string }, year: { from: string; to: string }): Promise<ToolAnswerSize[]> {
  const auth = sizeCheckAuth(org);
  const byTool = await cases(org, year);
  const sizes: ToolAnswerSize[] = [];
  for (const operation of TOOL_OPERATIONS) {
    const tool = operation.tool!.name;
    const measured = [{ arguments: 'default' as const, args: byTool[tool]!.default }, ...byTool[tool]!.largest.map((args) => ({ arguments: 'largest' as const, args }))];
    let largest: ToolAnswerSize | null = null;
    for (const { arguments: kind, args } of measured) {
      const { answer, content } = await toolAnswer(operation, auth, args, new Request('http://localhost/api/mcp'));
      // The result carries the JSON twice, as structuredContent and as the text block; a model reads the text.
      const text = content.map((block) => block.text).join('\n');
      const size = { tool, arguments: kind, args, bytes: Buffer.byteLength(text), tokens: countTokens(text), truncated: answer.meta.truncated === true };
      // Of several largest cases (describe_metrics), the largest answer.
      if (kind === 'default') sizes.push(size);
      else if (!largest || size.tokens > largest.tokens) largest = size;
    }
    sizes.push(largest!);
  }
  return sizes;
}

/** The cases over what they may cost, as sentences. */
export function budgetMisses(sizes: ToolAnswerSize[]): string[] {
  return sizes.filter((size) => size.tokens > allowedTokens(size)).map((size) => `MCP ${size.tool} (${size.arguments}): ${size.tokens} tokens > ${allowedTokens(size)}`);
}

export function sizeTable(sizes: ToolAnswerSize[]): string {
  const shown = (args: Record<string, unknown>) => `\`${JSON.stringify(args)}\``;
  const rows = sizes.map(
    (size) =>
      `| \`${size.tool}\` | ${size.arguments} ${shown(size.args)} | ${size.bytes.toLocaleString('en-GB')} | ${size.tokens.toLocaleString('en-GB')} | ${size.truncated ? 'yes' : 'no'} | ${size.tokens <= allowedTokens(size) ? 'yes' : '**no**'} |`,
  );
  return ['| tool | arguments | bytes | tokens (o200k) | truncated | within its budget |', '|---|---|---:|---:|:---:|:---:|', ...rows].join('\n');
}
