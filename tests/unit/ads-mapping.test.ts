import { describe, expect, it } from 'vitest';
import { capRows, clientLineage, entityFigures, isBreakdownStale } from '@/lib/metrics/ads/mapping';
import type { EntityAggregateRow } from '@/lib/metrics/ads/queries/entity-lists';

describe('clientLineage', () => {
  it("names an unassigned account's rows after the account, with a null id", () => {
    expect(clientLineage({ client_id: null, client_name: null, account_name: 'Sandbox' })).toEqual({ id: null, name: 'Sandbox' });
    expect(clientLineage({ client_id: 'c1', client_name: 'Acme', account_name: 'Acme · India' })).toEqual({ id: 'c1', name: 'Acme' });
  });
});

describe('capRows', () => {
  it('keeps the cap and says whether more were there', () => {
    expect(capRows([1, 2, 3], 2)).toEqual({ rows: [1, 2], truncated: true });
    expect(capRows([1, 2], 2)).toEqual({ rows: [1, 2], truncated: false });
  });
});

describe('entityFigures', () => {
  const row = (overrides: Partial<EntityAggregateRow>) =>
    ({
      spend: '12.50',
      impressions: '0',
      clicks: '0',
      link_clicks: '0',
      reach_peak: '0',
      reach_days: '0',
      result_type: null,
      results: null,
      reported_spend: null,
      ...overrides,
    }) as EntityAggregateRow;

  it('gives null ratios for zero or unreported denominators', () => {
    expect(entityFigures(row({}))).toMatchObject({ ctr: null, cpc: null, costPerResult: null, frequency: null, results: null, resultType: null });
  });

  it('computes ctr in percent, cpc, cost per result and frequency over person-days', () => {
    const figures = entityFigures(
      row({ impressions: '2000', clicks: '50', reach_peak: '700', reach_days: '1000', result_type: 'lead', results: '5', reported_spend: '10.00' }),
    );
    expect(figures).toMatchObject({ ctr: 2.5, cpc: 0.25, costPerResult: 2, frequency: 2, reach: 700, results: 5, resultType: 'lead' });
  });
});

describe('isBreakdownStale', () => {
  const now = new Date('2026-06-30T12:00:00Z');

  it('is stale when nothing is cached', () => {
    expect(isBreakdownStale(null, '2026-01-31', now)).toBe(true);
  });

  it('is fresh within the sync interval', () => {
    expect(isBreakdownStale(new Date('2026-06-30T11:30:00Z'), '2026-06-29', now)).toBe(false);
  });

  it('is stale when older than an hour and fetched within 28 days of the range end (IST)', () => {
    expect(isBreakdownStale(new Date('2026-06-30T10:00:00Z'), '2026-06-29', now)).toBe(true);
    // Fetched on 2026-06-27 IST (21:00 UTC on the 26th is 02:30 IST on the 27th): 27 days after 2026-05-31.
    expect(isBreakdownStale(new Date('2026-06-26T21:00:00Z'), '2026-05-31', now)).toBe(true);
  });

  it('is final when fetched 28 days or more after the range ended', () => {
    expect(isBreakdownStale(new Date('2026-06-28T00:00:00Z'), '2026-05-31', now)).toBe(false);
  });
});
