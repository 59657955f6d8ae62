// An operation describes one endpoint once and owns what runs it: path, scope, query schema, response
// schema, `run` (reach and the call into the surface's code) and, for the seven MCP tools, its tool
// face. The REST route, the MCP tool and the OpenAPI document are all built from it; the shared step
// that checks scope and query and calls `run` is lib/operations/invoke.ts.
import type { z } from 'zod';
import type { AuthContext } from './credential';
import type { Scope } from './scopes';
import type { Envelope } from './envelope';
import type { QuerySchema } from './query';
import type { Granularity } from '../time/buckets';

/** How an operation appears as an MCP tool. */
export interface ToolFace {
  /** snake_case, as the spec names the seven tools. */
  name: string;
  /** Short human title shown by MCP clients. */
  title: string;
  /** What a model needs to pick the tool and fill its arguments; the operation's description follows it. */
  lead: string;
  /**
   * The tool's arguments when they differ from the REST query: lists take `limit` with a smaller default,
   * so that an answer fits a model's context. Always the REST query extended, never a second copy.
   */
  query?: QuerySchema;
  /**
   * The lists of the answer that the MCP answer budget (lib/mcp/budget.ts) may shorten (together, each
   * to the same share of its length), each with how to read on. Without them an answer must fit the budget whatever the
   * arguments (tests/integration/mcp-answer-sizes.test.ts checks it).
   */
  cuts?: ToolCut[];
  /**
   * The series of an overview's answer (by `granularity`). Called without `granularity` (and with
   * `series` `auto`), the MCP door answers by day, or by week or month when by day the answer would
   * pass its budget, and says which in `meta.granularity` (lib/mcp/tools.ts).
   */
  series?: (data: never) => { date: string }[][];
  /**
   * An answer by day with its series in coarser buckets, where the days alone give them (the ads
   * overview's; not the social one's, whose followers per bucket are read from the database): the MCP
   * door then computes the overview once instead of once for each granularity it tries.
   */
  coarsen?: (answer: never, granularity: Granularity) => Envelope<unknown>;
}

/** A list of an answer the MCP answer budget may shorten, and how a model gets the rest. */
export interface ToolCut {
  /** What is cut, e.g. `rows`, for the note. */
  what: string;
  /** The arrays of `data` to shorten (each to the same length), in the answer the budget cuts. */
  lists(data: never): unknown[][];
  /** How to read on after the first `kept` rows were sent, for these arguments. */
  next(kept: number, args: Record<string, unknown>, data: never): string;
  /**
   * For a list read on with an `offset`: the `offset` that continues it after the first `kept` rows
   * sent (`meta.nextOffset` of a cut answer, by `limit` or by the budget). Absent: read on otherwise.
   */
  nextOffset?(kept: number, args: Record<string, unknown>): number;
}

/** The cut of an overview's series (the days or buckets in order): the rest is a later `from`, or fewer points. */
export function seriesCut(lists: (data: never) => { date: string }[][]): ToolCut {
  return {
    what: 'series',
    lists,
    next: (kept, _args, data) => {
      const last = lists(data)[0]?.[kept - 1]?.date;
      return `${last ? `it ends with the point of ${last}; ` : ''}ask for \`"granularity": "week"\` or \`"month"\`${last ? ', or for the days after it with a later `from`' : ''}`;
    },
  };
}

/** The cut of a list tool that takes `offset`: the same arguments with the next offset read on. */
export function offsetCut(what: string, lists: (data: never) => unknown[][]): ToolCut {
  const nextOffset = (kept: number, args: Record<string, unknown>) => Number(args.offset ?? 0) + kept;
  return {
    what,
    lists,
    nextOffset,
    next: (kept, args) => `call again with the same arguments and \`"offset": ${nextOffset(kept, args)}\``,
  };
}

/**
 * An operation's reference text, kept in the descriptions.ts beside its operations.ts so that the
 * operations file holds behaviour only: the OpenAPI summary and description (and a binary answer's), and
 * the tool's title and lead.
 */
export interface OperationDescription {
  summary: string;
  /** Markdown: semantics, formulas and decisions a caller needs. */
  description: string;
  tool?: Pick<ToolFace, 'title' | 'lead'>;
  /** For an operation that answers bytes: what its 200 answer is. */
  binary?: string;
}

export interface Operation<Q extends QuerySchema = QuerySchema, D extends z.ZodType = z.ZodType> {
  /** Unique, camelCase: the OpenAPI operationId. */
  id: string;
  /** Relative to /api/v1, e.g. `/ads/overview`. */
  path: string;
  tag: 'Account' | 'Ads' | 'Social' | 'Website' | 'Store';
  summary: string;
  /** Markdown: semantics, formulas and decisions a caller needs. */
  description: string;
  /** null: any valid credential. */
  scope: Scope | null;
  query: Q;
  /** Schema of `data` in the `{ data, meta }` envelope; for a binary response, of nothing. */
  data: D;
  /** Set for endpoints that answer bytes rather than JSON (e.g. the post thumbnail). */
  binary?: { contentTypes: string[]; description: string };
  /**
   * Answers a valid query for a credential whose scope was checked: resolves the reach and calls the
   * surface. `request` is the HTTP request that carried the call (only the thumbnail reads it).
   */
  run(query: z.infer<Q>, auth: AuthContext, request: Request): Promise<Envelope<z.infer<D>> | Response>;
  /**
   * Set when the answer is a function of the organisation's data, the reach and the parsed query alone,
   * so that it may be reused until the data changes (lib/cache/response-cache.ts). Absent: computed every
   * time, until someone checks that the operation qualifies. Not cacheable: `/me` (it describes the
   * credential, which the data version does not cover), `/ads/breakdowns` (its `stale` turns true an
   * hour after the dashboard's fetch, without any write) and the thumbnail (bytes with their own
   * validator and caching headers).
   */
  cacheable?: true;
  /** Absent: REST only. */
  tool?: ToolFace;
}

export function defineOperation<Q extends QuerySchema, D extends z.ZodType>(operation: Operation<Q, D>): Operation<Q, D> {
  return operation;
}
