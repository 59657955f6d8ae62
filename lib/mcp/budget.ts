// The answer budget: how many tokens one tool answer may cost a model, and the cut that keeps every
// answer within it. The rule lives here alone; the operations only say which lists may be cut and how
// to read on (ToolFace.cuts). A cut answer keeps the REST envelope (`truncated: true`, in `data` when
// the list has the flag, and in `meta`), and, whether the budget or `limit` cut it, gives the way on
// twice: `meta.nextOffset` for a list read on with `offset`, and a second text block in words, never
// telling the model to raise a limit past the budget.
import { ANSWER_TOKEN_BUDGET } from '../contract/limits';
import { z } from 'zod';
import { metaSchema, type Envelope, type Meta } from '../contract/envelope';
import type { Operation, ToolCut } from '../contract/operation';
import { GRANULARITIES } from '../time/buckets';

const NEXT_OFFSET = z.number().int().min(0).optional().describe('Set when a list came cut: the `offset` that reads on.');
const GRANULARITY = z.enum(GRANULARITIES).optional().describe('The buckets of the series.');

/**
 * `meta` of a tool's answers: REST's keys, and those of MCP's own that the tool can send: `nextOffset`
 * when one of its lists is read on with `offset`, `granularity` when it chooses its series' buckets.
 * REST's `meta` keeps exactly the spec's keys (a REST caller reads on with the offset it sent plus the
 * rows it received, docs/api.md).
 */
function toolMetaSchema(operation: Operation) {
  return metaSchema.extend({
    ...((operation.tool!.cuts ?? []).some((cut) => cut.nextOffset) ? { nextOffset: NEXT_OFFSET } : {}),
    ...(operation.tool!.series ? { granularity: GRANULARITY } : {}),
  });
}

/** A tool's answer: the operation's `data` and the tool's `meta`, no other key. */
export function toolEnvelopeSchema(operation: Operation) {
  return z.object({ data: operation.data, meta: toolMetaSchema(operation) }).strict();
}

/** `meta` of any tool answer. */
export type ToolMeta = Meta & { nextOffset?: number; granularity?: z.infer<typeof GRANULARITY> };

export interface ToolEnvelope {
  data: unknown;
  meta: ToolMeta;
}

/**
 * Bytes of answer JSON per o200k token, at the dense end: JSON of ids and numbers runs 2.75 to 3.5 bytes
 * a token (prose about 4). Calibrated on the `large` dataset's answers with gpt-tokenizer (the lowest
 * ratio seen, less a margin); tests/integration/mcp-answer-sizes.test.ts checks the estimate against the
 * tokenizer.
 */
export const BYTES_PER_TOKEN = 2.5;

/** Room kept for the note that comes with a cut answer. */
const NOTE_TOKENS = 200;

/** Whether an answer of this many bytes of JSON, with room for its note, costs at most `tokens` (by an estimate never below the real count). */
export function fitsBytes(bytes: number, tokens: number): boolean {
  return Math.ceil(bytes / BYTES_PER_TOKEN) + NOTE_TOKENS <= tokens;
}

export interface BudgetedAnswer {
  answer: ToolEnvelope;
  /** How to read on when a list was cut; null when the answer is whole. */
  note: string | null;
}

/** The argument names that narrow an operation's answer: its query's, less the list's own and the shape's. */
function narrowingArguments(operation: Operation): string[] {
  const query = operation.tool!.query ?? operation.query;
  const names = Object.keys(query.shape).filter((name) => !['limit', 'offset', 'series', 'granularity', 'level'].includes(name));
  return names.includes('from') ? [...names.filter((name) => name !== 'from' && name !== 'to'), 'a shorter `from`…`to`'] : names;
}

/** Whether the answer, with room for its note, costs at most `tokens`. */
export function fits(answer: Envelope<unknown>, tokens = ANSWER_TOKEN_BUDGET): boolean {
  return fitsBytes(Buffer.byteLength(JSON.stringify(answer)), tokens);
}

