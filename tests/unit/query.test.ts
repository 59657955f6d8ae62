// The query parser's rules shared by every endpoint: the date window and plain text in every value,
// each problem listed with its parameter beside every other one.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '@/lib/contract/query';
import { adsBreakdownsQuery, adsEntitiesQuery, adsOverviewQuery } from '@/lib/metrics/ads/schemas';
import { comparedRangeQuery } from '@/lib/metrics/compare';
import { socialThumbnailQuery } from '@/lib/metrics/social/schemas';
import { addDays } from '@/lib/time/days';
import { queryProblems } from '../support/query-problems';

/** The window's last day: 366 days after today in IST, from the clock. */
const last = () => addDays(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date()), 366);
const AFTER_LAST = (day: string) => `must be on or before ${day} (366 days after today in IST)`;
const BEFORE_FIRST = 'must be on or after 2000-01-01';

describe('the date window', () => {
  it('accepts its first and its last day', () => {
    expect(parseQuery(new URLSearchParams('level=ad&from=2000-01-01&to=2000-12-31'), adsEntitiesQuery)).toEqual({
      level: 'ad',
      from: '2000-01-01',
      to: '2000-12-31',
      offset: 0,
    });
    const end = last();
    expect(parseQuery(new URLSearchParams(`from=${addDays(end, -365)}&to=${end}`), adsOverviewQuery)).toEqual({ from: addDays(end, -365), to: end, granularity: 'day' });
  });

  it('refuses the day before and the day after, naming each parameter', () => {
    expect(queryProblems(adsOverviewQuery, 'from=1999-12-31&to=2000-01-01')).toEqual([{ path: 'from', message: BEFORE_FIRST }]);
    const end = last();
    expect(queryProblems(adsOverviewQuery, `from=${end}&to=${addDays(end, 1)}`)).toEqual([{ path: 'to', message: AFTER_LAST(end) }]);
  });

  it.each([
    ['9999-12-31', '9999-12-31'],
    ['9999-12-21', '9999-12-31'],
    ['0000-01-01', '0000-01-31'],
    ['0001-01-01', '0001-12-31'],
  ])('refuses %s…%s on both parameters', (from, to) => {
    const expected = (day: string) => (day < '2000' ? BEFORE_FIRST : AFTER_LAST(last()));
    expect(queryProblems(adsEntitiesQuery, `level=campaign&from=${from}&to=${to}`)).toEqual([
      { path: 'from', message: expected(from) },
      { path: 'to', message: expected(to) },
    ]);
  });

  it('lists a day outside the window beside every other problem', () => {
    expect(queryProblems(comparedRangeQuery, 'from=0050-03-01&to=2026-02-30&compare=prevYear&limit=0&form=1')).toEqual([
      { path: 'form', message: 'is not a parameter of this endpoint' },
      { path: 'from', message: BEFORE_FIRST },
      { path: 'to', message: 'is not a real calendar date' },
      { path: 'limit', message: 'must be a whole number from 1 to 100' },
    ]);
  });
});

describe('plain text in every value', () => {
  it.each([
    ['search', adsEntitiesQuery, 'level=ad&from=2026-06-01&to=2026-06-30'],
    ['campaignId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30'],
    ['adSetId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30'],
    ['adId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30'],
    ['entityId', adsBreakdownsQuery, 'level=ad&from=2026-06-01&to=2026-06-30'],
    ['post', socialThumbnailQuery, ''],
  ] as const)('%s: a NUL or another control character is refused by name', (name, schema, rest) => {
    // (A lone surrogate cannot reach the parser: URLSearchParams holds USV strings, where it is U+FFFD.)
    for (const value of ['a\u0000b', '\u0001', 'tab\there', 'line\nbreak', '\u007f', '\u0085']) {
      const query = new URLSearchParams(rest);
      query.set(name, value);
      expect(queryProblems(schema, query.toString())).toEqual([{ path: name, message: 'must not contain control characters' }]);
    }
  });

  it('checks dates, enums and numbers too, beside their other problems', () => {
    expect(queryProblems(comparedRangeQuery, 'from=2026-06-01%00&to=2026-06-30&compare=none%01&limit=5%0A')).toEqual([
      { path: 'from', message: 'must not contain control characters' },
      { path: 'compare', message: 'must not contain control characters' },
      { path: 'limit', message: 'must not contain control characters' },
    ]);
  });
});

describe('length caps', () => {
  it.each([
    ['entityId', adsBreakdownsQuery, 'level=ad&from=2026-06-01&to=2026-06-30', 64],
    ['campaignId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30', 64],
    ['adSetId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30', 64],
    ['adId', adsOverviewQuery, 'from=2026-06-01&to=2026-06-30', 64],
    ['search', adsEntitiesQuery, 'level=ad&from=2026-06-01&to=2026-06-30', 100],
  ] as const)('%s: 1 to %#… characters', (name, schema, rest, max) => {
    const query = (value: string) => `${rest}&${name}=${value}`;
    expect(parseQuery(new URLSearchParams(query('x'.repeat(max))), schema)).toMatchObject({ [name]: 'x'.repeat(max) });
    for (const value of ['', 'x'.repeat(max + 1), 'x'.repeat(10_000)]) {
      expect(queryProblems(schema, query(value))).toEqual([{ path: name, message: `must be 1 to ${max} characters long` }]);
    }
  });
});

describe('a choice among values', () => {
  it('is refused in the words of the other messages, naming each value, not in zod’s', () => {
    expect(queryProblems(adsOverviewQuery, 'from=2026-01-01&to=2026-01-31&granularity=year')).toEqual([
      { path: 'granularity', message: 'must be one of `day`, `week`, `month`' },
    ]);
    expect(queryProblems(adsEntitiesQuery, 'level=keyword&from=2026-01-01&to=2026-01-31')).toEqual([
      { path: 'level', message: 'must be one of `campaign`, `adset`, `ad`' },
    ]);
  });
});
