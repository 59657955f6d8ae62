// The fuzz suite: property-based requests against every operation of the REST interface (taken from
// allOperations(), so a new endpoint is covered without a change here), on a real server and database.
//
// Each query is either valid (real client, entity and post ids of the seeded data, dates inside the
// window, so the 200 paths with data run) or a valid one mutated with hostile values: days at every
// edge of the date window and far beyond it, impossible days, control characters, broken percent-
// encoding, UTF-8 that decodes to U+FFFD (what a lone surrogate becomes), very long strings, numbers at
// and beyond every bound, repeated, unknown, renamed and missing parameters. The raw query strings are
// written here byte by byte (URLSearchParams would re-encode them).
//
// The expected answer of every query is worked out here from the query as the server decodes it (the
// WHATWG URL parser) and the seeded rows: a 400 names exactly the bad parameters, a 404 answers ids that
// are not in reach, a 200 matches its schema in the OpenAPI document. Never a 5xx, never a 429 (a pool
// of keys, none used more than 50 times in the run, one request at a time per key), every request within
// a time limit (a timeout is a failure), and the liveness check answers after every batch.
//
// Reproduce a run: FUZZ_SEED=<seed> npx vitest run tests/integration/platform-fuzz.test.ts
// (the seed is printed by every run; a failure prints the command with its FUZZ_PATH as well).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { sql } from '@/lib/db';
import type { Operation } from '@/lib/contract/operation';
import { allOperations } from '@/lib/operations/registry';
import { dayFromNumber, dayNumber } from '@/lib/time/days';
import { mintKey } from '../support/api';
import { expectContract, expectProblem } from '../support/contract';
import { BROKEN_ENCODINGS, CONTROLS, encode, FUZZ_PATH as PATH, FUZZ_SEED as SEED, TEXTS } from '../support/fuzz-values';
import { SEED_END_DATE } from '../support/global-setup';
import { fetchAgainIfStale, startTestServer, type TestServer } from '../support/http-server';
import { seededOrgs } from './platform-support';

const MIN_REQUESTS = 5_000;
const BATCH = 8;
const CONCURRENCY = 4;
/** A bound on every answer, not a speed target: a request that hangs fails the run. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Below the limit of 60 a minute even if a key's every request fell into one window. */
const USES_PER_KEY = 50;
/** Node's HTTP parser refuses request heads over 16 KiB before the app sees them. */
const MAX_QUERY_LENGTH = 12_000;

const { main, other } = seededOrgs();
const DATA_FIRST_DAY = dayFromNumber(dayNumber(SEED_END_DATE) - 59);

// ───────────── the seeded rows the queries name ─────────────

type Level = 'campaign' | 'adset' | 'ad';
interface Entity {
  level: Level;
  id: string;
  platformId: string;
  name: string;
  campaignId: string;
  adSetId: string | null;
  clientId: string | null;
}

interface World {
  clients: string[];
  foreignClients: string[];
  entities: Entity[];
  foreignEntities: Entity[];
  posts: { id: string; servable: boolean }[];
  foreignPosts: string[];
  /** The window's last day: 366 days after today in IST. */
  lastDay: string;
}

const ENTITIES_SQL = `
  SELECT level, e.id, e.platform_id AS "platformId", e.name, e.campaign_id AS "campaignId", e.ad_set_id AS "adSetId", a.client_id AS "clientId"
    FROM (SELECT 'campaign' AS level, id, org_id, account_id, platform_id, name, id AS campaign_id, NULL::uuid AS ad_set_id FROM campaigns
          UNION ALL SELECT 'adset', id, org_id, account_id, platform_id, name, campaign_id, id FROM ad_sets
          UNION ALL SELECT 'ad', id, org_id, account_id, platform_id, name, campaign_id, ad_set_id FROM ads) e
    JOIN ad_accounts a ON a.id = e.account_id
   WHERE e.org_id = $1
   ORDER BY level, e.platform_id`;

