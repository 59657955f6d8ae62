// The website operations' reference text, keyed by operation id: the OpenAPI summary and description,
// read by operations.ts.
import type { OperationDescription } from '../../contract/operation';
import { COMPARE_RULES } from '../compare';
import { definitionList, NULL_RULES, seriesNote, sourceDaysNote } from '../dimension-tables/wording';
import { SEARCH_METRICS, WEB_METRICS } from './definitions';

export const WEBSITE_DESCRIPTIONS = {
  getWebsiteOverview: {
    summary: 'Web-analytics totals, series and dimension tables, with a comparison period',
    description: `Web-analytics figures of the properties in reach (all, or one client's) over \`from\`…\`to\`, summed over
properties, with the same figures over a compare range. \`analytics\` is null when no property is in reach.

${sourceDaysNote('property')}

${COMPARE_RULES}

${seriesNote('property')}

Tables (\`channels\`, \`sources\`, \`landingPages\`, \`organicLandingPages\`, \`pages\`, \`events\`, \`devices\`,
\`countries\`, \`newReturning\`): each key's figures summed over properties and days, sorted by \`sessions\` descending
(unreported last), then by key (byte order), and cut to \`limit\`. A row's \`previous\` is the same key over the compare
range: null when \`compare\` is \`none\`; a metric set of nulls when the key had no rows then. A key reported only in the
compare range is not listed.

\`partial\` is true when at least one property in reach lacks a daily row for at least one day of \`from\`…\`to\` (not yet
synced, a gap, or a day still to come in the property's zone). The compare range is not checked.

Currency: \`currency\` and \`meta.currency\` are the properties' common currency. When the properties in reach have
different currencies (or one is unknown) both are null, and the money figures (\`totalRevenue\`, \`purchaseRevenue\`,
\`revenuePerSession\`) add amounts of different currencies: they are then not an amount in any currency; ask per client
for comparable amounts. Money is summed exactly from the stored cents.

${NULL_RULES}

Metric set (percentages are 0–100, like the ads \`ctr\`):
${definitionList(WEB_METRICS)}`,
  },
  getWebsiteSearch: {
    summary: 'Search-console clicks, impressions, CTR and position, with a comparison period',
    description: `Search-console figures of the sites in reach (all, or one client's) over \`from\`…\`to\`, summed over sites,
with the same figures over a compare range. \`search\` is null when no site is in reach.

Scope: \`web:read\`. The search console reports how people reach the website from search results: it is part of the
website surface, and the service has no scope of its own for it. A key that may read the website's analytics may read
its search performance.

${sourceDaysNote('site')}

${COMPARE_RULES}

${seriesNote('site')}

Tables (\`queries\`, \`pages\`, \`countries\`, \`devices\`, \`searchAppearances\`): each key's figures summed over sites
and days, sorted by \`clicks\` descending, then by key (byte order), and cut to \`limit\`. The search console reports no
label for its keys, so rows carry the key only. A row's \`previous\` is the same key over the compare range: null when
\`compare\` is \`none\`; a metric set of nulls when the key had no rows then. Each table is what the search console
reported for that dimension: its sums need not equal \`totals\` (the console leaves out rare queries for privacy).

\`partial\` is true when at least one site in reach lacks a daily row for at least one day of \`from\`…\`to\` (the search
console publishes days with a delay of a few days). The compare range is not checked.

There is no money in this response, so \`meta.currency\` is absent.

${NULL_RULES}

Metric set (percentages are 0–100, like the ads \`ctr\`):
${definitionList(SEARCH_METRICS)}`,
  },
} satisfies Record<string, OperationDescription>;
