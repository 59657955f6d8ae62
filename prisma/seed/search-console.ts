// Search-console sites with daily totals and daily rows per dimension, on Pacific days
// (America/Los_Angeles), ending two days before the end date: the console publishes with a delay.
//
// device (MOBILE, DESKTOP, TABLET) and country (ISO 3166-1 alpha-3, lower case, as the console reports
// it: "ind", "usa") partition the day: their clicks and impressions sum to the totals, and the day's
// position is the impression-weighted mean of the device rows' positions. query, page (full URL) and
// search_appearance (PRODUCT_SNIPPETS, REVIEW_SNIPPET, VIDEO, FAQ_RICH_RESULT) are top lists: anonymised
// queries and plain results are not reported, so their sums stay below the totals. clicks ≤ impressions
// on every row; days and keys without impressions have no row.
// The first organisation's last site was connected but never synced successfully: it has no data.
import type { Calendar } from './calendar';
import { COUNTRIES, countryWeights, SEARCH_APPEARANCES, SEARCH_DEVICES, searchQueries, SITE_PAGES } from './catalog';
import type { Row, SourceTables } from './copy';
import { clientOf, type ClientModel, type OrgModel, type SeedContext } from './context';
import { round2, splitInt } from './numbers';

/** Days the console lags behind the end date. */
const LAG_DAYS = 2;
const DEVICE_CTR = [0.03, 0.042, 0.025];
const DEVICE_POSITION = [1.05, 0.92, 1.1];
const HOME_COUNTRIES = ['IN', 'US', 'GB'];

export interface SiteModel {
  id: string;
  org: OrgModel;
  client: ClientModel;
  siteUrl: string;
  /** Base for page URLs (the domain property's canonical origin). */
  origin: string;
  createdAt: string;
  neverSynced: boolean;
  homeCountry: string;
  baseImpressions: number;
  ctr: number;
  position: number;
}

export function buildSites(ctx: SeedContext, org: OrgModel): SiteModel[] {
  const rng = org.rng.fork('search-console');
  const count = org.shape.sites;
  return Array.from({ length: count }, (_, i) => {
    const srng = rng.fork(`site/${i}`);
    const client = clientOf(org, i);
    const host = `${['www', 'blog', 'shop'][Math.floor(i / org.clients.length) % 3]}.${client.slug}.example`;
    // Alternate the two kinds of console property: a whole domain, or one URL prefix.
    const siteUrl = i % 2 === 0 && i < org.clients.length ? `sc-domain:${client.slug}.example` : `https://${host}/`;
    return {
      id: org.ids.uuid('search_console_site'),
      org,
      client,
      siteUrl,
      origin: `https://${host}`,
      createdAt: ctx.calendar.istTime(-srng.int(5, 30), srng.float(9, 19)),
      neverSynced: org.index === 0 && i === count - 1,
      homeCountry: HOME_COUNTRIES[client.index % HOME_COUNTRIES.length] ?? 'IN',
      baseImpressions: srng.int(400, 40_000),
      ctr: srng.float(0.6, 1.6),
      position: srng.float(8, 25),
    };
  });
}

interface DeviceRow {
  key: string;
  clicks: number;
  impressions: number;
  position: number;
}

interface SiteDay {
  d: number;
  clicks: number;
  impressions: number;
  position: number | null;
  devices: DeviceRow[];
}

/** A site's days: totals come from the device rows, replayed identically by both tables. */
function* siteDays(site: SiteModel, cal: Calendar): Generator<SiteDay> {
  if (site.neverSynced) return;
  const rng = site.org.rng.fork(`search-totals/${site.id}`);
  for (let d = 0; d <= cal.last - LAG_DAYS; d++) {
    const weekly = [0.85, 1.05, 1.07, 1.06, 1.03, 0.97, 0.87][cal.weekday(d)] ?? 1;
    const impressions = Math.round(site.baseImpressions * weekly * (0.8 + (0.4 * d) / cal.days) * rng.noise(0.12));
    const deviceImpressions = splitInt(impressions, [0.6, 0.35, 0.05].map((w) => w * rng.noise(0.1)));
    const devices = SEARCH_DEVICES.map((key, k) => {
      const imp = deviceImpressions[k] ?? 0;
      return {
        key,
        impressions: imp,
        clicks: Math.min(imp, Math.round(imp * (DEVICE_CTR[k] ?? 0.03) * site.ctr * rng.noise(0.15))),
        position: round2(site.position * (DEVICE_POSITION[k] ?? 1) * rng.noise(0.06)),
      };
    }).filter((row) => row.impressions > 0);
    const clicks = devices.reduce((n, r) => n + r.clicks, 0);
    const weighted = devices.reduce((n, r) => n + r.position * r.impressions, 0);
    yield { d, clicks, impressions, position: impressions > 0 ? weighted / impressions : null, devices };
  }
}