async function loadWorld(): Promise<World> {
  const ids = async (query: string, orgId: string) => (await sql<{ id: string }>(query, [orgId])).map((row) => row.id);
  const istToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  return {
    clients: await ids('SELECT id FROM clients WHERE org_id = $1 ORDER BY name, id', main.id),
    foreignClients: await ids('SELECT id FROM clients WHERE org_id = $1 ORDER BY name, id', other.id),
    entities: await sql<Entity>(ENTITIES_SQL, [main.id]),
    foreignEntities: await sql<Entity>(ENTITIES_SQL, [other.id]),
    posts: await sql<{ id: string; servable: boolean }>(
      `SELECT p.id, coalesce(t.content_type ~* '^image/(png|jpeg|webp|gif)\\s*(;|$)' AND t.bytes IS NOT NULL, false) AS servable
         FROM social_posts p LEFT JOIN social_post_thumbnails t ON t.post_id = p.id
        WHERE p.org_id = $1 ORDER BY p.post_id`,
      [main.id],
    ),
    foreignPosts: await ids('SELECT id FROM social_posts WHERE org_id = $1 ORDER BY post_id', other.id),
    lastDay: new Date(Date.parse(`${istToday}T00:00:00Z`) + 366 * 86_400_000).toISOString().slice(0, 10),
  };
}

// ───────────── raw query strings ─────────────

/** One `name=value` piece of a query, both raw (already encoded, or deliberately broken). */
interface Piece {
  name: string;
  value: string | null;
}

const rawQuery = (pieces: Piece[]) => pieces.map(({ name, value }) => (value === null ? name : `${name}=${value}`)).join('&');

/**
 * The parameters exactly as the app reads them. Next.js copies the query into a plain object before
 * the routes see it, so a parameter named `__proto__` is lost on the way (it sets the
 * object's prototype; vercel/next.js#97435): it is answered as if it were absent.
 */
const decoded = (raw: string): [string, string][] => [...new URL(`http://fuzz.invalid/p?${raw}`).searchParams].filter(([name]) => name !== '__proto__');

// ───────────── hostile values ─────────────

const ENUM_LIKE = ['Campaign', 'CAMPAIGN', 'campaign ', ' ad', 'adsets', 'prevyear', 'PREVIOUS', 'toString', 'hasOwnProperty', 'valueOf'];
const NUMBER_LIKE = ['-1', '-0', '1.5', '1e2', '1e309', '0x10', '+5', ' 5', '5 ', 'NaN', 'Infinity', '-Infinity', '9'.repeat(400), '1,000', '٣', '١٠', '0.0', '00001'];
const LONG_LENGTHS = [64, 65, 100, 101, 1_000, 4_000, 8_000];

function hostileDates(lastDay: string): string[] {
  const shift = (day: string, days: number) => dayFromNumber(dayNumber(day) + days);
  return [
    '1999-12-31',
    '2000-01-01',
    '2000-01-02',
    '2000-02-29',
    shift(lastDay, -366),
    shift(lastDay, -1),
    lastDay,
    shift(lastDay, 1),
    shift(lastDay, 366),
    '2038-01-19',
    '2100-02-28',
    '2100-02-29',
    '0000-01-01',
    '0001-01-01',
    '0099-12-31',
    '1900-01-01',
    '9999-12-21',
    '9999-12-31',
    '+010000-01-01',
    '-000001-12-31',
    '275760-09-13',
    '2026-02-29',
    '2024-02-29',
    '2024-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-06-00',
    '2026-1-1',
    '20260601',
    '2026-06-01T00:00:00Z',
    '2026-06-01 ',
    ' 2026-06-01',
    '2026/06/01',
    '２０２６-０６-０１',
    '٢٠٢٦-٠٦-٠١',
  ];
}

function hostileUuids(world: World): string[] {
  const client = world.clients[0]!;
  return [
    client.toUpperCase(),
    client.replaceAll('-', ''),
    `{${client}}`,
    `urn:uuid:${client}`,
    `${client}0`,
    client.slice(0, -1),
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '00000000-0000-0000-c000-000000000000',
    'gggggggg-gggg-4ggg-8ggg-gggggggggggg',
  ];
}

