// Shared wording of the dimension-table surfaces: how a metric is described (in the response schemas
// and the operation descriptions alike) and the paragraphs every such operation's description repeats.
import type { MetricDefinition } from '../definitions';

/** The text a response schema gives a metric field. */
export function describeMetric(definition: MetricDefinition): string {
  return `${definition.definition} Unit: ${definition.unit}. ${definition.aggregation} Null: ${definition.whenNull}`;
}

/** A markdown list of a metric set's definitions. */
export function definitionList(definitions: readonly MetricDefinition[]): string {
  return definitions.map((definition) => `- \`${definition.name}\`: ${describeMetric(definition)}`).join('\n');
}

/** How these surfaces count days and freshness; `source` names the resource (property, site, store). */
export function sourceDaysNote(source: string): string {
  return `Days are the ${source}'s own calendar days (its timezone, listed with it): \`from\` and \`to\` select those
days directly, so a response over several ${source}s adds days that each ${source} counted in its own zone.
\`meta.syncedAt\` is the oldest last successful sync among the ${source}s in reach (null when none has synced);
\`meta.timezone\` is the API-wide constant and does not describe these days.`;
}

export const NULL_RULES = `\`null\` is "not reported", never zero: a sum over rows that all left a figure unreported is null; a sum over
some reported rows is the sum of those. A rate whose denominator is 0 or null is null. Rates are derived from the
range's sums, never averaged from daily rates.`;
