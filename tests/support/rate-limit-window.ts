// The rate limit counts in fixed windows aligned on the clock (RATE_LIMIT.windowSeconds): a burst
// that must land in one window waits out the end of the current one when it is near.
import { RATE_LIMIT } from '@/lib/contract/limits';

/** Waits, if needed, so that the next burst of requests falls inside one rate-limit window. */
export async function awayFromWindowEdge(marginMs = 8_000): Promise<void> {
  const windowMs = RATE_LIMIT.windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
