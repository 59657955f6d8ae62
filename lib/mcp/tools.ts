// Registers the catalogue's operations as MCP tools. Each call goes through the same invoke step as
// REST: the SDK is given a schema that accepts any arguments (so its own validation never answers in
// place of ours) while advertising the operation's real JSON Schema in tools/list.
import type { AuthInfo, McpServer, ScopeChallengeHandler, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AuthContext } from '../contract/credential';
import { OAUTH_SCOPES } from '../contract/scopes';
import { type Envelope } from '../contract/envelope';
import { ANSWER_TOKEN_BUDGET, DEFAULT_ANSWER_TOKENS } from '../contract/limits';
import { GRANULARITIES, type Granularity } from '../time/buckets';
import { toApiError } from '../operations/failures';
import type { Admitted } from '../operations/gate';
import { invoke } from '../operations/invoke';
import type { Operation } from '../contract/operation';
import { problemBody } from '../operations/problems';
import { MAX_RANGE_DAYS } from '../contract/query';
import { metrics } from '../telemetry/metrics';
import { inSpan } from '../telemetry/tracing';
import { answeredRows, recordToolCall } from '../usage/tool-calls';
import { fits, fitsBytes, toolEnvelopeSchema, withinBudget, type ToolEnvelope } from './budget';
import { TOOL_OPERATIONS } from './catalogue';
import { DESCRIBE_METRICS } from './describe-metrics';

/** What the MCP route hands each tool call of one HTTP request (in the SDK's `authInfo.extra.call`). */
export class McpCall {
  readonly auth: AuthContext;
  readonly requestId: string;
  /** Takes this tool call's unit of the rate limit; throws `rate_limited` when the window is spent. */
  readonly takeRateLimit: () => void;

  constructor(
    admitted: Admitted,
    readonly request: Request,
  ) {
    this.auth = admitted.auth;
    this.requestId = admitted.requestId;
    this.takeRateLimit = admitted.takeCall;
  }

  /** The call the route handed on with a tool call's auth info, or null when there is none. */
  static of(authInfo: AuthInfo | undefined): McpCall | null {
    const call = authInfo?.extra?.call;
    return call instanceof McpCall ? call : null;
  }
}

const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false } as const;

type JsonSchema = Record<string, unknown>;

/** A Standard Schema that advertises `json` and validates with `validate` (the SDK's two uses of a schema). */
function advertised(json: JsonSchema, validate: StandardSchemaWithJSON['~standard']['validate']): StandardSchemaWithJSON {
  return { '~standard': { version: 1, vendor: 'metrics-api', validate, jsonSchema: { input: () => json, output: () => json } } };
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema; // MCP schemas are JSON Schema 2020-12 by default
  return json;
}

/** What an output schema keeps in tools/list: the shape and which fields every answer has. What each field means is for describe_metrics. */
const SHAPE_KEYWORDS = new Set(['type', 'properties', 'required', 'items', 'anyOf', 'enum', 'const', '$ref', '$defs']);

/**
 * A nullable type in fewer tokens, the same schema: `{ anyOf: [{ type: 'string' }, { type: 'null' }] }`
 * as `{ type: ['string', 'null'] }`, and an object or null as the object's schema with `type:
 * ['object', 'null']` (`properties` and `required` bind objects only); a `const` or a string `enum` without its `type`.
 */
function compact(shape: JsonSchema): JsonSchema {
  if ('const' in shape) return { const: shape.const };
  if (Array.isArray(shape.enum) && shape.type === 'string') return { enum: shape.enum };
  const options = shape.anyOf as JsonSchema[] | undefined;
  if (!options) return shape;
  const rest = Object.fromEntries(Object.entries(shape).filter(([key]) => key !== 'anyOf'));
  if (options.every((option) => Object.keys(option).length === 1 && typeof option.type === 'string')) return { ...rest, type: options.map((option) => option.type) };
  const object = options.find((option) => option.type === 'object');
  if (options.length === 2 && object && options.some((option) => option.type === 'null' && Object.keys(option).length === 1)) return { ...rest, ...object, type: ['object', 'null'] };
  return shape;
}

/**
 * The output schema as the fields, their types and which are always there (no descriptions, formats
 * or bounds): three quarters of tools/list were output schemas, which a model reads with every
 * conversation, while the field dictionary (describe_metrics) is read only when needed. `required` is
 * kept throughout, so that a client validating an answer finds a missing field. The answers are
 * checked against the full schema as well (`advertised`).
 */
function shapeOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOf);
  if (typeof node !== 'object' || node === null) return node;
  const shape: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!SHAPE_KEYWORDS.has(key)) continue;
    // Names under `properties` and `$defs` are fields, not keywords: every one is kept.
    shape[key] = key === 'properties' || key === '$defs' ? Object.fromEntries(Object.entries(value as JsonSchema).map(([name, child]) => [name, shapeOf(child)])) : shapeOf(value);
  }
  return compact(shape);
}

