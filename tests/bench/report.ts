// The run's figures as a console table, as a markdown table for the README, and as JSON.
import type { PlatformCost, CaseResult } from './targets';

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '–');

const COLUMNS = ['case', 'c', 'n', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'floor p50', '÷floor', 'web layer ms', 'targets'] as const;

function rowCells(result: CaseResult): string[] {
  return [
    result.case.name,
    String(result.case.connections),
    String(result.load.requests),
    result.load.requestsPerSecond.toFixed(1),
    ms(result.load.p50),
    ms(result.load.p95),
    ms(result.load.p99),
    result.floor ? ms(result.floor.p50) : '–',
    result.ratio === null ? '–' : result.ratio.toFixed(2),
    result.floor ? ms(result.load.p50 - result.floor.p50) : '–',
    result.misses.length ? `MISS: ${result.misses.join('; ')}` : 'ok',
  ];
}

export function consoleTable(results: CaseResult[]): string {
  const rows = [COLUMNS as readonly string[], ...results.map(rowCells)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function markdownTable(results: CaseResult[]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${COLUMNS.join(' | ')} |`,
    `|${COLUMNS.map((_, i) => (i === 0 || i === COLUMNS.length - 1 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...results.map((result) => `| ${rowCells(result).map(escape).join(' | ')} |`),
  ].join('\n');
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
  missed: string[];
}

/** The README's performance section, exactly as this run measured it. */
export function readmeSection(results: CaseResult[], platform: PlatformCost | null, facts: RunFacts): string {
  const { machine } = facts;
  return [
    '## Performance',
    '',
    `Measured ${facts.date} with \`npm run bench\` on ${machine.cpus} × ${machine.cpuModel} cores, ${machine.memoryGb} GB RAM (${machine.os}), Node ${machine.node}, PostgreSQL ${facts.postgres}.`,
    `The load generator (autocannon), the floor measurements, the server (\`next start\`) and PostgreSQL all share these ${machine.cpus} cores;`,
    `the machine's load average was ${facts.loadAverage.start ?? '–'} at the start and ${facts.loadAverage.end} at the end of the run (other work on the machine counts in every figure).`,
    '',
    `Dataset: ${facts.dataset}. Ranges end on the seed's end date; "org" reads the whole organisation, "client" one client.`,
    'Every request carries a real API key through the real rate limiter (a pool of keys, none over its limit; no 429).',
    '"n" is the number of requests measured (after warm-up); "floor" is the endpoint\'s own data function (its SQL and row shaping) called in-process, at the same concurrency; "÷floor" is endpoint p50 ÷ floor p50; "web layer ms" is endpoint p50 − floor p50: what HTTP, Next.js, the proxy, the key check, the limiter, the query parsing, the JSON and its gzip add.',
    'Requests accept gzip, as browsers and HTTP clients do, so compression is part of the cost.',
    '',
    markdownTable(results),
    '',
    ...platformLines(platform).map((line, i) => (i === 0 ? line : `- ${line.trim()}`)),
    '',
    facts.memoryLine,
    '',
    facts.missed.length ? `Targets missed: ${facts.missed.length} (see the "targets" column and bench-results/latest-explain.txt for the plans of the slowest statements).` : 'Every target was met.',
    '',
    'Reproduce (seeds the `metrics_bench` database on first use, builds into `.next-bench/`, serves on port 3199):',
    '',
    '```sh',
    'npm run bench',
    '```',
    '',
  ].join('\n');
}
