// npm run bench [-- --no-build] [-- --only <text>]
// Measures every REST endpoint of the production server on the `large` dataset: its cold path (a server
// with the response cache off) against its floor (the endpoint's data function run in-process), and its
// warm path (a second server with the cache on, repeated queries); then how the cold path grows from
// 30 to 366 days and from the `demo` dataset to `large`. Prints a table and writes bench-results/bench-<time>.json,
// the plans of the slowest statements (explain-<time>.txt), copies of both as latest.json and
// latest-explain.txt, and docs/performance.md's run section as latest.md. After the cases, the fairness
// probe (one organisation floods, another calls /me) and the cold start, each on a server of its own. The load generator and the
// floor run on the same machine as the server and PostgreSQL, so every figure includes their competition
// for the same cores.
//   --no-build    reuse the last build in .next-bench/ (only when the code has not changed since)
//   --only TEXT   run only the cases whose name contains TEXT (the liveness route and /me always run)
// BENCH_DATABASE_URL and BENCH_GROWTH_DATABASE_URL name other databases for the `large` and `demo` data.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { closeDb, sql } from '@/lib/db';
import { addDays } from '@/lib/time/days';
import type { BenchCase } from './cases';
import { BENCH_SEED, DEFAULT_BENCH_DATABASE_URL, DEFAULT_GROWTH_DATABASE_URL, ensureBenchDatabase, GROWTH_SEED } from './database';
import { explainWork } from './explain';
import { sampleFloor, summariseFloor, type FloorSamples } from './floor';
import { mintKeyPool, type KeyPool } from './keys';
import { budgetMisses, measureToolAnswers, sizeTable } from './mcp-sizes';
import { runAlternating, runLoad, sample, summarise, type Samples } from './load';
import { consoleTable, growthTable, performanceSection, platformLines, type GrowthRow } from './report';
import { fairnessLine, measureFairness, yearOfAdsPath, type FairnessResult } from './fairness';
import { buildServer, coldStarts, startServer, type ColdStart, type RunningServer } from './server';
import { AMOUNT, CASE_ROUNDS, caseSize, FLOOR_ITERATIONS, MIN_SAMPLES, PLATFORM_AMOUNT, PLATFORM_ROUNDS, plannedKeyedRequests, WARMUP_REQUESTS } from './sizing';
import { caseMisses, fairnessMisses, platformCost, TARGETS, type CaseResult } from './targets';

const PORTS = { cold: 3199, warm: 3198, growth: 3197, fairness: 3196 } as const;
const FAIRNESS_SECONDS = 20;
/** Restarts measured after a build's first start. */
const COLD_RESTARTS = 2;
/** The ranges of the growth table's "30 → 366 days" columns. */
const GROWTH_DAYS = [30, 366] as const;
const RESULTS_DIR = 'bench-results';
const FLOOR_WARMUP_CALLS = 1;
const SERVER_WARMUP_REQUESTS = 200;
/** How many of the slowest cases (by floor p50 at c=1) get their statements explained. */
const EXPLAINED_CASES = 4;
const COUNTED_TABLES = ['ad_insights_daily', 'ad_account_breakdowns_daily', 'ads', 'social_posts', 'analytics_dimensions_daily', 'search_console_dimensions_daily', 'store_dimensions_daily'];

const runStarted = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - runStarted) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const loadAverage = () => os.loadavg()[0]!;
const firstLine = (text: string) => text.trim().replace(/\s+/g, ' ').slice(0, 100);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

async function datasetFacts() {
  const [version] = await sql<{ server_version: string }>('SHOW server_version');
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const [row] = await sql<{ count: string }>(`SELECT count(*) AS count FROM ${table}`);
    counts[table] = Number(row?.count ?? 0);
  }
  return { postgres: version?.server_version ?? 'unknown', rowCounts: counts };
}

/**
 * A fresh server compiles its proxy and routes on first use and opens its pool connections as
 * concurrency asks for them: a burst on /me at the highest concurrency first, so that no case pays that.
 */
async function warmUpServer(baseUrl: string, keys: KeyPool): Promise<void> {
  log(`warming the server up: ${SERVER_WARMUP_REQUESTS} requests to /api/v1/me and as many to /api/health at c=8`);
  await runLoad({ baseUrl, path: '/api/health', connections: 8, amount: SERVER_WARMUP_REQUESTS, keys: null });
  await runLoad({ baseUrl, path: '/api/v1/me', connections: 8, amount: SERVER_WARMUP_REQUESTS, keys });
}

