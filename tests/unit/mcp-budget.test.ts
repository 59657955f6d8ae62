// The answer budget on hand-made answers: a whole answer passes untouched; a list cut by `limit` gets
// `meta.nextOffset` and a note; a long list is cut to what fits, in the REST envelope (`truncated` in
// data and meta), with `meta.nextOffset` and a note naming the offset that continues it and the
// arguments that narrow it, never a larger limit.
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { ANSWER_TOKEN_BUDGET } from '@/lib/contract/limits';
import { withinBudget } from '@/lib/mcp/budget';
import { TOOL_OPERATIONS } from '@/lib/mcp/catalogue';
import { envelope } from '@/lib/contract/envelope';

const operation = (name: string) => TOOL_OPERATIONS.find((candidate) => candidate.tool!.name === name)!;
const row = (index: number) => ({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, name: `Ad ${index} · Summer collection`, spend: 1234.56 + index, impressions: 98765 + index });

describe('withinBudget', () => {
  it('passes an answer that fits untouched, without a note', () => {
    const answer = envelope({ rows: [row(1), row(2)], truncated: false }, { syncedAt: null, from: '2026-06-01', to: '2026-06-30', truncated: false });
    expect(withinBudget(operation('list_ad_entities'), {}, answer)).toEqual({ answer, note: null });
  });

  it('gives a list cut by `limit` (the operation\'s own `truncated`) the offset that reads on, in meta and in words', () => {
    const answer = envelope({ rows: [row(1), row(2)], truncated: true }, { syncedAt: null, from: '2026-06-01', to: '2026-06-30', truncated: true });
    const { answer: cut, note } = withinBudget(operation('list_ad_entities'), { limit: 2, offset: 30 }, answer);
    expect(cut).toEqual({ ...answer, meta: { ...answer.meta, nextOffset: 32 } });
    expect(note).toBe('More rows follow: call again with the same arguments and `"offset": 32`.');
    // The caller's answer is not changed.
    expect(answer.meta).not.toHaveProperty('nextOffset');
  });

  it('cuts a long list to the most rows that fit, and says which offset continues it', () => {
    const rows = Array.from({ length: 2000 }, (_, index) => row(index));
    const answer = envelope({ rows, truncated: false }, { syncedAt: null, from: '2026-06-01', to: '2026-06-30', truncated: false });
    const { answer: cut, note } = withinBudget(operation('list_ad_entities'), { offset: 100 }, answer);
    const kept = (cut.data as { rows: unknown[] }).rows;
    expect(kept).toEqual(rows.slice(0, kept.length));
    expect(kept.length).toBeGreaterThan(100);
    expect(countTokens(JSON.stringify(cut)) + countTokens(note!)).toBeLessThanOrEqual(ANSWER_TOKEN_BUDGET);
    expect((cut.data as { truncated: boolean }).truncated).toBe(true);
    expect(cut.meta.truncated).toBe(true);
    expect(note).toBe(
      `Truncated to fit the answer budget of 20,000 tokens: rows cut after ${kept.length}: call again with the same arguments and \`"offset": ${100 + kept.length}\`. Or narrow with client, search, a shorter \`from\`…\`to\`.`,
    );
    expect(cut.meta.nextOffset).toBe(100 + kept.length);
    // The caller's answer is not changed.
    expect((answer.data as { rows: unknown[] }).rows).toHaveLength(2000);
  });

  it('cuts an overview’s campaigns and series together, each to the same share', () => {
    const answer = envelope(
      {
        series: Array.from({ length: 366 }, (_, index) => ({ date: `2025-07-${String((index % 28) + 1).padStart(2, '0')}`, spend: 1000.5 + index, impressions: 50000 + index, clicks: 700 + index, reach: 30000 + index, results: index })),
        campaigns: Array.from({ length: 500 }, (_, index) => row(index)),
      },
      { syncedAt: null, truncated: false },
    );
    const { answer: cut, note } = withinBudget(operation('get_ads_overview'), {}, answer);
    const data = cut.data as { series: unknown[]; campaigns: unknown[] };
    expect(Math.abs(data.series.length / 366 - data.campaigns.length / 500)).toBeLessThan(0.01);
    expect(note).toContain('list_ad_entities');
    expect(note).toContain('"granularity": "week"');
    expect(note).not.toMatch(/raise|increase|larger limit/i);
  });
});
