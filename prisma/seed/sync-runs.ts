// Sync history (sync_runs) for every synced resource, over the four days before the end of the end date
// (midnight IST after it, the dataset's "now"). A resource's last successful run finishes 6–90 minutes
// before that; runs repeat every 6 h (ads, social), 12 h (analytics, store) or 24 h (search console),
// with the occasional failed run (rate limits) in between.
// Deliberate problems, all in the first organisation:
//   - its second ad account: the last three runs failed (expired token) after earlier successes;
//   - its first store: the last two runs failed (revoked token) after earlier successes;
//   - its first social page: a run is in progress (status running, no finished_at) after successes;
//   - its last search-console site: never synced successfully (two failures, then a run in progress).
import type { Calendar } from './calendar';
import { SYNC_ERRORS } from './catalog';
import type { Row, TableData } from './copy';
import type { OrgModel } from './context';
import { Rng } from './random';

export type SyncSource = 'ads' | 'social' | 'analytics' | 'search_console' | 'store';

export interface SyncedResource {
  org: OrgModel;
  source: SyncSource;
  id: string;
  /** Runs at the end of the history that failed after earlier successes. */
  failingRuns?: number;
  running?: boolean;
  neverSucceeded?: boolean;
}

const INTERVAL_HOURS: Record<SyncSource, number> = { ads: 6, social: 6, analytics: 12, search_console: 24, store: 12 };
const HISTORY_HOURS = 96;
const RATE_LIMITED = 'User request limit reached (code 17)';

function* runsOf(resource: SyncedResource, cal: Calendar, seed: number): Generator<Row> {
  const rng = new Rng(seed, `sync-runs/${resource.id}`);
  const run = (status: string, hoursBeforeEnd: number, durationSeconds: number | null, error: string | null): Row => {
    const started = cal.beforeEnd(hoursBeforeEnd);
    const finished = durationSeconds === null ? null : new Date(Date.parse(started) + durationSeconds * 1000).toISOString();
    return [rng.uuid(), resource.org.id, resource.source, resource.id, status, started, finished, error];
  };

  if (resource.neverSucceeded) {
    yield run('failed', 26 + rng.float(0, 2), rng.int(5, 40), SYNC_ERRORS[resource.source] ?? null);
    yield run('failed', 2 + rng.float(0, 1), rng.int(5, 40), SYNC_ERRORS[resource.source] ?? null);
    yield run('running', rng.float(0.05, 0.2), null, null);
    return;
  }

  const interval = INTERVAL_HOURS[resource.source];
  const count = HISTORY_HOURS / interval;
  const latest = rng.float(0.1, 1.5);
  for (let k = count - 1; k >= 0; k--) {
    const duration = rng.int(20, 240);
    const startedBefore = latest + k * interval + duration / 3600 + rng.float(0, 0.15);
    if (k < (resource.failingRuns ?? 0)) yield run('failed', startedBefore, rng.int(5, 40), SYNC_ERRORS[resource.source] ?? null);
    else if (k > 0 && rng.chance(0.04)) yield run('failed', startedBefore, rng.int(5, 40), RATE_LIMITED);
    else yield run('succeeded', startedBefore, duration, null);
  }
  if (resource.running) yield run('running', rng.float(0.02, 0.08), null, null);
}

export function syncRunsTable(cal: Calendar, seed: number, resources: readonly SyncedResource[]): TableData {
  return {
    table: 'sync_runs',
    columns: ['id', 'org_id', 'source', 'resource_id', 'status', 'started_at', 'finished_at', 'error'],
    expectedRows: resources.reduce((n, r) => n + HISTORY_HOURS / INTERVAL_HOURS[r.source] + 1, 0),
    rows: function* () {
      for (const resource of resources) yield* runsOf(resource, cal, seed);
    },
  };
}
