// Integer arithmetic helpers. Money is generated in cents (integers) so that every sum the API
// computes over numeric(14,2) columns is exact, and partitions are split with the largest-remainder
// method so that the parts always add up to the whole.

/** Cents as a numeric(14,2) literal: 12345 → "123.45", -5 → "-0.05". */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  return `${sign}${(abs - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/**
 * Splits a non-negative integer into parts proportional to `weights` that sum exactly to `total`.
 * Remainders go to the largest fractional parts, ties to the earlier index, so the split is deterministic.
 * (Hot: called millions of times at the large scale, hence the plain loops.)
 */
export function splitInt(total: number, weights: readonly number[]): number[] {
  const n = weights.length;
  const parts = new Array<number>(n).fill(0);
  let weightSum = 0;
  for (let i = 0; i < n; i++) weightSum += weights[i] as number;
  if (n === 0) return parts;
  if (total === 0 || !(weightSum > 0)) {
    parts[0] = total;
    return parts;
  }
  const scale = total / weightSum;
  let remainder = total;
  for (let i = 0; i < n; i++) {
    const floor = Math.floor((weights[i] as number) * scale);
    parts[i] = floor;
    remainder -= floor;
  }
  // Fewer than n units remain; each goes to the part furthest below its exact share.
  while (remainder > 0) {
    let best = 0;
    let bestFraction = -Infinity;
    for (let i = 0; i < n; i++) {
      const fraction = (weights[i] as number) * scale - (parts[i] as number);
      if (fraction > bestFraction) {
        bestFraction = fraction;
        best = i;
      }
    }
    parts[best] = (parts[best] as number) + 1;
    remainder--;
  }
  return parts;
}

/** Like splitInt, but keeps null (not reported) as null in every part. */
export function splitNullable(total: number | null, weights: readonly number[]): (number | null)[] {
  return total === null ? weights.map(() => null) : splitInt(total, weights);
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
