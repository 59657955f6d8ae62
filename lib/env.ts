// Settings read from the environment that several modules share the parsing of.

/** A positive whole number from the variable `name`, or `fallback` when it is unset or empty; anything else throws. */
export function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
}