/**
 * The descriptions on MCP of the arguments most tools share: what a model needs to fill them, once per
 * tool. The date window and the other query rules (QUERY_RULES) are stated once, in the server's
 * instructions, and in refusals' `errors[]`.
 */
const TOOL_ARGUMENTS: Record<string, string> = {
  client: 'One client (an `id` from list_clients); default: every client you can read.',
  from: 'First day, included.',
  to: `Last day, included; at most ${MAX_RANGE_DAYS} days.`,
  offset: 'Rows to skip: a cut answer\'s `meta.nextOffset` reads on.',
  campaignId: 'Only this campaign (`id` or platform id).',
  adSetId: 'Only this ad set (`id` or platform id).',
  adId: 'Only this ad (`id` or platform id).',
};

/**
 * An input schema in fewer tokens: without the patterns that a `format` (`date`, `uuid`) already
 * states, and with the shared arguments' terse descriptions.
 */
function terseInput(json: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((json.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
      const { pattern, ...rest } = property;
      const kept = 'format' in property ? rest : { ...rest, ...(pattern === undefined ? {} : { pattern }) };
      return [name, TOOL_ARGUMENTS[name] ? { ...kept, description: TOOL_ARGUMENTS[name] } : kept];
    }),
  );
  return { ...json, properties };
}

interface ToolSchemas {
  input: StandardSchemaWithJSON;
  output: StandardSchemaWithJSON;
  description: string;
}

const schemaCache = new Map<Operation, ToolSchemas>();

/**
 * The tool's lead and where its fields are defined (describe_metrics' `tool` argument lists the tools);
 * what every answer shares (envelope, null, errors) is said once, in the server's instructions.
 */
function describeTool(operation: Operation): string {
  const { name, lead } = operation.tool!;
  return name === DESCRIBE_METRICS ? lead : `${lead} Fields: describe_metrics.`;
}

function schemasOf(operation: Operation): ToolSchemas {
  let schemas = schemaCache.get(operation);
  if (!schemas) {
    const query = operation.tool!.query ?? operation.query;
    const envelope = toolEnvelopeSchema(operation);
    schemas = {
      // Our validation runs in the shared step, with our error shape: the SDK's passes everything.
      input: advertised({ ...terseInput(jsonSchemaOf(query, 'input')), additionalProperties: false }, (value) => ({ value })),
      // Our own answers are checked against the envelope schema by the SDK, as REST's are by the tests.
      output: advertised(
        shapeOf(jsonSchemaOf(envelope, 'output')) as JsonSchema,
        (value) => envelope['~standard'].validate(value),
      ),
      description: describeTool(operation),
    };
    schemaCache.set(operation, schemas);
  }
  return schemas;
}

/**
 * OAuth grants lacking a tool's scope are challenged with HTTP 403 `insufficient_scope` (MCP step-up
 * authorization): the client may ask the user for a wider grant. The scope asked for is what the grant
 * has plus what the tool needs, so that re-authorizing never loses a permission. API keys are not
 * challenged (no authorization server can widen a key): their call answers `forbidden` like REST.
 */
function scopeChallenge(operation: Operation): ScopeChallengeHandler | undefined {
  const needed = operation.scope;
  if (!needed) return undefined;
  return ({ authInfo }) => {
    const call = McpCall.of(authInfo);
    if (!call || call.auth.kind !== 'oauth_grant' || call.auth.scopes.includes(needed)) return undefined;
    const scopes = OAUTH_SCOPES.filter((scope) => scope === needed || call.auth.scopes.includes(scope));
    return { scopes: scopes as [string, ...string[]], errorDescription: `This tool needs the scope ${needed}` };
  };
}

/** The operation's answer to a tool call; throws what invoke throws. */
async function invokeTool(operation: Operation, auth: AuthContext, args: unknown, request: Request): Promise<Envelope<unknown>> {
  const whole = await invoke(operation, auth, { kind: 'arguments', args }, request);
  // Only operations answering `{ data, meta }` have a tool face; bytes (the thumbnail) are REST only.
  if (whole instanceof Response) throw new Error(`the tool ${operation.tool!.name} answered bytes`);
  return whole;
}

/**
 * The budget an overview's series is chosen for: the default answer's, unless the rest of the answer is
 * already past it (the caller asked for more with `limit`), then the answer budget.
 */
function seriesBudget(operation: Operation, answer: Envelope<unknown>): number {
  const seriesBytes = operation.tool!.series!(answer.data as never).reduce((sum, series) => sum + Buffer.byteLength(JSON.stringify(series)) - 2, 0);
  return fitsBytes(Buffer.byteLength(JSON.stringify(answer)) - seriesBytes, DEFAULT_ANSWER_TOKENS) ? DEFAULT_ANSWER_TOKENS : ANSWER_TOKEN_BUDGET;
}

