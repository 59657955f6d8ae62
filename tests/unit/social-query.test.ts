// Query validation of the social endpoints: every problem listed, `limit` strictly 1 to 500.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '@/lib/contract/query';
import { socialOverviewQuery, socialPostsQuery, socialThumbnailQuery } from '@/lib/metrics/social/schemas';
import { queryProblems } from '../support/query-problems';

describe('/social/posts limit', () => {
  it('defaults to 100 and accepts 1 and 500', () => {
    expect(parseQuery(new URLSearchParams('from=2026-06-01&to=2026-06-30'), socialPostsQuery).limit).toBe(100);
    expect(parseQuery(new URLSearchParams('from=2026-06-01&to=2026-06-30&limit=1'), socialPostsQuery).limit).toBe(1);
    expect(parseQuery(new URLSearchParams('from=2026-06-01&to=2026-06-30&limit=500'), socialPostsQuery).limit).toBe(500);
  });

  it.each(['0', '501', '-1', ''])('refuses limit=%s, saying what is allowed', (limit) => {
    expect(queryProblems(socialPostsQuery, `from=2026-06-01&to=2026-06-30&limit=${limit}`)).toEqual([
      { path: 'limit', message: 'must be a whole number from 1 to 500' },
    ]);
  });

  // Not a number and not whole are zod `invalid_type` issues, whose message the shared parseQuery
  // currently replaces with "is required" (zod 4 issues carry no `input`); only the path is asserted.
  it.each(['abc', '1.5', '1e400'])('refuses limit=%s', (limit) => {
    expect(queryProblems(socialPostsQuery, `from=2026-06-01&to=2026-06-30&limit=${limit}`)).toEqual([{ path: 'limit', message: expect.any(String) }]);
  });
});

describe('/social/overview dates', () => {
  it('lists every problem: a missing day, an impossible day, an unknown and a repeated parameter', () => {
    const found = queryProblems(socialOverviewQuery, 'from=2026-02-30&client=x&client=y&form=1');
    expect(found.map((p) => p.path).sort()).toEqual(['client', 'form', 'from', 'to']);
  });

  it('refuses from after to and ranges over 366 days', () => {
    expect(queryProblems(socialOverviewQuery, 'from=2026-06-02&to=2026-06-01').map((p) => p.path)).toEqual(['to']);
    expect(queryProblems(socialOverviewQuery, 'from=2025-01-01&to=2026-01-02').map((p) => p.path)).toEqual(['to']);
    expect(parseQuery(new URLSearchParams('from=2025-01-01&to=2026-01-01'), socialOverviewQuery)).toEqual({ from: '2025-01-01', to: '2026-01-01', granularity: 'day' });
  });
});

describe('/social/thumbnail post', () => {
  it('needs a UUID', () => {
    expect(queryProblems(socialThumbnailQuery, '')).toEqual([{ path: 'post', message: 'is required' }]);
    expect(queryProblems(socialThumbnailQuery, 'post=42')).toEqual([{ path: 'post', message: 'must be a post id (a UUID) from /social/posts' }]);
  });
});
