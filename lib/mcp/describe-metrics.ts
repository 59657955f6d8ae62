// describe_metrics: the field dictionary of every tool's answer, generated from what the OpenAPI
// document is written from: the response schemas (their field descriptions) and the metric
// definitions and rules of lib/metrics/*/definitions.ts. Nothing here is a second hand-written copy.
import { z } from 'zod';
import { envelope, envelopeSchema } from '../contract/envelope';
import { defineOperation, type Operation } from '../contract/operation';
import { LIST_CAP, type MetricDefinition } from '../metrics/definitions';
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
  .strict();

const fieldSchema = z
  .object({
    path: z.string().describe('Where the field is in the tool’s `structuredContent`; `[]` marks the elements of an array.'),
    type: z.string().describe('JSON type(s), `|null` when it may be null.'),
    description: z.string().nullable(),
    metric: z.string().nullable().describe('The name of its entry in `metrics` (unit, formula, aggregation, null rule), when it is a metric.'),
  })
  .strict();

export const describeMetricsData = z
  .object({
    rules: z.record(z.string(), z.string()).describe('The rules every answer follows: null, days, non-additive people counts, results, currency, freshness, lists.'),
    metrics: z
      .object({ ads: z.array(metricSchema), socialPlatform: z.array(metricSchema), socialPost: z.array(metricSchema) })
      .strict()
      .describe('Unit, formula, aggregation and null rule of every metric, per surface.'),
    tools: z.array(z.object({ name: z.string(), scope: z.string().nullable(), fields: z.array(fieldSchema) }).strict()),
  })
  .strict();

type Field = z.infer<typeof fieldSchema>;

const RULES = {
  nullMeansNotReported: ADS_RULES.notReported,
  adsDays: ADS_RULES.days,
  socialDays: SOCIAL_RULES.days,
  adsLevels: ADS_RULES.levels,
  adsReach: ADS_RULES.reach,
  socialReach: SOCIAL_RULES.reach,
  socialFollowers: SOCIAL_RULES.followers,
  socialPlatforms: SOCIAL_RULES.platforms,
  adsResults: ADS_RULES.results,
  currency: ADS_RULES.currency,
  adsFreshness: ADS_RULES.freshness,
  socialFreshness: SOCIAL_RULES.freshness,
  restatement: `The ads platform restates a day's figures for up to ${RESTATEMENT_WINDOW_DAYS} days (re-pulled nightly for the last 3 days and weekly for the last ${RESTATEMENT_WINDOW_DAYS}): figures of recent days can still change. Cached ad breakdowns are \`stale\` when older than ${BREAKDOWN_REFETCH_AFTER_HOURS} hour and fetched within that window.`,
  lists: ADS_RULES.cap.replace(`${LIST_CAP} rows`, `${LIST_CAP} rows (on MCP, \`limit\` rows, default 50)`),
};

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
  const json = z.toJSONSchema(envelopeSchema(operation.data), { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const fields: Field[] = [];
  walk(json, (json.$defs ?? {}) as Record<string, JsonSchema>, '', (path, type, description) => {
    const name = path.split('.').at(-1)!.replace('[]', '');
    const metric = metricListFor(operation, path).find((entry) => entry.name === name)?.name ?? null;
    fields.push({ path, type, description, metric });
  });
  return fields;
}

/** The describe_metrics tool over the data tools listed. It reads nothing synced: `syncedAt` is null. */
export function describeMetricsOperation(dataTools: Operation[]) {
  let answer: z.infer<typeof describeMetricsData> | undefined;
  return defineOperation({
    id: 'describeMetrics',
    // MCP only: not in the REST catalogue (allOperations), so never served under /api/v1.
    path: 'describe_metrics',
    tag: 'Account',
    summary: 'What every field of every tool means',
    description: 'The definitions the REST reference is generated from.',
    scope: null,
    query: z.object({}),
    data: describeMetricsData,
    run: async () => {
      answer ??= {
        rules: RULES,
        metrics: { ads: [...ADS_METRIC_DEFINITIONS], socialPlatform: [...SOCIAL_PLATFORM_METRICS], socialPost: [...SOCIAL_POST_METRICS] },
        tools: dataTools.map((operation) => ({ name: operation.tool!.name, scope: operation.scope, fields: fieldsOf(operation) })),
      };
      return envelope(answer, { syncedAt: null });
    },
    tool: {
      name: 'describe_metrics',
      title: 'Describe the metrics',
      lead: 'Call this first. Returns what every field of every other tool means: its unit and formula, how it is aggregated over days and entities, and when it is null (not reported, never zero); the rules on IST days, people counts that do not add up over days (reach, followers), result types, currencies and freshness (`meta.syncedAt`, restatement windows). Takes no arguments.',
    },
  });
}
