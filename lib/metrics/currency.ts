// Mixed currencies are never silently added: a response names a currency only when every source of
// its amounts has that one.

/** The one currency of a set of sources (ad accounts, properties, stores); null when they differ or one is unknown. */
export function singleCurrency(currencies: Iterable<string | null>): string | null {
  const distinct = new Set(currencies);
  if (distinct.size !== 1) return null;
  return [...distinct][0] ?? null;
}