/**
 * Shortens the cuts' lists in `answer` (a copy the caller owns) together, each to the same share of its
 * length, the largest share that fits (so that an overview keeps some of its campaigns and some of its
 * series rather than all of one and none of the other); returns how many rows of each list were kept.
 */
function shorten(answer: Envelope<unknown>, cuts: ToolCut[]): number[] {
  const lists = cuts.map((cut) => cut.lists(answer.data as never));
  const originals = lists.map((ofCut) => ofCut.map((list) => [...list]));
  const longest = Math.max(0, ...originals.flat().map((list) => list.length));
  const share = (length: number, steps: number) => (longest === 0 ? 0 : Math.floor((length * steps) / longest));
  const keep = (steps: number) =>
    lists.forEach((ofCut, c) =>
      ofCut.forEach((list, l) => {
        const original = originals[c]![l]!;
        list.splice(0, list.length, ...original.slice(0, share(original.length, steps)));
      }),
    );
  // The most steps (rows of the longest list) that fit: answers grow with each row kept.
  let low = 0;
  let high = longest;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    keep(middle);
    if (fits(answer)) low = middle;
    else high = middle - 1;
  }
  keep(low);
  return originals.map((ofCut) => Math.max(0, ...ofCut.map((list) => share(list.length, low))));
}

/** The answer with its lists cut to fit the budget, and what was said about each cut list; unchanged when it fits. */
function cutToBudget(operation: Operation, args: Record<string, unknown>, answer: Envelope<unknown>): { answer: Envelope<unknown>; cut: Map<ToolCut, string> } {
  const cuts = operation.tool!.cuts ?? [];
  if (fits(answer) || cuts.length === 0) return { answer, cut: new Map() };
  const cut = structuredClone(answer);
  const lengths = cuts.map((list) => Math.max(0, ...list.lists(cut.data as never).map((rows) => rows.length)));
  const kept = shorten(cut, cuts);
  const notes = new Map(
    cuts.flatMap((list, index) => (kept[index]! < lengths[index]! ? [[list, `${list.what} cut after ${kept[index]}: ${list.next(kept[index]!, args, cut.data as never)}`] as const] : [])),
  );
  const data = cut.data as Record<string, unknown>;
  if (typeof data === 'object' && !Array.isArray(data) && 'truncated' in data) data.truncated = true;
  cut.meta.truncated = true;
  return { answer: cut, cut: notes };
}

/**
 * The answer within the budget (whole when it fits, else with the operation's lists cut), and, when a
 * list read on with `offset` came cut (by the budget, or by `limit` or the cap: `meta.truncated`), the
 * offset that continues it in `meta.nextOffset` and in the note.
 */
export function withinBudget(operation: Operation, args: Record<string, unknown>, answer: Envelope<unknown>): BudgetedAnswer {
  const { answer: budgeted, cut } = cutToBudget(operation, args, answer);
  const sentences: string[] = [];
  if (cut.size > 0) {
    const narrowing = narrowingArguments(operation);
    sentences.push(
      `Truncated to fit the answer budget of ${ANSWER_TOKEN_BUDGET.toLocaleString('en-GB')} tokens: ${[...cut.values()].join('; ')}.${narrowing.length > 0 ? ` Or narrow with ${narrowing.join(', ')}.` : ''}`,
    );
  }
  const offsetList = (operation.tool!.cuts ?? []).find((list) => list.nextOffset);
  if (!budgeted.meta.truncated || !offsetList) return { answer: budgeted, note: sentences[0] ?? null };
  const kept = Math.max(0, ...offsetList.lists(budgeted.data as never).map((rows) => rows.length));
  // A list the budget did not cut was cut by `limit` (or the cap): its way on is said here.
  if (!cut.has(offsetList)) sentences.push(`More ${offsetList.what} follow: ${offsetList.next(kept, args, budgeted.data as never)}.`);
  return { answer: { ...budgeted, meta: { ...budgeted.meta, nextOffset: offsetList.nextOffset!(kept, args) } }, note: sentences.join(' ') };
}