type Property = { type?: string; enum?: string[]; format?: string; minimum?: number; maximum?: number; maxLength?: number; pattern?: string };

function properties(operation: Operation): { properties: Record<string, Property>; required: string[] } {
  const schema = z.toJSONSchema(operation.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, Property>; required?: string[] };
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

const isDateParameter = (name: string) => name === 'from' || name === 'to';

/** A hostile raw value for a parameter, given its current raw value. */
function hostileValue(name: string, property: Property | undefined, current: string, world: World): fc.Arbitrary<string> {
  const withControl = fc
    .tuple(fc.constantFrom(...CONTROLS), fc.constantFrom('prefix', 'suffix', 'middle', 'alone'))
    .map(([control, where]) => {
      const half = Math.floor(current.length / 2);
      return { prefix: control + current, suffix: current + control, middle: current.slice(0, half) + control + current.slice(half), alone: control }[where]!;
    });
  const long = fc.tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom('x', 'é', '😀')).map(([length, char]) => encode(char.repeat(char === 'x' ? length : Math.min(length, 500))));
  const choices: fc.Arbitrary<string>[] = [
    withControl,
    fc.constantFrom(...BROKEN_ENCODINGS).map((broken) => current + broken),
    fc.constantFrom(...BROKEN_ENCODINGS),
    long,
    fc.constantFrom(...TEXTS).map(encode),
    fc.string({ unit: 'binary', maxLength: 30 }).map(encode),
    fc.constant(''),
  ];
  if (isDateParameter(name)) choices.push(fc.constantFrom(...hostileDates(world.lastDay)).map(encode), fc.constantFrom(...hostileDates(world.lastDay)).map(encode));
  if (property?.enum) choices.push(fc.constantFrom(...ENUM_LIKE).map(encode));
  if (property?.format === 'uuid') choices.push(fc.constantFrom(...hostileUuids(world)).map(encode), fc.uuid().map(encode));
  if (property?.type === 'integer' || property?.type === 'number') {
    const max = property.maximum ?? 1_000;
    choices.push(
      fc.constantFrom(...NUMBER_LIKE).map(encode),
      fc.constantFrom('0', '1', String(max), String(max + 1), String(2 ** 31), String(2 ** 53 + 1)),
      fc.integer({ min: -5, max: max + 5 }).map(String),
    );
  }
  if (property?.maxLength) choices.push(fc.constantFrom(property.maxLength, property.maxLength + 1).map((length) => 'y'.repeat(length)));
  return fc.oneof(...choices);
}

const UNKNOWN_NAMES = ['form', 'api_key', 'key', 'access_token', '__proto__', 'constructor', 'toString', 'a[]', 'from[]', 'x.y', 'FROM', 'From', 'to ', ' to', 'client_id', 'clientId', 'page', 'offset', ''];
const JUNK_PIECES = ['', '=', '==', 'x', '%zz', '%', '=%00', '%00', '%00=1', '%26=1', '?', '%3F=1', '+', '=+'];

type Mutation =
  | { kind: 'replace'; at: number; value: string }
  | { kind: 'repeat'; at: number; value: string }
  | { kind: 'drop'; at: number }
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'unknown'; name: string; value: string }
  | { kind: 'junk'; piece: string };

