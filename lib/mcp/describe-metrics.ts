// describe_metrics: the field dictionary of every tool's answer, generated from what the OpenAPI
// document is written from: the response schemas (their field descriptions) and the metric
// definitions and rules of lib/metrics/*/definitions.ts. Nothing here is a second hand-written copy.
import { z } from 'zod';
import { envelope } from '../contract/envelope';
import { toolEnvelopeSchema } from './budget';
import { defineOperation, type Operation } from '../contract/operation';
import { LIST_CAP, SERIES_BUCKETS_RULE, type MetricDefinition } from '../metrics/definitions';
import { ANSWER_TOKEN_BUDGET } from '../contract/limits';
import { ADS_METRIC_DEFINITIONS, ADS_RULES, BREAKDOWN_REFETCH_AFTER_HOURS, RESTATEMENT_WINDOW_DAYS } from '../metrics/ads/definitions';
import { SOCIAL_PLATFORM_METRICS, SOCIAL_POST_METRICS, SOCIAL_RULES } from '../metrics/social/definitions';

type JsonSchema = { [key: string]: unknown };

const metricSchema = z
  .object({
    name: z.string(),
    kind: z.enum(['amount', 'count', 'ratio', 'label']),
    unit: z.string(),
    definition: z.string().describe('What it is, with its formula for a ratio.'),
    aggregation: z.string().describe('How it is computed over several days or entities.'),
    whenNull: z.string().describe('When it is null: not reported, never zero.'),
  })
  .strict()
  // Named: three lists share it, and the tool's output schema states it once (\`$defs\`).
  .meta({ id: 'MetricDefinition' });

const fieldSchema = z
  .object({
    path: z.string().describe('Where the field is in the tool’s `structuredContent`; `[]` marks the elements of an array.'),
    type: z.string().describe('JSON type(s), `|null` when it may be null.'),
    description: z.string().nullable(),
    metric: z.string().nullable().describe('When it is a metric, its name in the `metrics` of its surface (describe_metrics with `surface`).'),
  })
  .strict();

export const describeMetricsData = z
  .object({
    rules: z.record(z.string(), z.string()).describe('The rules every answer follows (without arguments), or those of the surface asked for.'),
    metrics: z
      .object({ ads: z.array(metricSchema), socialPlatform: z.array(metricSchema), socialPost: z.array(metricSchema) })
      .strict()
      .describe('Unit, formula, aggregation and null rule of every metric of the surface asked for; empty lists otherwise.'),
    fields: z.array(fieldSchema).describe('Every field of the tool asked for (a metric field\'s definition is in its surface\'s `metrics`); empty otherwise.'),
  })
  .strict();

type Field = z.infer<typeof fieldSchema>;

/** The rules every answer follows, whatever its surface. */
const COMMON_RULES = {
  nullMeansNotReported: ADS_RULES.notReported,
  currency: ADS_RULES.currency,
  seriesBuckets: SERIES_BUCKETS_RULE,
  lists: `${ADS_RULES.cap.replace(`${LIST_CAP} rows`, `${LIST_CAP} rows (on MCP, \`limit\` rows)`)} A tool answer is at most ${ANSWER_TOKEN_BUDGET.toLocaleString('en-GB')} tokens: a longer list is cut (\`truncated: true\`). A list cut by \`limit\` or by that budget has \`meta.nextOffset\`, the \`offset\` that gets the rest, and a second text block says the same (or which arguments narrow it).`,
};

/** The rules of each surface. */
const SURFACE_RULES = {
  ads: {
    days: ADS_RULES.days,
    levels: ADS_RULES.levels,
    reach: ADS_RULES.reach,
    results: ADS_RULES.results,
    freshness: ADS_RULES.freshness,
    restatement: `The ads platform restates a day's figures for up to ${RESTATEMENT_WINDOW_DAYS} days (re-pulled nightly for the last 3 days and weekly for the last ${RESTATEMENT_WINDOW_DAYS}): figures of recent days can still change. Cached ad breakdowns are \`stale\` when older than ${BREAKDOWN_REFETCH_AFTER_HOURS} hour and fetched within that window.`,
  },
  social: {
    days: SOCIAL_RULES.days,
    reach: SOCIAL_RULES.reach,
    followers: SOCIAL_RULES.followers,
    platforms: SOCIAL_RULES.platforms,
    freshness: SOCIAL_RULES.freshness,
  },
};

const SURFACES = ['ads', 'social'] as const;
type Surface = (typeof SURFACES)[number];

