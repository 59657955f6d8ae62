// Derived figures. A ratio whose numerator is not reported, or whose denominator is 0 or not
// reported, is null: "not reported", never a made-up zero.
export function ratio(numerator: number | null | undefined, denominator: number | null | undefined, scale = 1): number | null {
  if (numerator === null || numerator === undefined || denominator === null || denominator === undefined || denominator === 0) {
    return null;
  }
  return (numerator / denominator) * scale;
}

/** Parses a numeric/bigint column that pg returns as a string; null stays null (not reported). */
export function num(value: string | number | bigint | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}
