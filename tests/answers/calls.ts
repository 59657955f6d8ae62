// The calls the answer comparison makes (tests/answers/compare-answers.ts): every operation of the
// registry over a wide set of arguments, so that a restructure that changes any answer shows. The
// arguments cover what makes SQL differ: the range's length and position (whole quarters, months and
// ten-day blocks, partial blocks at either end, a new year inside it, days before any data), each
// granularity and compare mode, a whole organisation and one client (by the key's reach and by the
// `client` parameter), filters, searches, limits and offsets, and a few refusals (400 and 404).
import { allOperations } from '@/lib/operations/registry';
import type { Operation } from '@/lib/contract/operation';
import { addDays } from '@/lib/time/days';

/** The rows of the seeded database that calls name: the client and the entities of the organisation. */
export interface CallFixtures {
  endDate: string;
  clientId: string;
  campaignId: string;
  adSetId: string;
  adId: string;
  postId: string;
  /** A cached breakdown: its entity and exact range. */
  breakdown: { level: string; entityId: string; from: string; to: string };
}

export type Reach = 'org' | 'client';

/** One call: an operation, its query string (REST) and the reach of the credential that makes it. */
export interface Call {
  /** Unique, stable across runs: the key of the recording. */
  name: string;
  operation: Operation;
  reach: Reach;
  params: URLSearchParams;
}

/** Ranges ending at the seed's end date, and a few placed where the range split changes shape. */
function ranges(endDate: string): { from: string; to: string }[] {
  const ending = [1, 7, 30, 90, 366].map((days) => ({ from: addDays(endDate, 1 - days), to: endDate }));
  return [
    ...ending,
    // Partial ten-day blocks at both ends, whole months between.
    { from: '2026-01-05', to: '2026-03-17' },
    // A new year inside, months up to and from it.
    { from: '2025-11-14', to: '2026-02-23' },
    // Whole calendar quarters and the months around them.
    { from: '2025-08-01', to: '2026-05-31' },
    // Inside one ten-day block.
    { from: '2026-04-12', to: '2026-04-18' },
    // Before any data.
    { from: '2020-01-01', to: '2020-01-31' },
  ];
}

const GRANULARITIES = ['day', 'week', 'month'];
const COMPARES = ['previous', 'prevMonth', 'prevYear', 'none'];

/** The query variants of an operation beyond its range, by path. */
function variants(path: string, f: CallFixtures): Record<string, string>[] {
  const levels = ['campaign', 'adset', 'ad'];
  switch (path) {
    case '/ads/overview':
      return [...GRANULARITIES.map((granularity) => ({ granularity })), { campaignId: f.campaignId }, { adSetId: f.adSetId }, { adId: f.adId }];
    case '/ads/entities':
      return levels.flatMap((level): Record<string, string>[] => [{ level }, { level, offset: '20' }, { level, search: 'a' }, { level, search: 'zz-none' }]);
    case '/social/overview':
      return GRANULARITIES.map((granularity) => ({ granularity }));
    case '/social/posts':
      return [{}, { limit: '5' }, { limit: '100', offset: '10' }, { offset: '1000' }];
    case '/website/overview':
    case '/store/overview':
    case '/website/search':
      return [
        ...GRANULARITIES.map((granularity) => ({ granularity })),
        ...COMPARES.map((compare) => ({ compare })),
        { limit: '1' },
        // The longest tables with a compare range, by weeks (search: by months).
        { limit: '25', compare: 'prevYear', granularity: path === '/website/search' ? 'month' : 'week' },
      ];
    default:
      return [{}];
  }
}

/** Calls that name one thing, or that are refused. */
function specialCalls(path: string, f: CallFixtures): Record<string, string>[] {
  const b = f.breakdown;
  switch (path) {
    case '/ads/breakdowns':
      return [
        { level: b.level, entityId: b.entityId, from: b.from, to: b.to },
        { level: b.level, entityId: b.entityId, from: addDays(b.from, 1), to: b.to },
        { level: 'campaign', entityId: f.campaignId, from: addDays(f.endDate, -29), to: f.endDate },
        { level: 'campaign', entityId: '00000000-0000-4000-8000-000000000000', from: addDays(f.endDate, -29), to: f.endDate },
      ];
    case '/social/thumbnail':
      return [{ post: f.postId }, { post: '00000000-0000-4000-8000-000000000000' }];
    case '/ads/entities':
      return [{ level: 'campaign', from: f.endDate, to: addDays(f.endDate, -1) }, { level: 'nope', from: '2026-02-30', to: f.endDate }];
    default:
      return [];
  }
}

/** Every call, in a fixed order. */
export function everyCall(f: CallFixtures): Call[] {
  const calls: Call[] = [];
  const add = (operation: Operation, reach: Reach, query: Record<string, string>) => {
    const params = new URLSearchParams(query);
    calls.push({ name: `${reach} ${operation.path}?${params}`, operation, reach, params });
  };
  for (const operation of allOperations()) {
    const ranged = 'from' in operation.query.shape && operation.path !== '/ads/breakdowns';
    for (const reach of ['org', 'client'] as const) {
      for (const query of specialCalls(operation.path, f)) add(operation, reach, query);
      if (!ranged) {
        if (!specialCalls(operation.path, f).length) add(operation, reach, {});
        continue;
      }
      for (const range of ranges(f.endDate)) {
        for (const variant of variants(operation.path, f)) add(operation, reach, { ...range, ...variant });
        // A whole organisation's key narrowed to one client by the parameter.
        if (reach === 'org' && 'client' in operation.query.shape) add(operation, reach, { ...range, client: f.clientId, ...variants(operation.path, f)[0] });
      }
    }
  }
  return calls;
}
