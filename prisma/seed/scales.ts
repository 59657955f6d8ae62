// How much data each scale generates. `tiny` is for integration tests (loads in about a second),
// `demo` for a realistic dashboard, `large` for benchmarks (loads in well under five minutes), `lists`
// for the MCP answer-size test: the lists a tool answers as long as `large`'s, without its depth.

export type Scale = 'tiny' | 'demo' | 'large' | 'lists';

export interface UserShape {
  email: string;
  name: string;
  role: 'admin' | 'member';
}

export interface OrgShape {
  slug: string;
  name: string;
  users: readonly UserShape[];
  clients: number;
  adAccounts: number;
  campaigns: number;
  adSetsPerCampaign: readonly [number, number];
  adsPerAdSet: readonly [number, number];
  pages: number;
  posts: number;
  properties: number;
  sites: number;
  stores: number;
}

export interface ScaleShape {
  days: number;
  orgs: readonly OrgShape[];
  /** Share of campaigns, ad sets and ads that have entries in the breakdown cache. */
  breakdownSample: { campaign: number; adset: number; ad: number };
}

export const DEMO_PASSWORD = 'demo-password';

const DEMO_AGENCY_USERS: readonly UserShape[] = [
  { email: 'admin@demo.agency', name: 'Asha Rao', role: 'admin' },
  { email: 'member@demo.agency', name: 'Vikram Nair', role: 'member' },
];
const OTHER_AGENCY_USERS: readonly UserShape[] = [{ email: 'admin@other.agency', name: 'Olivia Grant', role: 'admin' }];

const OTHER_AGENCY: OrgShape = {
  slug: 'other-agency',
  name: 'Other Agency',
  users: OTHER_AGENCY_USERS,
  clients: 3,
  adAccounts: 3,
  campaigns: 12,
  adSetsPerCampaign: [2, 3],
  adsPerAdSet: [2, 4],
  pages: 2,
  posts: 120,
  properties: 2,
  sites: 2,
  stores: 1,
};

/** The demo agency at the `large` scale: what the benchmarks read. */
const LARGE_AGENCY: OrgShape = {
  slug: 'demo-agency',
  name: 'Demo Agency',
  users: DEMO_AGENCY_USERS,
  clients: 60,
  adAccounts: 150,
  campaigns: 3000,
  adSetsPerCampaign: [4, 4],
  adsPerAdSet: [4, 4],
  pages: 60,
  posts: 6000,
  properties: 60,
  sites: 60,
  stores: 40,
};

export const SCALES: Record<Scale, ScaleShape> = {
  tiny: {
    days: 60,
    orgs: [
      {
        slug: 'demo-agency',
        name: 'Demo Agency',
        users: DEMO_AGENCY_USERS,
        clients: 3,
        adAccounts: 4,
        campaigns: 7,
        adSetsPerCampaign: [2, 2],
        adsPerAdSet: [2, 2],
        pages: 2,
        posts: 20,
        properties: 2,
        sites: 3,
        stores: 2,
      },
      {
        ...OTHER_AGENCY,
        clients: 2,
        adAccounts: 2,
        campaigns: 3,
        adSetsPerCampaign: [1, 2],
        adsPerAdSet: [1, 2],
        pages: 1,
        posts: 6,
        properties: 1,
        sites: 1,
      },
    ],
    breakdownSample: { campaign: 1, adset: 0.5, ad: 0.25 },
  },
  demo: {
    days: 400,
    orgs: [
      {
        slug: 'demo-agency',
        name: 'Demo Agency',
        users: DEMO_AGENCY_USERS,
        clients: 6,
        adAccounts: 10,
        campaigns: 60,
        adSetsPerCampaign: [2, 5],
        adsPerAdSet: [3, 5],
        pages: 8,
        posts: 900,
        properties: 6,
        sites: 7,
        stores: 4,
      },
      OTHER_AGENCY,
    ],
    breakdownSample: { campaign: 0.5, adset: 0.2, ad: 0.08 },
  },
  large: {
    days: 400,
    orgs: [LARGE_AGENCY, OTHER_AGENCY],
    breakdownSample: { campaign: 0.05, adset: 0.02, ad: 0.01 },
  },
  // Every list an MCP tool answers holds `large`'s count or its 500-row cap over a year (clients, pages,
  // posts, campaigns, ad sets, ads; the daily series), so that every tool's largest answer is as large
  // as on `large`; what only makes `large` slow (an ad set per campaign beyond one, ad accounts' and
  // web sources' daily breakdowns) is kept small: it loads in about a minute and a half.
  lists: {
    days: 400,
    orgs: [
      { ...LARGE_AGENCY, adAccounts: 20, campaigns: 560, adSetsPerCampaign: [1, 1], adsPerAdSet: [1, 1], properties: 3, sites: 3, stores: 2 },
      OTHER_AGENCY,
    ],
    breakdownSample: { campaign: 0.05, adset: 0.02, ad: 0.02 },
  },
};