/** A case as the results record it: everything but its floor function. */
function described(benchCase: BenchCase): CaseResult['case'] {
  const { name, kind, endpoint, scope, days, connections, path, cacheable } = benchCase;
  return { name, kind, endpoint, scope, days, connections, path, cacheable };
}

/**
 * The liveness route and /me at one concurrency, measured alternately in PLATFORM_ROUNDS rounds so that
 * both see the same background load (they are compared with each other).
 */
async function measurePlatformPair(liveness: BenchCase, me: BenchCase, baseUrl: string, keys: KeyPool): Promise<CaseResult[]> {
  const amount = PLATFORM_AMOUNT[liveness.connections];
  await runLoad({ baseUrl, path: liveness.path, connections: 1, amount: WARMUP_REQUESTS, keys: null });
  await runLoad({ baseUrl, path: me.path, connections: 1, amount: WARMUP_REQUESTS, keys });
  const loadAverageAtStart = round(loadAverage());
  const loads = await runAlternating(
    { baseUrl, path: liveness.path, connections: liveness.connections, amount, keys: null },
    { baseUrl, path: me.path, connections: me.connections, amount, keys },
    PLATFORM_ROUNDS,
  );
  return [liveness, me].map((benchCase, i) => ({
    case: described(benchCase),
    load: loads[i]!,
    floor: null,
    ratio: null,
    loadAverage: loadAverageAtStart,
    warm: null,
    misses: caseMisses(benchCase, loads[i]!, null, null),
  }));
}

/** The case's requests at its concurrency, after WARMUP_REQUESTS at c=1 whose p50 sizes the run. */
async function measureLoad(benchCase: BenchCase, baseUrl: string, keys: KeyPool | null) {
  const warmup = await runLoad({ baseUrl, path: benchCase.path, connections: 1, amount: WARMUP_REQUESTS, keys });
  const size = caseSize(benchCase.connections, warmup.p50);
  const load = await runLoad({ baseUrl, path: benchCase.path, connections: benchCase.connections, amount: size.requests, keys });
  return { load, size };
}

/**
 * The case's requests and its floor in CASE_ROUNDS alternating rounds, after WARMUP_REQUESTS at c=1 (whose
 * p50 sizes the run) and FLOOR_WARMUP_CALLS: the web layer is their difference, so a change in the
 * machine's load, or in what PostgreSQL has cached, during the measurement weighs on both alike.
 */
async function measureLoadAndFloor(benchCase: BenchCase, baseUrl: string, keys: KeyPool | null, floorWork: () => Promise<unknown>) {
  const warmup = await runLoad({ baseUrl, path: benchCase.path, connections: 1, amount: WARMUP_REQUESTS, keys });
  for (let i = 0; i < FLOOR_WARMUP_CALLS; i++) await floorWork();
  const size = caseSize(benchCase.connections, warmup.p50);
  const loads: Samples[] = [];
  const floors: FloorSamples[] = [];
  for (let round = 0; round < CASE_ROUNDS; round++) {
    loads.push(await sample({ baseUrl, path: benchCase.path, connections: benchCase.connections, amount: Math.ceil(size.requests / CASE_ROUNDS), keys }));
    floors.push(await sampleFloor(floorWork, Math.ceil(size.floorIterations / CASE_ROUNDS), benchCase.connections));
  }
  return { load: summarise(loads), floor: summariseFloor(floors) };
}

/** The cold path and the floor; with `warmServer` and a cacheable case, the warm path too. */
async function measureCase(benchCase: BenchCase, coldServer: RunningServer, warmServer: RunningServer | null, keys: KeyPool): Promise<CaseResult> {
  const floorWork = benchCase.floor;
  const keyed = benchCase.kind === 'liveness' ? null : keys;
  const loadAverageAtStart = loadAverage();
  const { load, floor } = floorWork ? await measureLoadAndFloor(benchCase, coldServer.url, keyed, floorWork) : { ...(await measureLoad(benchCase, coldServer.url, keyed)), floor: null };
  // The warm server's first warm-up request computes the answer and fills the cache; the rest are hits.
  const warm = warmServer && benchCase.cacheable ? (await measureLoad(benchCase, warmServer.url, keyed)).load : null;
  const ratio = floor ? load.p50 / floor.p50 : null;
  const webLayerMs = floor ? load.p50 - floor.p50 : null;
  return { case: described(benchCase), load, floor, ratio, warm, loadAverage: round(loadAverageAtStart), misses: caseMisses(benchCase, load, webLayerMs, warm) };
}

