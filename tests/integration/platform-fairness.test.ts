// Fairness between organisations on a real server: one organisation floods the API with heavy
// requests from many keys at once, each key within its own limits (60 requests a minute, 4 at once),
// and another organisation's requests are all still answered 200 (before the organisations' turns were
// kept apart, they were refused with a 503 while the flood filled the turns and the queue). How fast
// they are answered meanwhile is the bench's fairness probe's to measure (tests/bench/fairness.ts),
// not a test's: a time limit here would pass or fail with the machine's load. The server runs only 2
// requests at once (API_CONCURRENCY_TOTAL) and lets 8 more wait, so that the flood, more than both
// together, really contends for them; its response cache is off, so that every request needs a turn.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { adsOverviewOperation } from '@/lib/metrics/ads/operations';
import { RATE_LIMIT } from '@/lib/contract/limits';
import { mintKey } from '../support/api';
import { expectContract } from '../support/contract';
import { startTestServer, type TestServer } from '../support/http-server';
import { minimalQuery, RANGE, seededOrgs } from './platform-support';
import { awayFromWindowEdge } from '../support/rate-limit-window';

const { main, other } = seededOrgs();

const FLOOD_KEYS = 24;
const IN_FLIGHT_PER_KEY = 2;
/** Requests of the other organisation, one after another, while the flood goes on. */
const PROBES = 20;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl'), env: { API_CONCURRENCY_TOTAL: '2', RESPONSE_CACHE_MAX_BYTES: '0' } });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one organisation flooding', () => {
  it("answers another organisation's every request, none refused", async () => {
    const floodKeys = await Promise.all(Array.from({ length: FLOOD_KEYS }, () => mintKey({ orgId: main.id, name: 'flood key' })));
    const probeKey = await mintKey({ orgId: other.id, name: 'probe key' });
    // The heaviest kind of request: a year of the whole organisation's ads.
    const heavy = minimalQuery(adsOverviewOperation, { from: '2025-07-01', to: RANGE.to });
    await awayFromWindowEdge(30_000);

    const floodStatuses: number[] = [];
    let probing = true;
    const flood = Promise.all(
      floodKeys.flatMap((key) =>
        Array.from({ length: IN_FLIGHT_PER_KEY }, async () => {
          for (let sent = 0; probing && sent < RATE_LIMIT.limit / IN_FLIGHT_PER_KEY; sent++) {
            const response = await server.request(heavy, { key });
            floodStatuses.push(response.status);
            await response.arrayBuffer();
            // As a client should, it waits out a refusal's Retry-After: the flood stays at the gate, not in a loop of refusals.
            if (response.status === 503) await sleep(Number(response.headers.get('retry-after')) * 1000);
          }
        }),
      ),
    );
    try {
      // The flood holds its turns and the queue once some of it is refused.
      while (!floodStatuses.includes(503)) await sleep(50);

      for (let probe = 0; probe < PROBES; probe++) {
        await expectContract(meOperation, await server.request('/api/v1/me', { key: probeKey }));
      }
    } finally {
      probing = false;
      await flood;
    }
    // Every request of the flood was within its key's limits: served, or refused for the process's sake.
    expect(new Set(floodStatuses)).toEqual(new Set([200, 503]));
  }, 120_000);
});
