// Whether the database answers: for the readiness check (app/api/health/ready) and for the pages that
// read the database (proxy.ts). Anyone can ask, so one check answers every caller for a second: a
// flood costs at most one `SELECT 1` a second, however many requests arrive, and cannot slow real traffic.
import { gateBusy, gateSql } from './db';

/** How long a check waits for an answer before it counts the dependency as unreachable. */
const CHECK_TIMEOUT_MS = 2_000;
/** How long one check answers every caller; callers arriving while it runs share it too. */
const REUSE_MS = 1_000;

export type CheckState = 'ok' | 'unreachable';
/**
 * The database's state: `busy` when the check could not get one of the gate's connections within
 * CHECK_TIMEOUT_MS because requests hold them all while the database answers them (gateBusy). That is
 * load, not an outage: the server stays ready and its pages are served. Only a connection or a query
 * that fails or does not answer makes it `unreachable`.
 */
export type DatabaseState = CheckState | 'busy';

/** The probe's value when it answers within CHECK_TIMEOUT_MS, else `ok: false`. */
export async function withinCheckTime<T>(probe: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    return { ok: true, value: await Promise.race([probe(), timeout]) };
  } catch {
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

/** 'ok' when `probe` succeeds within CHECK_TIMEOUT_MS, else 'unreachable'. */
export async function check(probe: () => Promise<unknown>): Promise<CheckState> {
  return (await withinCheckTime(probe)).ok ? 'ok' : 'unreachable';
}

let latest: { startedAt: number; state: Promise<DatabaseState> } | null = null;

async function checkDatabase(): Promise<DatabaseState> {
  if ((await check(() => gateSql('SELECT 1', [], 'readiness'))) === 'ok') return 'ok';
  return gateBusy() ? 'busy' : 'unreachable';
}

/** Whether the database answered a `SELECT 1` (or is busy answering requests), checked at most once a second. */
export function databaseState(): Promise<DatabaseState> {
  if (!latest || Date.now() - latest.startedAt >= REUSE_MS) latest = { startedAt: Date.now(), state: checkDatabase() };
  return latest.state;
}