/**
 * What the cases do not show, each on a server of its own: the fairness probe (one organisation floods,
 * another calls /me; the response cache off, so that the flood's every request is computed) and the
 * cold start, spawn to the first 200 of /me with a key: a build's first start, then COLD_RESTARTS restarts.
 */
async function measureInstance(
  databaseUrl: string,
  orgId: string,
  keys: KeyPool,
): Promise<{ fairness: FairnessResult; starts: { first: ColdStart; restarts: ColdStart[] } }> {
  const [other] = await sql<{ id: string }>('SELECT id FROM organizations WHERE id <> $1 ORDER BY name LIMIT 1', [orgId]);
  if (!other) throw new Error('the fairness probe needs a second organisation in the benchmark database');
  const server = await startServer(databaseUrl, PORTS.fairness, 'cold', log);
  let fairness: FairnessResult;
  try {
    log(`fairness: one organisation floods for ${FAIRNESS_SECONDS} s while another calls /me`);
    fairness = await measureFairness({ baseUrl: server.url, floodOrgId: orgId, floodPath: await yearOfAdsPath(orgId), probeOrgId: other.id, seconds: FAIRNESS_SECONDS, log });
    log(`${fairnessLine(fairness)}; the flooded server's peak RSS ${server.memory().peakTreeRssMb.toFixed(0)} MB`);
  } finally {
    await server.stop();
  }
  const starts = await coldStarts(databaseUrl, () => keys.next(), COLD_RESTARTS);
  log(coldStartLine(starts));
  return { fairness, starts };
}

/** The cold starts, spawn to the first 200 of /me, in a line. */
function coldStartLine({ first, restarts }: { first: ColdStart; restarts: ColdStart[] }): string {
  return (
    `cold start, spawn → first 200 of /me with a key: a build's first start ${first.apiMs.toFixed(0)} ms (no compiled code kept), ` +
    `restarts ${restarts.map((start) => start.apiMs.toFixed(0)).join(', ')} ms; target < ${TARGETS.coldStartMs} ms each`
  );
}

/** The cases of the growth tables: every ranged endpoint for the whole organisation at c=1 over GROWTH_DAYS. */
const isGrowthCase = (c: Pick<BenchCase, 'kind' | 'scope' | 'connections' | 'days'>) => c.kind === 'data' && c.scope === 'org' && c.connections === 1 && (GROWTH_DAYS as readonly number[]).includes(c.days ?? 0);

/** Pairs of results of one endpoint: which is `smaller` and which `larger` is told by `pick` (null: neither). */
function growthRows(results: CaseResult[], pick: (result: CaseResult) => 'smaller' | 'larger' | null): GrowthRow[] {
  const byEndpoint = new Map<string, Partial<GrowthRow>>();
  for (const result of results) {
    const side = pick(result);
    if (!side) continue;
    const row = byEndpoint.get(result.case.endpoint) ?? { endpoint: result.case.endpoint };
    row[side] = result;
    byEndpoint.set(result.case.endpoint, row);
  }
  return [...byEndpoint.values()].filter((row): row is GrowthRow => Boolean(row.smaller && row.larger));
}

/**
 * The growth cases again on the `demo` dataset, on a cold server of the same build: how the same
 * queries' time grows with the data. Leaves lib/db pointed at the demo database (the run ends after it).
 */
async function measureOnDemoData(log: (line: string) => void): Promise<{ results: CaseResult[]; rowCounts: Record<string, number> }> {
  const databaseUrl = process.env.BENCH_GROWTH_DATABASE_URL ?? DEFAULT_GROWTH_DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = databaseUrl;
  const { buildCases, loadFixtures } = await import('./cases');
  const fixtures = await loadFixtures();
  const cases = buildCases(fixtures).filter(isGrowthCase);
  const rowCounts = (await datasetFacts()).rowCounts;
  const keys = await mintKeyPool(fixtures.orgId, plannedKeyedRequests(cases) + SERVER_WARMUP_REQUESTS, log);
  const server = await startServer(databaseUrl, PORTS.growth, 'cold', log);
  const results: CaseResult[] = [];
  try {
    await warmUpServer(server.url, keys);
    for (const benchCase of cases) {
      const result = await measureCase(benchCase, server, null, keys);
      log(`[demo ${results.length + 1}/${cases.length}] ${benchCase.name}: p50 ${result.load.p50.toFixed(1)} ms, floor p50 ${result.floor?.p50.toFixed(1)} ms`);
      results.push(result);
    }
  } finally {
    await server.stop();
  }
  return { results, rowCounts };
}

