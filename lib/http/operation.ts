// An operation describes one endpoint once: path, scope, query schema and response schema. The route
// handler, the OpenAPI document and the MCP tools are all built from it.
import type { z } from 'zod';
import type { Scope } from '../auth/scopes';
import type { QuerySchema } from './query';

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
}

export function defineOperation<Q extends QuerySchema, D extends z.ZodType>(operation: Operation<Q, D>): Operation<Q, D> {
  return operation;
}
