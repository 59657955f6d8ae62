// The run's figures as a console table, as a markdown table for docs/performance.md, and as JSON.
import { HEAVIEST_CASE, TARGETS, type CaseResult, type PlatformCost } from './targets';

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '–');

const COLUMNS = ['case', 'c', 'n', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'floor p50', '÷floor', 'web layer ms', 'warm req/s', 'warm p50', 'warm p95', 'targets'] as const;

function rowCells(result: CaseResult): string[] {
  const { load, floor, warm } = result;
  return [
    result.case.name,
    String(result.case.connections),
    String(load.requests),
    load.requestsPerSecond.toFixed(1),
    ms(load.p50),
    ms(load.p95),
    ms(load.p99),
    floor ? ms(floor.p50) : '–',
    result.ratio === null ? '–' : result.ratio.toFixed(2),
    floor ? ms(load.p50 - floor.p50) : '–',
    warm ? warm.requestsPerSecond.toFixed(0) : '–',
    warm ? ms(warm.p50) : '–',
    warm ? ms(warm.p95) : '–',
    result.misses.length ? `MISS: ${result.misses.join('; ')}` : 'ok',
  ];
}

export function consoleTable(results: CaseResult[]): string {
  const rows = [COLUMNS as readonly string[], ...results.map(rowCells)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** A markdown table: the first column (and the last, when `textLast`) left-aligned, the others right-aligned. */
function markdown(header: readonly string[], rows: string[][], textLast: boolean): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const align = (i: number) => (i === 0 || (textLast && i === header.length - 1) ? ' --- ' : ' ---: ');
  return [`| ${header.join(' | ')} |`, `|${header.map((_, i) => align(i)).join('|')}|`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)].join('\n');
}

export function markdownTable(results: CaseResult[]): string {
  return markdown(COLUMNS, results.map(rowCells), true);
}

/** One endpoint's time at two sizes of its input (two ranges, or two datasets), at c=1 on the cold path. */
export interface GrowthRow {
  endpoint: string;
  smaller: CaseResult;
  larger: CaseResult;
}

/** How time grows from the smaller input to the larger: endpoint and floor p50 at each, and their quotient. */
export function growthTable(rows: GrowthRow[], smallerName: string, largerName: string): string {
  const times = (smaller: number, larger: number) => [ms(smaller), ms(larger), `${(larger / smaller).toFixed(1)}×`];
  return markdown(
    ['endpoint', `p50 ${smallerName}`, `p50 ${largerName}`, 'growth', `floor ${smallerName}`, `floor ${largerName}`, 'floor growth'],
    rows.map(({ endpoint, smaller, larger }) => [
      endpoint,
      ...times(smaller.load.p50, larger.load.p50),
      ...(smaller.floor && larger.floor ? times(smaller.floor.p50, larger.floor.p50) : ['–', '–', '–']),
    ]),
    false,
  );
}

export function platformLines(cost: PlatformCost | null): string[] {
  if (!cost) return ['platform cost: not measured'];
  return [
    `platform cost (/me against the liveness route /api/health, same server):`,
    `  throughput at c=8: /me ${cost.meRequestsPerSecondC8.toFixed(0)} req/s, liveness ${cost.livenessRequestsPerSecondC8.toFixed(0)} req/s → ${cost.throughputRatio.toFixed(2)} (target ≥ 0.6)`,
    `  p50 at c=1: /me ${ms(cost.meP50C1)} ms, liveness ${ms(cost.livenessP50C1)} ms → +${cost.p50OverheadMs.toFixed(1)} ms (target ≤ 3 ms)`,
    `  ${cost.misses.length ? `MISS: ${cost.misses.join('; ')}` : 'ok'}`,
  ];
}

export interface RunFacts {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; os: string; node: string };
  postgres: string;
  dataset: string;
  loadAverage: { start: number | null; end: number };
  memoryLine: string;
  /** The growth tables with their headings, as markdown. */
  growth: string;
  /** The fairness probe and the cold starts, a line each. */
  instanceLines: string[];
  missed: string[];
}

/** docs/performance.md's run section, exactly as this run measured it. */
export function performanceSection(results: CaseResult[], platform: PlatformCost | null, facts: RunFacts): string {
  const { machine } = facts;
  return [
    `Measured ${facts.date} with \`npm run bench\` on ${machine.cpus} × ${machine.cpuModel} cores, ${machine.memoryGb} GB RAM (${machine.os}), Node ${machine.node}, PostgreSQL ${facts.postgres}.`,
    `The load generator (autocannon), the floor measurements, the two servers (\`npm start\`) and PostgreSQL all share these ${machine.cpus} cores;`,
    `the machine's load average was ${facts.loadAverage.start ?? '–'} at the start and ${facts.loadAverage.end} at the end of the run (other work on the machine counts in every figure).`,
    '',
    `Dataset: ${facts.dataset}. Ranges end on the seed's end date; "org" reads the whole organisation, "client" one client.`,
    'Every request carries a real API key through the real rate limiter (a pool of keys, none over its limit; no 429).',
    'Requests accept gzip, as browsers and HTTP clients do, so compression is part of the cost.',
    '',
    '- **Cold path** (req/s, p50, p95, p99): a server with the response cache off (`RESPONSE_CACHE_MAX_BYTES=0`), so every request computes its answer. "n" is the number of requests measured (after warm-up).',
    '- **floor**: the endpoint\'s own data function (its SQL statements and the shaping of their rows) called in-process on a pool of the same size, at the same concurrency, in rounds alternating with the endpoint\'s requests: the raw SQL cost. "÷floor" is endpoint p50 ÷ floor p50; "web layer ms" is endpoint p50 − floor p50: what HTTP, Next.js, the key check, the limiter, the query parsing, the JSON and its compression add.',
    '- **Warm path** (warm req/s, p50, p95): the same requests to a second server of the same build with the response cache on, after one request that filled it: a repeated query, answered from memory once its organisation\'s data version is read. "–": the endpoint is not cached (see [the response cache](operations.md#the-response-cache)).',
    `- **Targets**: cold p95 < ${TARGETS.p95MsAtC1} ms at c=1 and < ${TARGETS.p95MsAtC8} ms at c=8 for every data case; web layer ≤ ${TARGETS.webLayerMsAtC1} ms at c=1 for every case with a floor (÷floor and the web layer at c=8 are shown, not targets); ≥ ${TARGETS.heaviestRequestsPerSecondAtC8} req/s at c=8 for ${HEAVIEST_CASE}; warm p95 < ${TARGETS.warmP95Ms} ms at c=1 (shown, not a target, at c=8, where eight requests queue for the two cores); /me ≥ ${TARGETS.meToLivenessThroughput} × the liveness route's throughput and ≤ ${TARGETS.meP50OverLivenessMs} ms over its p50; peak memory < ${TARGETS.peakRssMb} MB; while one organisation floods the server, another's /me p95 < ${TARGETS.fairnessP95Ms} ms and none over ${TARGETS.fairnessSlowestMs} ms; cold start (spawn → first 200 of /me) < ${TARGETS.coldStartMs} ms.`,
    '',
    markdownTable(results),
    '',
    ...platformLines(platform).map((line, i) => (i === 0 ? line : `- ${line.trim()}`)),
    '',
    facts.memoryLine,
    '',
    ...facts.instanceLines.map((line) => `- ${line}`),
    '',
    facts.missed.length ? `Targets missed: ${facts.missed.length} (the "targets" column; the plans of the slowest statements are in bench-results/latest-explain.txt).` : 'Every target was met.',
    '',
    facts.growth,
    '',
  ].join('\n');
}