async function main(): Promise<number> {
  const { values: args } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false }, only: { type: 'string' } } });
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
  const startedAt = new Date();
  const host = machine();
  log(`machine: ${host.cpus} × ${host.cpuModel}, ${host.memoryGb} GB, node ${host.node}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  log('the load generator and the floor measurements run on this same machine as the server and PostgreSQL');

  await ensureBenchDatabase(databaseUrl, log);
  await ensureBenchDatabase(process.env.BENCH_GROWTH_DATABASE_URL ?? DEFAULT_GROWTH_DATABASE_URL, log, GROWTH_SEED);
  // The floor's data functions and the key minting use lib/db, which reads these on first use; the
  // server gets the same pool size so that the floor is measured with the same connection budget.
  process.env.DATABASE_URL = databaseUrl;
  process.env.DATABASE_POOL_SIZE ??= '10';
  // The key pool mints one key per USES_PER_KEY requests in one organisation: thousands, past the cap.
  process.env.API_KEYS_PER_ORG_MAX ??= '1000000';

  const dataset = { ...BENCH_SEED, ...(await datasetFacts()) };
  log(`dataset: ${Object.entries(dataset.rowCounts).map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`).join(', ')}`);
  // The floors' code is loaded as the server is built from it, so that both measure the same version of a
  // tree that may be edited while the run goes on.
  const { buildCases, loadFixtures } = await import('./cases');
  const buildSeconds = args['no-build'] ? null : await buildServer(databaseUrl, log);
  const fixtures = await loadFixtures();
  let cases = buildCases(fixtures);
  if (args.only) cases = cases.filter((c) => c.kind !== 'data' || c.name.includes(args.only!));
  log(`${cases.length} cases; one client = "${fixtures.client.name}"; ranges end ${BENCH_SEED.endDate}`);

  const cold = await startServer(databaseUrl, PORTS.cold, 'cold', log);
  const warm = await startServer(databaseUrl, PORTS.warm, 'warm', log).catch(async (error: unknown) => {
    await cold.stop();
    throw error;
  });
  const results: CaseResult[] = [];
  let keys: KeyPool;
  try {
    keys = await mintKeyPool(fixtures.orgId, plannedKeyedRequests(cases) + 2 * SERVER_WARMUP_REQUESTS + 1 + COLD_RESTARTS, log);
    await warmUpServer(cold.url, keys);
    await warmUpServer(warm.url, keys);
    for (const benchCase of cases) {
      let measured: CaseResult[];
      if (benchCase.kind === 'platform') continue; // measured with its liveness partner
      if (benchCase.kind === 'liveness') {
        const me = cases.find((c) => c.kind === 'platform' && c.connections === benchCase.connections)!;
        measured = await measurePlatformPair(benchCase, me, cold.url, keys);
      } else {
        measured = [await measureCase(benchCase, cold, warm, keys)];
      }
      for (const result of measured) {
        results.push(result);
        const { load, floor, warm: repeated } = result;
        log(
          `[${results.length}/${cases.length}] ${result.case.name} c=${result.case.connections}: ${load.requestsPerSecond.toFixed(1)} req/s, ` +
            `p50 ${load.p50.toFixed(1)} p95 ${load.p95.toFixed(1)} p99 ${load.p99.toFixed(1)} ms` +
            (floor ? `, floor p50 ${floor.p50.toFixed(1)} ms, web layer ${(load.p50 - floor.p50).toFixed(1)} ms` : '') +
            (repeated ? `; warm p50 ${repeated.p50.toFixed(1)} p95 ${repeated.p95.toFixed(1)} ms` : '') +
            (result.misses.length ? `  MISS: ${result.misses.join('; ')}` : ''),
        );
      }
    }
  } finally {
    await Promise.all([cold.stop(), warm.stop()]);
  }
  const memory = { cold: cold.memory(), warm: warm.memory() };
  const { fairness, starts } = await measureInstance(databaseUrl, fixtures.orgId, keys!);
  const slowStarts = [starts.first, ...starts.restarts].filter((start) => start.apiMs >= TARGETS.coldStartMs);

  // With the server stopped, so that the plans are not slowed by the load of the run itself.
  const slowest = results
    .filter((r) => r.floor && r.case.connections === 1)
    .sort((a, b) => b.floor!.p50 - a.floor!.p50)
    .slice(0, EXPLAINED_CASES);
  const explained: { case: string; statements: Awaited<ReturnType<typeof explainWork>> }[] = [];
  for (const result of slowest) {
    const work = cases.find((c) => c.name === result.case.name && c.connections === 1)!.floor!;
    log(`EXPLAIN (ANALYZE, BUFFERS) of the statements of ${result.case.name}`);
    explained.push({ case: result.case.name, statements: await explainWork(work) });
  }
  log('MCP tool answers: each tool\'s default and largest answers for the whole organisation over a year');
  const year = { from: addDays(BENCH_SEED.endDate, -365), to: BENCH_SEED.endDate };
  const toolAnswers = await measureToolAnswers({ id: fixtures.orgId, name: fixtures.orgName }, year);
  log('growth: the whole organisation\'s cases over 30 and 366 days again on the demo dataset');
  const demo = await measureOnDemoData(log);
  const rangeGrowth = growthRows(results, (r) => (isGrowthCase(r.case) ? (r.case.days === GROWTH_DAYS[0] ? 'smaller' : 'larger') : null));
  const dataGrowth = growthRows([...demo.results, ...results], (r) =>
    isGrowthCase(r.case) && r.case.days === GROWTH_DAYS[1] ? (demo.results.includes(r) ? 'smaller' : 'larger') : null,
  );
  const rows = (counts: Record<string, number>) => Object.entries(counts).map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`).join(', ');
  const growth = [
    `How the cold path grows (c=1, whole organisation, p50 and floor p50 in ms). From ${GROWTH_DAYS[0]} to ${GROWTH_DAYS[1]} days on \`${BENCH_SEED.scale}\`:`,
    '',
    growthTable(rangeGrowth, `${GROWTH_DAYS[0]}d`, `${GROWTH_DAYS[1]}d`),
    '',
    `From the \`${GROWTH_SEED.scale}\` dataset (${rows(demo.rowCounts)} rows) to \`${BENCH_SEED.scale}\`, ${GROWTH_DAYS[1]} days:`,
    '',
    growthTable(dataGrowth, GROWTH_SEED.scale, BENCH_SEED.scale),
  ].join('\n');

  const platform = platformCost(results);
  const loads = [...results, ...demo.results].flatMap((r) => (r.warm ? [r.load, r.warm] : [r.load]));
  const statuses: Record<string, number> = {};
  for (const load of loads) for (const [status, n] of Object.entries(load.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const invalid = [...results, ...demo.results].filter((r) => r.misses.some((m) => m.startsWith('INVALID')));
  const rssMisses = (['cold', 'warm'] as const).filter((path) => memory[path].peakTreeRssMb >= TARGETS.peakRssMb);
  const missed = [
    ...results.filter((r) => r.misses.length).map((r) => `${r.case.name} c=${r.case.connections}: ${r.misses.join('; ')}`),
    ...invalid.filter((r) => demo.results.includes(r)).map((r) => `${r.case.name} on ${GROWTH_SEED.scale}: ${r.misses.join('; ')}`),
    ...(platform?.misses ?? []),
    ...fairnessMisses(fairness),
    ...slowStarts.map((start) => `cold start ${start.apiMs.toFixed(0)} ms ≥ ${TARGETS.coldStartMs} ms${start === starts.first ? " (the build's first)" : ''}`),
    ...rssMisses.map((path) => `${path} server peak RSS ${memory[path].peakTreeRssMb.toFixed(0)} MB ≥ ${TARGETS.peakRssMb} MB`),
    ...budgetMisses(toolAnswers),
  ];
  const toolAnswerSection = `MCP tool answers, default and largest arguments, whole organisation, ${year.from}…${year.to}:\n\n${sizeTable(toolAnswers)}`;

  const memoryLine =
    `server peak resident memory (server process tree, sampled every 250 ms; target < ${TARGETS.peakRssMb} MB): ` +
    (['cold', 'warm'] as const)
      .map((path) => `${path} ${memory[path].peakTreeRssMb.toFixed(0)} MB (highest VmHWM of one process ${memory[path].peakProcessHwmMb.toFixed(0)} MB)${rssMisses.includes(path) ? ' MISS' : ''}`)
      .join(', ');
  const instanceLines = [
    fairnessLine(fairness),
    coldStartLine(starts),
  ];
  const summary = [
    '',
    consoleTable(results),
    '',
    ...platformLines(platform),
    memoryLine,
    ...instanceLines,
    '',
    growth,
    '',
    toolAnswerSection,
    `responses by status: ${Object.entries(statuses).map(([s, n]) => `${s}: ${n}`).join(', ')}${statuses['429'] ? '' : ' (no 429: the rate limiter was on and never hit, the figures are valid)'}`,
    `keys: ${keys!.minted} minted, ${keys!.handedOut} requests sent with a key`,
    `floor = the endpoint's data function (its SQL and row shaping) called in-process on a pool of ${process.env.DATABASE_POOL_SIZE}, at the case's concurrency; web layer = endpoint p50 − floor p50, ÷floor = endpoint p50 ÷ floor p50`,
    `load average: ${results[0]?.loadAverage ?? '–'} at start, ${round(loadAverage())} at end (${host.cpus} cores; other work on the machine counts in every figure)`,
    'slowest statements (EXPLAIN ANALYZE, BUFFERS in bench-results/latest-explain.txt):',
    ...explained.flatMap((e) => e.statements.slice(0, 2).map((s) => `  ${s.ms.toFixed(0).padStart(5)} ms  ${e.case}: ${firstLine(s.text)}`)),
    missed.length ? `targets missed (${missed.length}):\n  ${missed.join('\n  ')}` : 'every target met',
  ];
  console.log(summary.join('\n'));

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: 'npm run bench',
    machine: host,
    note: 'The load generator (autocannon) and the floor measurements share the machine with the servers and PostgreSQL.',
    loadAverage: { start: results[0]?.loadAverage ?? null, end: round(loadAverage()) },
    dataset,
    client: fixtures.client,
    servers: {
      buildSeconds: buildSeconds && round(buildSeconds, 0),
      ports: PORTS,
      poolSize: Number(process.env.DATABASE_POOL_SIZE),
      memoryMb: Object.fromEntries((['cold', 'warm'] as const).map((path) => [path, { peakTreeRss: round(memory[path].peakTreeRssMb, 0), peakProcessHwm: round(memory[path].peakProcessHwmMb, 0) }])),
    },
    floorDefinition: 'The endpoint\'s data function (lib/metrics/**, lib/account/clients) called in-process with the parsed query and the reach; no HTTP, proxy, auth, rate limit, reach lookup or JSON serialisation.',
    settings: { maxRequests: AMOUNT, platformRequests: PLATFORM_AMOUNT, maxFloorIterations: FLOOR_ITERATIONS, minSamples: MIN_SAMPLES, warmupRequests: WARMUP_REQUESTS },
    targets: TARGETS,
    statuses,
    platform,
    fairness,
    coldStartsMs: { first: round(starts.first.apiMs, 0), restarts: starts.restarts.map((start) => round(start.apiMs, 0)) },
    cases: results,
    growth: { demoRowCounts: demo.rowCounts, demoCases: demo.results },
    mcpToolAnswers: toolAnswers,
    missed,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
  const json = JSON.stringify(report, null, 2);
  await writeFile(`${RESULTS_DIR}/bench-${stamp}.json`, json);
  await writeFile(`${RESULTS_DIR}/latest.json`, json);
  const plans = explained.flatMap((e) => e.statements.map((s) => `=== ${e.case}: ${s.ms.toFixed(1)} ms\n${s.text}\n\n${s.plan}\n`));
  await writeFile(`${RESULTS_DIR}/explain-${stamp}.txt`, plans.join('\n'));
  await writeFile(`${RESULTS_DIR}/latest-explain.txt`, plans.join('\n'));
  const section = performanceSection(results, platform, {
    date: startedAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: host,
    postgres: dataset.postgres,
    dataset: `\`${BENCH_SEED.scale}\` scale, seed ${BENCH_SEED.seed}, ending ${BENCH_SEED.endDate} (${Object.entries(dataset.rowCounts).map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`).join(', ')} rows)`,
    loadAverage: report.loadAverage,
    memoryLine,
    growth,
    instanceLines,
    missed,
  });
  await writeFile(`${RESULTS_DIR}/latest.md`, `${section}\n\n${toolAnswerSection}\n`);
  log(`wrote ${RESULTS_DIR}/bench-${stamp}.json and explain-${stamp}.txt, copied to latest.json and latest-explain.txt; the section of docs/performance.md is in latest.md`);
  return invalid.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  })
  .catch(async (error: Error) => {
    console.error(`bench failed: ${error.stack ?? error.message}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
