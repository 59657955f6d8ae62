// What the whole process shares, one value per name. Next.js bundles lib/ into each route separately,
// so a module's own variable would be one per bundle, and the production server (scripts/server.mjs)
// runs lib/telemetry outside them all: a value that must be one for all of them lives on globalThis,
// under Symbol.for('metrics-api.<name>'), the same key in every bundle. This is the one file of lib/
// and app/ that touches globalThis (scripts/drain.mjs reads the slot `shutdown`, see lib/shutdown.ts).
// Node runs this file as it is (lib/telemetry imports it): no imports.

/**
 * The getter of the process's value of `name`, made by `create` the first time any bundle asks, not
 * at import (`next build` imports route modules). `create` never returns undefined: a slot that holds
 * undefined is unmade, and the next call makes it again.
 */
export function processWide<T>(name: string, create: () => T): () => T {
  const key = Symbol.for(`metrics-api.${name}`);
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  return () => {
    const value = slots[key];
    return value === undefined ? (slots[key] = create()) : value;
  };
}
