// The store operation's reference text, keyed by operation id: the OpenAPI summary and description,
// read by operations.ts.
import type { OperationDescription } from '../../contract/operation';
import { COMPARE_RULES } from '../compare';
import { definitionList, NULL_RULES, seriesNote, sourceDaysNote } from '../dimension-tables/wording';
import { STORE_METRICS } from './definitions';

export const STORE_DESCRIPTIONS = {
  getStoreOverview: {
    summary: 'Store sales totals, series and dimension tables, with a comparison period',
    description: `Sales figures of the stores in reach (all, or one client's) over \`from\`…\`to\`, summed over stores, with the
same figures over a compare range. \`store\` is null when no store is in reach.

${sourceDaysNote('store')}

${COMPARE_RULES}

${seriesNote('store')}

Tables (\`products\`, \`channels\`, \`referrers\`, \`countries\`, \`discounts\`): each key's figures summed over stores and
days, sorted by \`netSales\` descending (unreported last), then by key (byte order), and cut to \`limit\`. A row's
\`previous\` is the same key over the compare range: null when \`compare\` is \`none\`; a metric set of nulls when the key
had no rows then. A key sold only in the compare range is not listed.

A store without \`hasAllOrdersScope\` lets the platform read only its last 60 days of orders: older days may be missing
or incomplete, for the range and the compare range alike.

Currency: \`currency\` and \`meta.currency\` are the stores' common currency. When the stores in reach have different
currencies (or one is unknown) both are null, and every money figure adds amounts of different currencies: it is then
not an amount in any currency; ask per client for comparable amounts. Money is summed exactly from the stored cents.

${NULL_RULES}

Metric set (percentages are 0–100, like the ads \`ctr\`):
${definitionList(STORE_METRICS)}`,
  },
} satisfies Record<string, OperationDescription>;