/** The metric list a field of this operation is defined in, by the field's path. */
function metricListFor(operation: Operation, path: string): readonly MetricDefinition[] {
  if (operation.tag === 'Ads') return ADS_METRIC_DEFINITIONS;
  if (operation.tag === 'Social') return /posts?[A-Z[.]|^data\.posts/i.test(path) ? SOCIAL_POST_METRICS : SOCIAL_PLATFORM_METRICS;
  return [];
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.join('|');
  if (typeof type === 'string') return type;
  if (Array.isArray(schema.enum)) return 'string';
  if ('const' in schema) return typeof schema.const;
  return 'any';
}

/** Every field below `schema` (the envelope's JSON Schema), depth first, with its description. */
function walk(schema: JsonSchema, defs: Record<string, JsonSchema>, path: string, visit: (path: string, type: string, description: string | null) => void): void {
  const resolve = (node: JsonSchema): JsonSchema =>
    typeof node.$ref === 'string' ? { ...defs[node.$ref.replace('#/$defs/', '')], ...node, $ref: undefined } : node;
  const node = resolve(schema);
  const variants = ((node.anyOf ?? node.oneOf) as JsonSchema[] | undefined)?.map(resolve) ?? [node];
  const types = [...new Set(variants.map(typeOf))];
  const description = (node.description ?? variants.find((variant) => variant.description)?.description ?? null) as string | null;
  if (path) visit(path, types.join('|'), description);
  for (const variant of variants) {
    for (const [name, child] of Object.entries((variant.properties ?? {}) as Record<string, JsonSchema>)) {
      walk(child, defs, path ? `${path}.${name}` : name, visit);
    }
    if (variant.items && typeof variant.items === 'object') walk(variant.items as JsonSchema, defs, `${path}[]`, visit);
  }
}

function fieldsOf(operation: Operation): Field[] {
  // The tool's own answer: REST's envelope with the `meta` keys of MCP's own.
  const json = z.toJSONSchema(toolEnvelopeSchema(operation), { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const fields: Field[] = [];
  walk(json, (json.$defs ?? {}) as Record<string, JsonSchema>, '', (path, type, description) => {
    const name = path.split('.').at(-1)!.replace('[]', '');
    const metric = metricListFor(operation, path).find((entry) => entry.name === name)?.name ?? null;
    fields.push({ path, type, description, metric });
  });
  return fields;
}

export const DESCRIBE_METRICS = 'describe_metrics';

type DescribeMetricsData = z.infer<typeof describeMetricsData>;

const NO_METRICS: DescribeMetricsData['metrics'] = { ads: [], socialPlatform: [], socialPost: [] };

function surfaceAnswer(surface: Surface): DescribeMetricsData {
  const metrics = surface === 'ads' ? { ...NO_METRICS, ads: [...ADS_METRIC_DEFINITIONS] } : { ...NO_METRICS, socialPlatform: [...SOCIAL_PLATFORM_METRICS], socialPost: [...SOCIAL_POST_METRICS] };
  return { rules: SURFACE_RULES[surface], metrics, fields: [] };
}

/**
 * A tool's fields. A metric field names its metric, whose definition is in its surface's answer: its
 * own description would say it twice, and both together would not fit one answer of the overviews.
 */
function toolAnswer(operation: Operation): DescribeMetricsData {
  const fields = fieldsOf(operation).map((field) => (field.metric ? { ...field, description: null } : field));
  return { rules: {}, metrics: NO_METRICS, fields };
}

/**
 * The describe_metrics tool over the data tools listed: the common rules without arguments, a
 * surface's rules and metrics with `surface`, a tool's fields with `tool`, each a few thousand tokens
 * at most. It reads nothing synced: `syncedAt` is null.
 */
export function describeMetricsOperation(dataTools: Operation[]) {
  const toolNames = dataTools.map((operation) => operation.tool!.name) as [string, ...string[]];
  const answers = new Map<string, DescribeMetricsData>();
  const answerFor = (key: string, build: () => DescribeMetricsData) => {
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = build()));
    return answer;
  };
  return defineOperation({
    id: 'describeMetrics',
    // MCP only: not in the REST catalogue (allOperations), so never served under /api/v1.
    path: DESCRIBE_METRICS,
    tag: 'Account',
    summary: 'What the fields of the tools mean',
    description: 'The definitions the REST reference is generated from.',
    scope: null,
    query: z
      .object({
        surface: z.enum(SURFACES).optional().describe('`ads` or `social`: its rules and every metric\'s unit, formula, aggregation and null rule.'),
        tool: z.enum(toolNames).optional().describe('A tool: every field of its answer, with the definition of each metric field.'),
      })
      .refine((query) => query.surface === undefined || query.tool === undefined, { message: 'give `surface` or `tool`, not both', path: ['tool'] }),
    data: describeMetricsData,
    run: async (query) => {
      const data = query.tool
        ? answerFor(`tool:${query.tool}`, () => toolAnswer(dataTools.find((operation) => operation.tool!.name === query.tool)!))
        : query.surface
          ? answerFor(`surface:${query.surface}`, () => surfaceAnswer(query.surface!))
          : { rules: COMMON_RULES, metrics: NO_METRICS, fields: [] };
      return envelope(data, { syncedAt: null });
    },
    tool: {
      name: DESCRIBE_METRICS,
      title: 'Describe the metrics',
      lead: 'Definitions, when needed: no arguments for the rules every answer follows (null, currency, series buckets, cut lists); `surface` for a surface\'s rules (days, reach, followers, results, freshness) and metrics (unit, formula, aggregation, null rule); `tool` for every field of one tool\'s answer.',
    },
  });
}