/**
 * The answer and the granularity of its series (null for a tool without one). An overview called
 * without `granularity` and with `series` `auto` comes by the finest of day, week and month whose answer
 * fits its budget (seriesBudget; by month when none does: the budget's cut then applies), so that a
 * long range keeps a series instead of losing it. Each try is one cached computation (lib/operations/invoke.ts),
 * or, for an overview whose days give its buckets (ToolFace.coarsen), the answer by day coarsened.
 */
async function answerWithSeries(operation: Operation, auth: AuthContext, args: unknown, request: Request) {
  if (!operation.tool!.series) return { whole: await invokeTool(operation, auth, args, request), granularity: null, coarsenedFor: null };
  const given = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : null;
  if (!given || given.granularity !== undefined || (given.series ?? 'auto') !== 'auto') {
    const whole = await invokeTool(operation, auth, args, request);
    return { whole, granularity: (given?.granularity ?? 'day') as Granularity, coarsenedFor: null };
  }
  let budget: number | null = null;
  let byDay: Envelope<unknown> | null = null;
  const { coarsen } = operation.tool!;
  for (const granularity of GRANULARITIES) {
    const whole: Envelope<unknown> = byDay && coarsen ? coarsen(byDay as never, granularity) : await invokeTool(operation, auth, { ...given, granularity }, request);
    byDay ??= whole;
    budget ??= seriesBudget(operation, whole);
    if (granularity === 'month' || fits(whole, budget)) return { whole, granularity, coarsenedFor: granularity === 'day' ? null : budget };
  }
  throw new Error('unreachable: month is the last granularity');
}

/**
 * A tool's answer within the answer budget, and the text blocks a model reads: the envelope's JSON and,
 * when a list was cut or the series coarsened, a note saying how to read on. Throws what invoke throws.
 */
export async function toolAnswer(operation: Operation, auth: AuthContext, args: unknown, request: Request) {
  const { whole, granularity, coarsenedFor } = await answerWithSeries(operation, auth, args, request);
  const budgeted = withinBudget(operation, (args ?? {}) as Record<string, unknown>, whole);
  const answer: ToolEnvelope = granularity ? { ...budgeted.answer, meta: { ...budgeted.answer.meta, granularity } } : budgeted.answer;
  const notes = [
    ...(coarsenedFor
      ? [`The series is by ${granularity} (\`meta.granularity\`): by day this answer would pass ${coarsenedFor.toLocaleString('en-GB')} tokens. For days, ask for \`"granularity": "day"\`, best with a shorter range.`]
      : []),
    ...(budgeted.note ? [budgeted.note] : []),
  ];
  const content = [{ type: 'text' as const, text: JSON.stringify(answer) }, ...(notes.length > 0 ? [{ type: 'text' as const, text: notes.join(' ') }] : [])];
  return { answer, content };
}

/**
 * One tool call, traced as the span `tools/call <tool>` (OpenTelemetry's MCP conventions) and counted
 * in mcp_tool_calls_total by tool and outcome.
 */
function callTool(operation: Operation, args: unknown, call: McpCall) {
  const tool = operation.tool!.name;
  return inSpan(`tools/call ${tool}`, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' }, () => runTool(operation, args, call));
}

async function runTool(operation: Operation, args: unknown, call: McpCall) {
  const started = performance.now();
  const record = (outcome: string, rows: number | null) => {
    metrics().mcpToolCalls.inc({ gen_ai_tool_name: operation.tool!.name, outcome });
    recordToolCall({ auth: call.auth, tool: operation.tool!.name, args, rows, durationMs: performance.now() - started, outcome });
  };
  try {
    call.takeRateLimit();
    const { answer, content } = await toolAnswer(operation, call.auth, args, call.request);
    record('ok', answeredRows(answer));
    return { structuredContent: answer as unknown as Record<string, unknown>, content };
  } catch (error) {
    const problem = toApiError(error, call.requestId);
    record(problem.code, null);
    // No structuredContent: it would have to match the output schema, which describes successes.
    return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(problemBody(problem)) }] };
  }
}

export function registerTools(server: McpServer): void {
  for (const operation of TOOL_OPERATIONS) {
    const schemas = schemasOf(operation);
    server.registerTool(
      operation.tool!.name,
      {
        title: operation.tool!.title,
        description: schemas.description,
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        // The title is the tool's own `title`, not repeated in the annotations.
        annotations: ANNOTATIONS,
        scopeChallenge: scopeChallenge(operation),
      },
      (args, ctx) => {
        const call = McpCall.of(ctx.http?.authInfo);
        // Every request reaches the tools through handleMcpRequest, which sets the call.
        if (!call) throw new Error('a tool call arrived without the gate');
        return callTool(operation, args, call);
      },
    );
  }
}
