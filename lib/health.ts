// Whether the database answers: for the readiness check (app/api/health/ready) and for the pages that
// read the database (proxy.ts). Anyone can ask, so one check answers every caller for a second: a
// flood costs at most one `SELECT 1` a second, however many requests arrive, and cannot slow real traffic.
import { gateSql } from './db';

/** How long a check waits for an answer before it counts the dependency as unreachable. */
const CHECK_TIMEOUT_MS = 2_000;
/** How long one check answers every caller; callers arriving while it runs share it too. */
const REUSE_MS = 1_000;

export type CheckState = 'ok' | 'unreachable';

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

let latest: { startedAt: number; state: Promise<CheckState> } | null = null;

/** Whether the database answered a `SELECT 1`, checked at most once a second. */
export function databaseState(): Promise<CheckState> {
  if (!latest || Date.now() - latest.startedAt >= REUSE_MS) latest = { startedAt: Date.now(), state: check(() => gateSql('SELECT 1')) };
  return latest.state;
}