function mutations(pieces: Piece[], operation: Operation, world: World): fc.Arbitrary<Mutation[]> {
  const { properties: shape } = properties(operation);
  const anywhere: fc.Arbitrary<Mutation>[] = [
    fc
      .record({ name: fc.oneof(fc.constantFrom(...UNKNOWN_NAMES).map(encode), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(encode)), value: fc.oneof(fc.constant('v'), fc.constantFrom(...BROKEN_ENCODINGS)) })
      .map(({ name, value }) => ({ kind: 'unknown', name, value })),
    fc.constantFrom(...JUNK_PIECES).map((piece) => ({ kind: 'junk', piece })),
  ];
  const atPiece: fc.Arbitrary<Mutation>[] = pieces.length
    ? [
        fc.nat(pieces.length - 1).chain((at) => {
          const piece = pieces[at]!;
          const name = decodeURIComponent(piece.name);
          return hostileValue(name, shape[name], piece.value ?? '', world).map((value): Mutation => ({ kind: 'replace', at, value }));
        }),
        fc.nat(pieces.length - 1).chain((at) => {
          const name = decodeURIComponent(pieces[at]!.name);
          return hostileValue(name, shape[name], pieces[at]!.value ?? '', world).map((value): Mutation => ({ kind: 'replace', at, value }));
        }),
        fc.tuple(fc.nat(pieces.length - 1), fc.oneof(fc.constant('again'), fc.constant('2026-06-01'))).map(([at, value]): Mutation => ({ kind: 'repeat', at, value })),
        fc.nat(pieces.length - 1).map((at): Mutation => ({ kind: 'drop', at })),
        fc
          .tuple(fc.nat(pieces.length - 1), fc.constantFrom('upper', 'encoded', 'space', 'nul'))
          .map(([at, how]): Mutation => {
            const name = pieces[at]!.name;
            const renamed = { upper: name.toUpperCase(), encoded: encode(name).replace(/^([A-Za-z])/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`), space: `${name}%20`, nul: `${name}%00` }[how]!;
            return { kind: 'rename', at, name: renamed };
          }),
      ]
    : [];
  return fc.array(fc.oneof(...atPiece, ...anywhere), { maxLength: 3 });
}

function applyMutations(pieces: Piece[], list: Mutation[]): Piece[] {
  const result = pieces.map((piece) => ({ ...piece }));
  const dropped = new Set<number>();
  const extra: Piece[] = [];
  for (const mutation of list) {
    if (mutation.kind === 'replace') result[mutation.at]!.value = mutation.value;
    else if (mutation.kind === 'repeat') extra.push({ name: result[mutation.at]!.name, value: mutation.value });
    else if (mutation.kind === 'drop') dropped.add(mutation.at);
    else if (mutation.kind === 'rename') result[mutation.at]!.name = mutation.name;
    else if (mutation.kind === 'unknown') extra.push({ name: mutation.name, value: mutation.value });
    else extra.push({ name: mutation.piece, value: null });
  }
  return [...result.filter((_, i) => !dropped.has(i)), ...extra];
}

// ───────────── valid queries over the seeded data ─────────────

const optional = <T,>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arbitrary, { freq: 2 });

/** A valid range: mostly around the seeded days, sometimes anywhere in the window; 1 to 366 days. */
function validRange(world: World): fc.Arbitrary<{ from: string; to: string }> {
  const last = dayNumber(world.lastDay);
  const start = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: dayNumber(DATA_FIRST_DAY) - 40, max: dayNumber(SEED_END_DATE) + 10 }) },
    { weight: 1, arbitrary: fc.integer({ min: dayNumber('2000-01-01'), max: last }) },
  );
  const extra = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 45 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 365 }) });
  return fc.tuple(start, extra).map(([first, days]) => ({ from: dayFromNumber(first), to: dayFromNumber(Math.min(first + days, last)) }));
}

const idOf = (entity: Entity) => fc.constantFrom(entity.id, entity.platformId, entity.id.toUpperCase());

/** Ad filters: none, one entity with some of its own lineage (200), or any mix, other organisations' included (404). */
function adFilters(world: World): fc.Arbitrary<[string, string][]> {
  const byId = new Map(world.entities.map((entity) => [entity.id, entity]));
  const PARAMETER: Record<Level, string> = { campaign: 'campaignId', adset: 'adSetId', ad: 'adId' };
  const lineage = fc.constantFrom(...world.entities).chain((entity) => {
    const ancestors = [entity.level !== 'campaign' ? byId.get(entity.campaignId) : undefined, entity.level === 'ad' && entity.adSetId ? byId.get(entity.adSetId) : undefined].filter(
      (ancestor): ancestor is Entity => ancestor !== undefined,
    );
    return fc.tuple(idOf(entity), ...ancestors.map((ancestor) => optional(idOf(ancestor)))).map(([own, ...rest]) => [
      [PARAMETER[entity.level], own] as [string, string],
      ...rest.flatMap((id, i) => (id === null ? [] : [[PARAMETER[ancestors[i]!.level], id] as [string, string]])),
    ]);
  });
  const anyOf = (level: Level) => optional(fc.constantFrom(...[...world.entities, ...world.foreignEntities].filter((e) => e.level === level)).chain(idOf));
  const mix = fc.tuple(anyOf('campaign'), anyOf('adset'), anyOf('ad')).map((ids) =>
    ids.flatMap((id, i) => (id === null ? [] : [[(['campaignId', 'adSetId', 'adId'] as const)[i]!, id] as [string, string]])),
  );
  return fc.oneof({ weight: 3, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 4, arbitrary: lineage }, { weight: 1, arbitrary: mix });
}

function searchText(world: World): fc.Arbitrary<string> {
  const names = world.entities.map((entity) => entity.name);
  const part = fc.constantFrom(...names).chain((name) =>
    fc.integer({ min: 0, max: name.length - 1 }).chain((start) => fc.integer({ min: start + 1, max: Math.min(name.length, start + 100) }).map((end) => name.slice(start, end))),
  );
  return fc.oneof(part, fc.constantFrom(...world.entities.map((entity) => entity.platformId)), fc.string({ minLength: 1, maxLength: 30 }));
}

/** Valid values for one parameter, from what the seeded data holds or, for a parameter not known here, from its schema. */
function validValue(name: string, property: Property, world: World): fc.Arbitrary<string> {
  switch (name) {
    case 'client':
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...world.clients) }, { weight: 1, arbitrary: fc.constantFrom(...world.foreignClients) }, { weight: 1, arbitrary: fc.uuid() });
    case 'entityId':
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...world.entities).chain(idOf) }, { weight: 1, arbitrary: fc.constantFrom(...world.foreignEntities).chain(idOf) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) });
    case 'search':
      return searchText(world);
    case 'post':
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...world.posts.map((post) => post.id)) }, { weight: 1, arbitrary: fc.constantFrom(...world.foreignPosts) }, { weight: 1, arbitrary: fc.uuid() });
  }
  if (property.enum) return fc.constantFrom(...property.enum);
  if (property.type === 'integer') return fc.integer({ min: property.minimum ?? 1, max: property.maximum ?? 100 }).map(String);
  if (property.format === 'uuid') return fc.uuid();
  return fc.string({ minLength: 1, maxLength: property.maxLength ?? 64 });
}

function validQuery(operation: Operation, world: World): fc.Arbitrary<[string, string][]> {
  const { properties: shape, required } = properties(operation);
  const parts: fc.Arbitrary<[string, string][]>[] = [];
  for (const [name, property] of Object.entries(shape)) {
    if (name === 'to' || ['adSetId', 'adId'].includes(name)) continue;
    if (name === 'from') parts.push(validRange(world).map(({ from, to }) => [['from', from], ['to', to]]));
    else if (name === 'campaignId') parts.push(adFilters(world));
    else if (required.includes(name)) parts.push(validValue(name, property, world).map((value) => [[name, value]]));
    else parts.push(optional(validValue(name, property, world)).map((value) => (value === null ? [] : [[name, value]])));
  }
  return fc.tuple(...parts).chain((groups) => {
    const entries = groups.flat();
    return fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length });
  });
}

/** A raw query string for an operation: a valid query, mutated in about two cases of three. */
function queryCase(operation: Operation, world: World): fc.Arbitrary<string> {
  return validQuery(operation, world)
    .map((entries) => entries.map(([name, value]): Piece => ({ name: encode(name), value: encode(value) })))
    .chain((pieces) => fc.oneof({ weight: 1, arbitrary: fc.constant<Mutation[]>([]) }, { weight: 2, arbitrary: mutations(pieces, operation, world) }).map((list) => rawQuery(applyMutations(pieces, list))))
    .filter((raw) => raw.length <= MAX_QUERY_LENGTH);
}

// ───────────── the expected answer ─────────────

/** What the query should get: 400 naming exactly these parameters (with these messages when known), 404, 200, or (for a value whose reading is left to the parser, such as `0x10`) any of them. */
type Expected = { status: 400; problems: Map<string, string | undefined>; unsure: Set<string> } | { status: 404 | 200 } | { status: 'any'; unsure: Set<string> };

const CONTROL_OR_SURROGATE = /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u;
const RFC_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const HEX_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A real day of years 0000-9999 (Date's own ISO format is exactly YYYY-MM-DD there). */
function isRealDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

type Verdict = 'valid' | 'unsure' | { message?: string };

function judge(name: string, value: string, property: Property, world: World): Verdict {
  if (CONTROL_OR_SURROGATE.test(value)) return { message: 'must not contain control characters' };
  if (isDateParameter(name)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return { message: 'must be a date as YYYY-MM-DD' };
    if (!isRealDay(value)) return { message: 'is not a real calendar date' };
    if (value < '2000-01-01') return { message: 'must be on or after 2000-01-01' };
    if (value > world.lastDay) return { message: `must be on or before ${world.lastDay} (366 days after today in IST)` };
    return 'valid';
  }
  if (property.enum) return property.enum.includes(value) ? 'valid' : {};
  if (property.format === 'uuid') return RFC_UUID.test(value) ? 'valid' : HEX_UUID.test(value) ? 'unsure' : {};
  if (property.type === 'integer') {
    const minimum = property.minimum ?? 1;
    const message = `must be a whole number from ${minimum} to ${property.maximum}`;
    const inRange = (n: number) => Number.isInteger(n) && n >= minimum && n <= property.maximum!;
    if (/^\d+$/.test(value)) return inRange(Number(value)) ? 'valid' : { message };
    // Other spellings JavaScript reads as numbers (`0x10`, `1e2`, ` 5`): the parser's reading decides.
    return inRange(Number(value)) ? 'unsure' : { message };
  }
  if (property.maxLength !== undefined) {
    const message = `must be 1 to ${property.maxLength} characters long`;
    // Characters are code points (an emoji is one), as zod counts them.
    const length = [...value].length;
    return length >= 1 && length <= property.maxLength ? 'valid' : { message };
  }
  return 'valid';
}

/** 404 or 200 for a query whose every value is valid: are the named client, entities and post in reach? */
function reachOf(operation: Operation, values: Record<string, string>, world: World): 200 | 404 {
  const client = values.client?.toLowerCase();
  if (client !== undefined && !world.clients.includes(client)) return 404;
  const find = (level: Level, id: string | undefined) => {
    if (id === undefined) return undefined;
    const entity = world.entities.find((e) => e.level === level && (e.platformId === id || (HEX_UUID.test(id) && e.id === id.toLowerCase())));
    return entity && (client === undefined || entity.clientId === client) ? entity : null;
  };
  if ('entityId' in values) return find(values.level as Level, values.entityId) ? 200 : 404;
  if ('post' in values) return world.posts.some((post) => post.id === values.post!.toLowerCase() && post.servable) ? 200 : 404;
  const [campaign, adSet, ad] = [find('campaign', values.campaignId), find('adset', values.adSetId), find('ad', values.adId)];
  if (campaign === null || adSet === null || ad === null) return 404;
  if (adSet && campaign && adSet.campaignId !== campaign.id) return 404;
  if (ad && campaign && ad.campaignId !== campaign.id) return 404;
  if (ad && adSet && ad.adSetId !== adSet.id) return 404;
  return 200;
}

function expectedAnswer(operation: Operation, raw: string, world: World): Expected {
  const { properties: shape, required } = properties(operation);
  const entries = decoded(raw);
  const problems = new Map<string, string | undefined>();
  const unsure = new Set<string>();
  const values: Record<string, string> = {};
  const verdicts = new Map<string, Verdict>();
  for (const name of new Set(entries.map(([n]) => n))) {
    const given = entries.filter(([n]) => n === name).map(([, value]) => value);
    if (!Object.hasOwn(shape, name)) problems.set(name, 'is not a parameter of this endpoint');
    else if (given.length > 1) problems.set(name, 'must be given once');
    else {
      const verdict = judge(name, given[0]!, shape[name]!, world);
      verdicts.set(name, verdict);
      if (verdict === 'unsure') unsure.add(name);
      else if (verdict !== 'valid') problems.set(name, verdict.message);
      if (!(typeof verdict === 'object' && verdict.message === 'must not contain control characters')) values[name] = given[0]!;
    }
  }
  for (const name of required) if (!(name in values) && !problems.has(name)) problems.set(name, 'is required');
  // The range rule runs whenever both days are real (inside the window or not), beside every other problem.
  if (values.from !== undefined && values.to !== undefined && isRealDay(values.from) && isRealDay(values.to) && !problems.has('to')) {
    const days = (Date.parse(values.to) - Date.parse(values.from)) / 86_400_000 + 1;
    if (values.from > values.to) problems.set('to', 'must be on or after `from`');
    else if (days > 366) problems.set('to', 'the range may not exceed 366 days (from and to included)');
  }
  if (problems.size > 0) return { status: 400, problems, unsure };
  if (unsure.size > 0) return { status: 'any', unsure };
  return { status: reachOf(operation, values, world) };
}

// ───────────── the run ─────────────

let server: TestServer;
let world: World;
/**
 * The run's keys, handed out in turn: each serves USES_PER_KEY requests, whichever workers send them,
 * so no key has more in flight than there are workers (CONCURRENCY, within the 4 a key may have).
 * Workers take requests from a shared queue and need not send equal shares.
 */
let keys: string[];
let keysHandedOut = 0;
const statuses = new Map<string, number>();
const okByOperation = new Map<string, number>();
let requests = 0;
let livenessChecks = 0;

const operations = allOperations();
const weights = operations.map((operation) => Object.keys(operation.query.shape).length + 1);
const totalWeight = weights.reduce((a, b) => a + b, 0);
/** Batches per operation, in proportion to its parameters (a query without any has little to vary). */
const runsOf = (index: number) => Math.ceil((MIN_REQUESTS * weights[index]!) / totalWeight / BATCH);
const PLANNED_REQUESTS = operations.reduce((sum, _, i) => sum + runsOf(i) * BATCH, 0);

beforeAll(async () => {
  console.log(`fuzz: seed ${SEED} (reproduce with FUZZ_SEED=${SEED})${PATH ? `, path ${PATH}` : ''}`);
  server = await startTestServer({ databaseUrl: inject('databaseUrl') });
  world = await loadWorld();
  const needed = Math.ceil(PLANNED_REQUESTS / USES_PER_KEY) + 1;
  // Minted a few at a time: a hundred transactions at once wait past Prisma's 2 s for a connection on a busy machine.
  keys = [];
  while (keys.length < needed) {
    keys.push(...(await Promise.all(Array.from({ length: Math.min(5, needed - keys.length) }, () => mintKey({ orgId: main.id, name: 'fuzz key' })))));
  }
}, 300_000);

afterAll(async () => {
  const counts = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}: ${n}`);
  const of = (match: (status: string) => boolean) => [...statuses].filter(([status]) => match(status)).reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `fuzz: ${requests} requests — ${counts.join(', ')}; ${of((status) => Number(status) >= 500)} 5xx, ${of((status) => status === 'timeout')} timeouts; ${livenessChecks} liveness checks (seed ${SEED})`,
  );
  await server?.stop();
});

function nextKey(): string {
  const key = keys[Math.floor(keysHandedOut / USES_PER_KEY)];
  if (!key) throw new Error('the fuzz key pool is used up: mint more keys');
  keysHandedOut += 1;
  return key;
}

const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

async function send(pathAndQuery: string, key?: string): Promise<Response> {
  try {
    return await fetchAgainIfStale(new URL(pathAndQuery, server.origin), {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      count('timeout');
      throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: GET ${pathAndQuery}`);
    }
    // fetch's own message ("fetch failed") says nothing of what the connection did.
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    throw new Error(`${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}: GET ${pathAndQuery}`, { cause: error });
  }
}

async function checkAnswer(operation: Operation, raw: string, response: Response, expected: Expected): Promise<void> {
  const status = response.status;
  count(String(status));
  const where = `GET /api/v1${operation.path}?${raw} → ${status}; expected ${JSON.stringify(expected, (_, v: unknown) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v))}`;
  expect(status < 500, where).toBe(true);
  if (expected.status !== 'any') expect(status, where).toBe(expected.status);
  else expect([200, 400, 404], where).toContain(status);
  if (status === 200) {
    okByOperation.set(operation.path, (okByOperation.get(operation.path) ?? 0) + 1);
    if (!operation.binary) return void (await expectContract(operation, response));
    expect(operation.binary.contentTypes, where).toContain(response.headers.get('content-type'));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    return;
  }
  const body = await expectProblem(response, status, status === 400 ? 'validation_failed' : 'not_found');
  if (status !== 400) return;
  const paths = body.errors!.map((error) => error.path);
  expect(new Set(paths).size, where).toBe(paths.length);
  const problems = expected.status === 400 ? expected.problems : new Map<string, string | undefined>();
  const unsure = 'unsure' in expected ? expected.unsure : new Set<string>();
  for (const [path, message] of problems) {
    const error = body.errors!.find((e) => e.path === path);
    expect(error, `${where}: ${path} not named in ${JSON.stringify(body.errors)}`).toBeDefined();
    if (message !== undefined) expect(error!.message, where).toBe(message);
  }
  for (const path of paths) expect(problems.has(path) || unsure.has(path), `${where}: ${path} named in ${JSON.stringify(body.errors)}`).toBe(true);
}

async function expectHealthy(): Promise<void> {
  livenessChecks += 1;
  const response = await send('/api/health');
  expect(response.status, 'the liveness check after a batch').toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', instance: expect.any(String) });
}

/** Sends a batch with CONCURRENCY workers, then checks the server is live. */
async function runBatch(operation: Operation, batch: string[]): Promise<void> {
  const queue = [...batch];
  const outcomes = await Promise.allSettled(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let raw = queue.shift(); raw !== undefined; raw = queue.shift()) {
        const expected = expectedAnswer(operation, raw, world);
        requests += 1;
        const response = await send(`/api/v1${operation.path}${raw ? `?${raw}` : ''}`, nextKey());
        await checkAnswer(operation, raw, response, expected);
      }
    }),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  await expectHealthy();
}

describe.each(operations.map((operation, index) => [operation.path, operation, index] as const))('%s under generated and hostile queries', (path, operation, index) => {
  it('answers every query as expected, never 5xx, always in time, and stays live', async () => {
    const details = await fc.check(
      fc.asyncProperty(fc.array(queryCase(operation, world), { minLength: BATCH, maxLength: BATCH }), (batch) => runBatch(operation, batch)),
      { seed: SEED, endOnFailure: true, ...(PATH ? { path: PATH, numRuns: 1 } : { numRuns: runsOf(index) }) },
    );
    if (details.failed) {
      const reproduce = `FUZZ_SEED=${SEED} FUZZ_PATH=${details.counterexamplePath} npx vitest run tests/integration/platform-fuzz.test.ts -t '${path} under'`;
      throw new Error(`fuzz failure on ${path} (seed ${SEED}, path ${details.counterexamplePath}); reproduce with:\n  ${reproduce}\n${String(details.errorInstance)}`);
    }
  }, 300_000);
});

describe('the run as a whole', () => {
  // A replay of one FUZZ_PATH sends one batch only.
  it.runIf(!PATH)(`sent at least ${MIN_REQUESTS} requests and served data on every operation`, () => {
    expect(requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    for (const operation of operations) expect(okByOperation.get(operation.path) ?? 0, `200s of ${operation.path}`).toBeGreaterThan(10);
  });
});