function* dimensionRows(site: SiteModel, cal: Calendar): Generator<Row> {
  const rng = site.org.rng.fork(`search-dimensions/${site.id}`);
  const queries = searchQueries(site.client);
  // Brand queries rank first and get clicked far more often than generic ones.
  const queryShape = queries.map((_, q) => (q < 3 ? { weight: 3 / (q + 1), ctr: 8, position: 1 + q * 0.3 } : { weight: rng.float(0.2, 1.5), ctr: rng.float(0.3, 1.5), position: rng.float(3, 35) }));
  const pages = SITE_PAGES.filter((p) => p.organic > 0);
  const homeWeights = countryWeights(site.homeCountry);

  for (const day of siteDays(site, cal)) {
    const date = cal.date(day.d);
    const out: Row[] = [];
    const push = (dimension: string, key: string, clicks: number, impressions: number, position: number) => {
      if (impressions > 0) out.push([site.id, dimension, date, key, Math.min(clicks, impressions), impressions, round2(position)]);
    };
    const around = (base: number) => Math.max(1, base * rng.noise(0.1));

    for (const device of day.devices) push('device', device.key, device.clicks, device.impressions, device.position);

    const countryImpressions = splitInt(day.impressions, homeWeights.map((w) => w * rng.noise(0.15)));
    // Clicks split in proportion to the impressions already split keeps clicks ≤ impressions per key.
    const countryClicks = splitInt(day.clicks, countryImpressions);
    COUNTRIES.forEach((c, i) => push('country', c.iso3, countryClicks[i] ?? 0, countryImpressions[i] ?? 0, around(day.position ?? site.position)));

    // Top lists: the last weight is what goes unreported (anonymised queries, plain results).
    const topList = (weights: number[], clickBias: number[], unreported: number) => {
      const impressions = splitInt(day.impressions, [...weights, unreported]);
      const clicks = splitInt(day.clicks, [...impressions.slice(0, -1).map((imp, k) => imp * (clickBias[k] ?? 1)), (impressions.at(-1) ?? 0) * 0.5]);
      return weights.map((_, k) => ({ impressions: impressions[k] ?? 0, clicks: clicks[k] ?? 0 }));
    };
    topList(queryShape.map((q) => q.weight * rng.noise(0.2)), queryShape.map((q) => q.ctr), 4).forEach((r, q) =>
      push('query', queries[q] ?? '', r.clicks, r.impressions, around(queryShape[q]?.position ?? site.position)),
    );
    topList(pages.map((p) => p.organic * rng.noise(0.15)), pages.map(() => 1), 0.15).forEach((r, k) =>
      push('page', `${site.origin}${pages[k]?.path ?? '/'}`, r.clicks, r.impressions, around(day.position ?? site.position)),
    );
    topList([0.15, 0.08, 0.03, 0.02].map((w) => w * rng.noise(0.2)), [1.2, 1.1, 0.8, 1], 0.72).forEach((r, k) =>
      push('search_appearance', SEARCH_APPEARANCES[k] ?? '', r.clicks, r.impressions, around(day.position ?? site.position)),
    );
    yield* out;
  }
}

export function searchConsoleTables(ctx: SeedContext, sites: readonly SiteModel[]): SourceTables {
  const cal = ctx.calendar;
  const days = sites.filter((s) => !s.neverSynced).length * (cal.days - LAG_DAYS);
  return {
    entities: [
      {
        table: 'search_console_sites',
        columns: ['id', 'org_id', 'client_id', 'site_url', 'timezone', 'created_at'],
        expectedRows: sites.length,
        rows: () => sites.map((s) => [s.id, s.org.id, s.client.id, s.siteUrl, 'America/Los_Angeles', s.createdAt]),
      },
    ],
    facts: [
      {
        table: 'search_console_daily',
        columns: ['search_console_site_id', 'date', 'clicks', 'impressions', 'position'],
        expectedRows: days,
        rows: function* () {
          for (const site of sites) for (const day of siteDays(site, cal)) yield [site.id, cal.date(day.d), day.clicks, day.impressions, day.position];
        },
      },
      {
        table: 'search_console_dimensions_daily',
        columns: ['search_console_site_id', 'dimension', 'date', 'key', 'clicks', 'impressions', 'position'],
        // An upper bound: every key of every dimension, every day.
        expectedRows: sites
          .filter((s) => !s.neverSynced)
          .reduce((n, s) => n + (cal.days - LAG_DAYS) * (SEARCH_DEVICES.length + COUNTRIES.length + searchQueries(s.client).length + SITE_PAGES.length + SEARCH_APPEARANCES.length), 0),
        rows: function* () {
          for (const site of sites) yield* dimensionRows(site, cal);
        },
      },
    ],
  };
}
