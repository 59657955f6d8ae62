// Registers the catalogue's operations as MCP tools. Each call goes through the same invoke step as
// REST: the SDK is given a schema that accepts any arguments (so its own validation never answers in
// place of ours) while advertising the operation's real JSON Schema in tools/list.
import type { AuthInfo, McpServer, ScopeChallengeHandler, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AuthContext } from '../contract/credential';
import { OAUTH_SCOPES } from '../contract/scopes';
import { envelopeSchema } from '../contract/envelope';
import { toApiError } from '../operations/failures';
import type { Admitted } from '../operations/gate';
import { invoke } from '../operations/invoke';
import type { Operation } from '../contract/operation';
import { QUERY_RULES } from '../contract/query';
import { problemBody } from '../operations/problems';
import { answeredRows, recordToolCall } from '../usage/tool-calls';
import { TOOL_OPERATIONS } from './catalogue';

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

interface ToolSchemas {
  input: StandardSchemaWithJSON;
  output: StandardSchemaWithJSON;
  description: string;
}

const schemaCache = new Map<Operation, ToolSchemas>();

function describeTool(operation: Operation, query: z.ZodObject): string {
  const dated = 'from' in query.shape;
  return [
    operation.tool!.lead,
    '',
    ...(dated ? [`Arguments: ${QUERY_RULES[1]} Unknown arguments are refused.`] : []),
    'Answer: `{ data, meta }`, the same as the REST API. `null` means not reported, never zero. `meta.syncedAt` is the freshness; `meta.currency` is null when amounts span currencies (compare them per row then). Units and formulas of every field: describe_metrics.',
    'A refused call is an `isError` result whose text is a problem document: `code`, `detail` and, for bad arguments, `errors[]` (one entry per argument).',
  ].join('\n');
}

function schemasOf(operation: Operation): ToolSchemas {
  let schemas = schemaCache.get(operation);
  if (!schemas) {
    const query = operation.tool!.query ?? operation.query;
    const envelope = envelopeSchema(operation.data);
    schemas = {
      // Our validation runs in the shared step, with our error shape: the SDK's passes everything.
      input: advertised({ ...jsonSchemaOf(query, 'input'), additionalProperties: false }, (value) => ({ value })),
      // Our own answers are checked against the envelope schema by the SDK, as REST's are by the tests.
      output: advertised(jsonSchemaOf(envelope, 'output'), (value) => envelope['~standard'].validate(value)),
      description: describeTool(operation, query),
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

async function callTool(operation: Operation, args: unknown, call: McpCall) {
  const started = performance.now();
  const record = (outcome: string, rows: number | null) =>
    recordToolCall({ auth: call.auth, tool: operation.tool!.name, args, rows, durationMs: performance.now() - started, outcome });
  try {
    call.takeRateLimit();
    const answer = await invoke(operation, call.auth, { kind: 'arguments', args }, call.request);
    const text = JSON.stringify(answer);
    record('ok', answeredRows(answer));
    return { structuredContent: answer as unknown as Record<string, unknown>, content: [{ type: 'text' as const, text }] };
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
        annotations: { title: operation.tool!.title, ...ANNOTATIONS },
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
