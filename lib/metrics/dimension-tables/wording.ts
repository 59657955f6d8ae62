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

/** What `granularity` does to `series` and `previousSeries`, for the surfaces whose resources are `source`s. */
export function seriesNote(source: string): string {
  return `\`series\` and \`previousSeries\` have one point for every bucket of \`granularity\` of their range: \`day\` (default),
\`week\` (ISO, Monday to Sunday) or \`month\` (calendar month), the first and last clipped to the range, dated by the
bucket's first day in it (a range starting on a Wednesday has a first week of five days, dated that Wednesday). A week
or a month is a range of its own and follows the range rules: figures summed over its days (null only when no day of
it reported), rates derived from its sums, and a count of people each ${source}'s peak day within it, summed over the
${source}s, never a sum of days. The totals, \`previous\` and the tables do not change with it.`;
}

export const NULL_RULES = `\`null\` is "not reported", never zero: a sum over rows that all left a figure unreported is null; a sum over
some reported rows is the sum of those. A rate whose denominator is 0 or null is null. Rates are derived from the
range's sums, never averaged from daily rates.`;
