// Regressions of what a hostile query once did to a real server: days near 9999-12-31 hung the process
// (a loop over day strings that never ended), years 0000/0001 and NUL bytes reached PostgreSQL and
// answered 500, `compare=prevYear` of years 1-99 compared with 1900-1999, and `entityId` had no cap.
// Each reproduction now answers 400 `validation_failed` with every problem named, and the server
// answers its health check right after.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from '@/lib/db';
import type { Operation } from '@/lib/contract/operation';
import { adsBreakdownsOperation } from '@/lib/metrics/ads/operations';
import { allOperations } from '@/lib/operations/registry';
import { addDays } from '@/lib/time/days';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { startTestServer, type TestServer } from '../support/http-server';
import { seededOrgs } from './platform-support';

const { main } = seededOrgs();
let server: TestServer;
let campaignId: string;

beforeAll(async () => {
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  const campaigns = await sql<{ id: string }>('SELECT id FROM campaigns WHERE org_id = $1 ORDER BY id LIMIT 1', [main.id]);
  campaignId = campaigns[0]!.id;
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** A request that may not hang: past 10 s it fails (the fault made requests wait for ever). */
function get(pathAndQuery: string, key?: string): Promise<Response> {
  return fetch(new URL(pathAndQuery, server.origin), {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    signal: AbortSignal.timeout(10_000),
  });
}

async function expectHealthy(): Promise<void> {
  const response = await get('/api/health');
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', instance: expect.any(String) });
}

async function expectInvalid(pathAndQuery: string, key: string, errors: { path: string; message: string }[]): Promise<void> {
  const body = await expectProblem(await get(pathAndQuery, key), 400, 'validation_failed');
  expect(body.errors).toEqual(errors);
}

/** The window's last day, from the clock: 366 days after today in IST. */
const windowLast = () => addDays(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date()), 366);
const BEFORE_FIRST = 'must be on or after 2000-01-01';
const afterLast = (last: string) => `must be on or before ${last} (366 days after today in IST)`;
const CONTROL = 'must not contain control characters';

/**
 * Runs `check` with the window's last day; again once if IST midnight passed meanwhile (the server's
 * window then moved by a day under the test's feet).
 */
async function onOneIstDay(check: (last: string) => Promise<void>): Promise<void> {
  const last = windowLast();
  try {
    await check(last);
  } catch (error) {
    if (windowLast() === last) throw error;
    await check(windowLast());
  }
}

const withDates = allOperations().filter((operation) => 'from' in operation.query.shape);

/** Valid values for an operation's required parameters other than the dates (a real campaign for breakdowns). */
function required(operation: Operation): string {
  const shape = operation.query.shape;
  return [...('level' in shape ? ['level=campaign'] : []), ...('entityId' in shape ? [`entityId=${campaignId}`] : [])].map((p) => `${p}&`).join('');
}

describe('finding 1: days near 9999-12-31 answer 400 at once, and the server stays healthy', () => {
  it.each([
    ['/api/v1/ads/entities?level=campaign&from=9999-12-31&to=9999-12-31'],
    ['/api/v1/ads/overview?from=9999-12-31&to=9999-12-31'],
    ['/api/v1/ads/overview?from=9999-12-21&to=9999-12-31'],
    ['/api/v1/ads/entities?level=ad&from=9999-12-21&to=9999-12-31'],
  ])('%s', async (pathAndQuery) => {
    const key = await mintKey({ orgId: main.id });
    await onOneIstDay(async (last) => {
      await expectInvalid(pathAndQuery, key, [
        { path: 'from', message: afterLast(last) },
        { path: 'to', message: afterLast(last) },
      ]);
    });
    await expectHealthy();
  });
});

describe('finding 4: days the database cannot hold are outside the window, on every endpoint with dates', () => {
  it.each(withDates.map((operation) => [operation.path, operation] as const))('%s', async (_, operation) => {
    const key = await mintKey({ orgId: main.id });
    const path = `/api/v1${operation.path}?${required(operation)}`;
    for (const [from, to] of [
      ['0000-01-01', '0000-01-31'],
      ['0001-01-01', '0001-12-31'],
      ['1999-12-31', '1999-12-31'],
    ]) {
      await expectInvalid(`${path}from=${from}&to=${to}`, key, [
        { path: 'from', message: BEFORE_FIRST },
        { path: 'to', message: BEFORE_FIRST },
      ]);
    }
    await onOneIstDay(async (last) => {
      await expectInvalid(`${path}from=${last}&to=${addDays(last, 1)}`, key, [{ path: 'to', message: afterLast(last) }]);
      await expectInvalid(`${path}from=9999-12-31&to=9999-12-31`, key, [
        { path: 'from', message: afterLast(last) },
        { path: 'to', message: afterLast(last) },
      ]);
      // The window's own edges are served.
      await expectContract(operation, await get(`${path}from=${addDays(last, -365)}&to=${last}`, key));
    });
    await expectContract(operation, await get(`${path}from=2000-01-01&to=2000-12-31`, key));
    await expectHealthy();
  });

  const withCompare = allOperations().filter((operation) => 'compare' in operation.query.shape);
  it.each(withCompare.map((operation) => [operation.path, operation] as const))('%s: prevYear of years 1-99 is refused, not compared with 1900-1999', async (path, operation) => {
    const key = await mintKey({ orgId: main.id });
    for (const [from, to] of [
      ['0001-03-01', '0001-03-31'],
      ['0050-01-01', '0050-12-31'],
      ['0099-02-01', '0099-02-28'],
    ]) {
      await expectInvalid(`/api/v1${path}?from=${from}&to=${to}&compare=prevYear`, key, [
        { path: 'from', message: BEFORE_FIRST },
        { path: 'to', message: BEFORE_FIRST },
      ]);
    }
    const body = await expectContract<{ data: { compare: { from: string; to: string } } }>(
      operation,
      await get(`/api/v1${path}?from=2000-02-01&to=2000-02-29&compare=prevYear`, key),
    );
    expect(body.data.compare).toEqual({ from: '1999-02-01', to: '1999-02-28' });
    await expectHealthy();
  });
});

describe('finding 5: a control character in any parameter of any endpoint is a 400 naming it', () => {
  /** Valid values for every parameter, so that the control character is the query's only problem. */
  function validQuery(operation: Operation): Record<string, string> {
    const values: Record<string, string> = { from: '2026-06-01', to: '2026-06-30', level: 'campaign', entityId: campaignId, campaignId, compare: 'none', limit: '5', offset: '0', granularity: 'week' };
    return Object.fromEntries(Object.keys(operation.query.shape).map((name) => [name, values[name] ?? '00000000-0000-4000-8000-000000000000']));
  }

  const withParameters = allOperations().filter((operation) => Object.keys(operation.query.shape).length > 0);
  it.each(withParameters.map((operation) => [operation.path, operation] as const))('%s', async (_, operation) => {
    const key = await mintKey({ orgId: main.id });
    const valid = validQuery(operation);
    for (const name of Object.keys(valid)) {
      for (const control of ['%00', '%01', '%1F', '%7F', '%C2%85', '%09', '%0A']) {
        // The raw encoding is written here: URLSearchParams would encode `%` itself.
        const query = Object.entries(valid)
          .map(([param, value]) => `${param}=${param === name ? `${encodeURIComponent(value)}${control}` : encodeURIComponent(value)}`)
          .join('&');
        await expectInvalid(`/api/v1${operation.path}?${query}`, key, [{ path: name, message: CONTROL }]);
      }
    }
    await expectHealthy();
  }, 60_000);

  it('a NUL in search, campaignId, adSetId, adId and entityId at once: each named', async () => {
    const key = await mintKey({ orgId: main.id });
    await expectInvalid('/api/v1/ads/entities?level=ad&from=2026-06-01&to=2026-06-30&search=a%00b', key, [{ path: 'search', message: CONTROL }]);
    await expectInvalid('/api/v1/ads/overview?from=2026-06-01&to=2026-06-30&campaignId=%00&adSetId=x%00&adId=%00y', key, [
      { path: 'campaignId', message: CONTROL },
      { path: 'adSetId', message: CONTROL },
      { path: 'adId', message: CONTROL },
    ]);
    await expectInvalid('/api/v1/ads/breakdowns?level=ad&from=2026-06-01&to=2026-06-30&entityId=%00', key, [{ path: 'entityId', message: CONTROL }]);
    await expectInvalid('/api/v1/social/thumbnail?post=%00', key, [{ path: 'post', message: CONTROL }]);
    await expectHealthy();
  });
});

describe('finding 5: entityId is 1 to 64 characters, like campaignId', () => {
  it('65 characters or none is a 400; 64 that name nothing is the usual 404', async () => {
    const key = await mintKey({ orgId: main.id });
    const path = '/api/v1/ads/breakdowns?level=campaign&from=2026-06-01&to=2026-06-30&entityId=';
    for (const entityId of ['x'.repeat(65), 'x'.repeat(5000), '']) {
      await expectInvalid(`${path}${entityId}`, key, [{ path: 'entityId', message: 'must be 1 to 64 characters long' }]);
    }
    await expectProblem(await get(`${path}${'x'.repeat(64)}`, key), 404, 'not_found');
    await expectContract(adsBreakdownsOperation, await get(`${path}${campaignId}`, key));
    await expectInvalid(`/api/v1/ads/overview?from=2026-06-01&to=2026-06-30&campaignId=${'x'.repeat(65)}`, key, [
      { path: 'campaignId', message: 'must be 1 to 64 characters long' },
    ]);
    await expectInvalid(`/api/v1/ads/entities?level=ad&from=2026-06-01&to=2026-06-30&search=${'x'.repeat(101)}`, key, [
      { path: 'search', message: 'must be 1 to 100 characters long' },
    ]);
    await expectHealthy();
  });
});
