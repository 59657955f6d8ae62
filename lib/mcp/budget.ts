// The answer budget: how many tokens one tool answer may cost a model, and the cut that keeps every
// answer within it. The rule lives here alone; the operations only say which lists may be cut and how
// to read on (ToolFace.cuts). A cut answer keeps the REST envelope (`truncated: true`, in `data` when
// the list has the flag, and in `meta`) and carries a second text block telling the model how to get
// the rest, never to raise a limit past the budget.
import type { Envelope } from '../contract/envelope';
import type { Operation, ToolCut } from '../contract/operation';

/** At most this many tokens per answer (o200k), whatever the arguments: well under the ~25,000 that clients refuse. */
export const ANSWER_TOKEN_BUDGET = 20_000;
/** What an answer with default arguments should cost at most (the defaults of `limit` are chosen for it). */
export const DEFAULT_ANSWER_TOKENS = 6_000;

/**
 * Bytes of answer JSON per o200k token, at the dense end: JSON of ids and numbers runs 2.75 to 3.5 bytes
 * a token (prose about 4). Calibrated on the `large` dataset's answers with gpt-tokenizer (the lowest
 * ratio seen, less a margin); tests/integration/mcp-answer-sizes.test.ts checks the estimate against the
 * tokenizer.
 */
export const BYTES_PER_TOKEN = 2.5;

/** The estimated tokens of a text: never below the real count for answer JSON. */
function estimatedTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / BYTES_PER_TOKEN);
}

/** Room kept for the note that comes with a cut answer. */
const NOTE_TOKENS = 200;

export interface BudgetedAnswer {
  answer: Envelope<unknown>;
  /** How to read on when a list was cut; null when the answer is whole. */
  note: string | null;
}

/** The argument names that narrow an operation's answer: its query's, less the list's own and the shape's. */
function narrowingArguments(operation: Operation): string[] {
  const query = operation.tool!.query ?? operation.query;
  const names = Object.keys(query.shape).filter((name) => !['limit', 'offset', 'series', 'granularity', 'level'].includes(name));
  return names.includes('from') ? [...names.filter((name) => name !== 'from' && name !== 'to'), 'a shorter `from`…`to`'] : names;
}

function fits(answer: Envelope<unknown>): boolean {
  return estimatedTokens(JSON.stringify(answer)) + NOTE_TOKENS <= ANSWER_TOKEN_BUDGET;
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

/** The answer within the budget: whole when it fits, else with the operation's lists cut. */
export function withinBudget(operation: Operation, args: Record<string, unknown>, answer: Envelope<unknown>): BudgetedAnswer {
  if (fits(answer)) return { answer, note: null };
  const cuts = operation.tool!.cuts ?? [];
  if (cuts.length === 0) return { answer, note: null };
  const cut = structuredClone(answer);
  const lengths = cuts.map((list) => Math.max(0, ...list.lists(cut.data as never).map((rows) => rows.length)));
  const kept = shorten(cut, cuts);
  const notes = cuts.flatMap((list, index) =>
    kept[index]! < lengths[index]! ? [`${list.what} cut after ${kept[index]}: ${list.next(kept[index]!, args, cut.data as never)}`] : [],
  );
  const data = cut.data as Record<string, unknown>;
  if (typeof data === 'object' && !Array.isArray(data) && 'truncated' in data) data.truncated = true;
  cut.meta.truncated = true;
  const narrowing = narrowingArguments(operation);
  const note = `Truncated to fit the answer budget of ${ANSWER_TOKEN_BUDGET.toLocaleString('en-GB')} tokens: ${notes.join('; ')}.${narrowing.length > 0 ? ` Or narrow with ${narrowing.join(', ')}.` : ''}`;
  return { answer: cut, note };
}
