// The examples of the OpenAPI document, made from the operations and their schemas: a request for each
// operation (an `example` on every parameter, and a curl line with the required ones) and a trimmed
// `{ data, meta }` answer (every list cut to one item), plus one problem document per error code.
// Nothing is typed per endpoint: values come from the sample tables below by field name, anything else
// from its schema's type, so a new field or endpoint gets its example by itself. The unit test
// (tests/unit/platform-openapi.test.ts) validates every example against its schema, and every request
// example against the operation's own query parser.
import { z } from 'zod';
import { KEY_PREFIX } from '../key-format';
import { ApiError, INVALID_KEY_DETAIL, rateLimited, type ErrorCode } from '../contract/errors';
import type { Operation } from '../contract/operation';
import { parseQuery, type QuerySchema } from '../contract/query';
import { problemBody } from '../operations/problems';
import { adsOverviewOperation } from '../metrics/ads/operations';

type JsonSchema = Record<string, unknown>;

/** The range of every example: a whole month, inside the date window whatever today is. */
const RANGE = { from: '2026-06-01', to: '2026-06-30' } as const;
/** The same number of days just before it (`compare: previous`). */
const PREVIOUS_RANGE = { previousFrom: '2026-05-02', previousTo: '2026-05-31' } as const;

/** Version 4 UUIDs that look like ids and are plainly examples; `n` tells them apart. */
const uuid = (n: number) => `3f6c2a1e-8b4d-4e5f-9a07-${n.toString(16).padStart(12, '0')}`;
const CLIENT_ID = uuid(1);
const POST_ID = uuid(2);

/** A value for each query parameter by name. A parameter not listed here gets one from its schema. */
const PARAMETER_SAMPLES: Record<string, unknown> = {
  ...RANGE,
  client: CLIENT_ID,
  level: 'campaign',
  entityId: '120210000000101',
  campaignId: '120210000000101',
  adSetId: '120210000000201',
  adId: '120210000000301',
  search: 'summer',
  post: POST_ID,
  limit: 10,
  offset: 10,
  granularity: 'week',
  compare: 'previous',
};

/** Text fields of the answers by name. */
const TEXT_SAMPLES: Record<string, string> = {
  accountName: 'Acme Retail · Meta (INR)',
  age: '25-34',
  caption: 'Our summer collection is here.',
  currency: 'INR',
  date: RANGE.from,
  effectiveStatus: 'ACTIVE',
  detail: 'Summer collection · Acme Retail',
  gender: 'female',
  igUsername: 'acme.retail',
  imageUrl: 'https://cdn.example.com/ads/120210000000301.jpg',
  mediaType: 'IMAGE',
  objective: 'OUTCOME_SALES',
  pageId: '104000000000001',
  path: '/collections/summer',
  permalink: 'https://www.facebook.com/104000000000001/posts/104000000000777',
  placement: 'feed',
  platform: 'facebook',
  platformAccountId: 'act_1000000001',
  platformId: '120210000000101',
  position: 'feed',
  postId: '104000000000001_104000000000777',
  prefix: `${KEY_PREFIX}Ab3d`,
  propertyId: '312345678',
  resultType: 'purchase',
  shopDomain: 'acme-retail.myshopify.com',
  shopName: 'Acme Retail',
  siteUrl: 'https://www.acme-retail.example/',
  status: 'ACTIVE',
  thumbnailHref: `/api/v1/social/thumbnail?post=${POST_ID}`,
  thumbnailUrl: 'https://cdn.example.com/ads/120210000000301-thumb.jpg',
  timezone: 'Asia/Kolkata',
  title: 'Summer collection',
};

/** The key of a dimension row (and its label) by the list that holds it: `key`, `label`, `key1`, `key2`. */
const ROW_SAMPLES: Record<string, Record<string, string>> = {
  channels: { key: 'Organic Search' },
  sources: { key: 'google / organic' },
  landingPages: { key: '/collections/summer' },
  organicLandingPages: { key: '/collections/summer' },
  pages: { key: 'https://www.acme-retail.example/collections/summer' },
  events: { key: 'purchase' },
  devices: { key: 'mobile', label: 'Mobile' },
  countries: { key: 'IN', label: 'India' },
  newReturning: { key: 'new', label: 'New' },
  products: { key: '8012345678901', label: 'Linen shirt' },
  referrers: { key: 'instagram.com' },
  discounts: { key: 'SUMMER10' },
  queries: { key: 'linen shirts' },
  searchAppearances: { key: 'PRODUCT_SNIPPETS', label: 'Product snippets' },
  ageGender: { key1: '25-34', key2: 'female' },
  device: { key1: 'mobile_app', key2: '' },
  platform: { key1: 'instagram', key2: '' },
  placement: { key1: 'instagram', key2: 'feed' },
  region: { key1: 'Maharashtra', key2: 'IN' },
};

/** `name` by what it names (the field or list that holds the object). */
const NAME_SAMPLES: Record<string, string> = {
  org: 'Demo Agency',
  key: 'Reporting server',
  account: 'Acme Retail · Meta (INR)',
  adAccounts: 'Acme Retail · Meta (INR)',
  campaign: 'Summer sale · prospecting',
  campaigns: 'Summer sale · prospecting',
  topCampaigns: 'Summer sale · prospecting',
  adSet: 'Women 25-34 · India',
  pages: 'Acme Retail',
  analyticsProperties: 'acme-retail.example',
  commerceStores: 'Acme Retail',
};

/** Numeric fields by name; others get a plain figure of their type. */
const NUMBER_SAMPLES: Record<string, number> = {
  spend: 48250.75,
  impressions: 812400,
  reach: 214300,
  clicks: 9630,
  ctr: 1.19,
  cpc: 5.01,
  results: 212,
  costPerResult: 227.6,
  frequency: 3.79,
  balance: 125000,
  threshold: 20000,
  cap: 500000,
  spent: 374500,
  sessions: 18240,
  users: 12100,
  orders: 412,
  position: 8.4,
  status: 200,
};

/** A figure for a numeric field not in NUMBER_SAMPLES: a percentage, a ratio, or a count or amount. */
function numberFor(field: string): number {
  if (/rate$|ctr$/i.test(field)) return 2.35;
  if (/^average|Per[A-Z]|Duration$/.test(field)) return 3.2;
  return 1250;
}

const DATE_TIME = '2026-06-30T06:15:00Z';
const DATE_TIME_SAMPLES: Record<string, string> = {
  expiresAt: '2027-06-30T00:00:00Z',
  publishedAt: '2026-06-12T09:15:00Z',
};

interface Context {
  /** components.schemas, to follow `$ref`s. */
  schemas: Record<string, JsonSchema>;
  /** The field names from the root to here. */
  path: string[];
  ids: { next: number };
}

function resolve(schema: JsonSchema, context: Context): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = context.schemas[name];
  if (!target) throw new Error(`An example follows ${ref}, which the document does not define`);
  return target;
}

/** The branch of a nullable (or any other) choice to show: the first that is not `null`. */
function chosen(schema: JsonSchema): JsonSchema {
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) return options.find((option) => option.type !== 'null') ?? options[0]!;
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    return { ...schema, type: types.find((type) => type !== 'null') ?? 'null' };
  }
  return schema;
}

function clamp(value: number, schema: JsonSchema): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(max, Math.max(min, value));
}

function textExample(schema: JsonSchema, context: Context): string {
  const field = context.path.at(-1) ?? '';
  if (schema.format === 'uuid' || field === 'id' || field.endsWith('Ids')) return uuid(++context.ids.next + 10);
  if (schema.format === 'date') {
    // `compare` and `previous…` name the range before the example's.
    if (context.path.includes('compare')) return field === 'from' ? PREVIOUS_RANGE.previousFrom : PREVIOUS_RANGE.previousTo;
    return (RANGE as Record<string, string>)[field] ?? (PREVIOUS_RANGE as Record<string, string>)[field] ?? RANGE.from;
  }
  if (schema.format === 'date-time') return DATE_TIME_SAMPLES[field] ?? DATE_TIME;
  if (field === 'name') {
    const holder = context.path.findLast((name) => name in NAME_SAMPLES);
    return NAME_SAMPLES[holder ?? ''] ?? 'Acme Retail';
  }
  if (['key', 'label', 'key1', 'key2'].includes(field)) {
    const list = context.path.findLast((name) => name in ROW_SAMPLES);
    const row = list ? ROW_SAMPLES[list]! : undefined;
    const value = row?.[field] ?? (field === 'label' ? row?.key : undefined);
    if (value !== undefined) return value;
  }
  return TEXT_SAMPLES[field] ?? field;
}

/** An example of `schema`: every property of every object, one item of every list. */
function exampleOf(input: JsonSchema, context: Context): unknown {
  const schema = chosen(resolve(input, context));
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const field = context.path.at(-1) ?? '';
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleOf(property, { ...context, path: [...context.path, name] })]),
      );
    }
    case 'array': {
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const item = (schema.items ?? {}) as JsonSchema;
      return Array.from({ length: count }, () => exampleOf(item, context));
    }
    case 'string':
      return textExample(schema, context);
    case 'integer':
      return clamp(Math.round(NUMBER_SAMPLES[field] ?? 42), schema);
    case 'number':
      return clamp(NUMBER_SAMPLES[field] ?? numberFor(field), schema);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** The example value of one query parameter. */
export function parameterExample(name: string, schema: JsonSchema): unknown {
  if (name in PARAMETER_SAMPLES) return PARAMETER_SAMPLES[name];
  return exampleOf(schema, { schemas: {}, path: [name], ids: { next: 0 } });
}

/** The request of the examples: the required parameters (and none other, so that it reads plainly). */
export function exampleQuery(operation: Operation): Record<string, string> {
  // Required as the document states it: the query's input schema (a parameter with a default is optional).
  const schema = z.toJSONSchema(operation.query, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.fromEntries((schema.required ?? []).map((name) => [name, String(parameterExample(name, schema.properties?.[name] ?? {}))]));
}

/** The example request as a curl line, for `x-codeSamples`. `base` is the API's base URL. */
export function curlSample(operation: Operation, base: string): { lang: string; label: string; source: string } {
  const query = new URLSearchParams(exampleQuery(operation)).toString();
  const url = `${base}${operation.path}${query ? `?${query}` : ''}`;
  const output = operation.binary ? ' --output thumbnail' : '';
  return { lang: 'shell', label: 'curl', source: `curl -H "Authorization: Bearer $METRICS_API_KEY" "${url}"${output}` };
}

/**
 * The trimmed `{ data, meta }` answer of `operation` to the example request. `meta` holds what the
 * operation's answers hold: `from`/`to` when it takes a range, `truncated` and `currency` when its
 * description says it sets them.
 */
export function responseExample(operation: Operation, schema: JsonSchema, schemas: Record<string, JsonSchema>): unknown {
  const context: Context = { schemas, path: [], ids: { next: 0 } };
  const body = exampleOf(schema, context) as { data: unknown; meta: Record<string, unknown> };
  const takesRange = 'from' in operation.query.shape && 'to' in operation.query.shape;
  const data = body.data as Record<string, unknown> | undefined;
  const keep: Record<string, boolean> = {
    from: takesRange,
    to: takesRange,
    truncated: operation.description.includes('meta.truncated') || (typeof data === 'object' && data !== null && 'truncated' in data),
    currency: operation.description.includes('meta.currency'),
  };
  for (const [name, kept] of Object.entries(keep)) if (!kept) delete body.meta[name];
  if (takesRange) Object.assign(body.meta, RANGE);
  return body;
}

/** What the query parser itself answers to `query` for `schema`: its own wording of each problem. */
function refusal(query: Record<string, string>, schema: QuerySchema): ApiError {
  try {
    parseQuery(new URLSearchParams(query), schema);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`The query ${JSON.stringify(query)} of a validation example was accepted`);
}

/** The 400 of an endpoint that takes no parameters, for a parameter given all the same. */
export function noParametersExample(): unknown {
  return problemBody(refusal({ format: 'yaml' }, z.object({})));
}

/** The detail and errors of each code's example, as the server words them. */
function problemExample(code: ErrorCode): ApiError {
  switch (code) {
    case 'validation_failed':
      // A typo (`form`) and a day that does not exist.
      return refusal({ form: RANGE.from, to: '2026-06-31' }, adsOverviewOperation.query);
    case 'unauthorized':
      return new ApiError(code, INVALID_KEY_DETAIL);
    case 'forbidden':
      return new ApiError(code, `This credential lacks the scope ads:read, which ${adsOverviewOperation.path} requires.`);
    case 'not_found':
      return new ApiError(code, "No client with this id exists in your organisation's data that this credential can read.");
    case 'rate_limited':
      return rateLimited('this key', 42);
    case 'unavailable':
      return new ApiError(code, 'The service cannot reach its database, or it did not answer in time. Retry after the seconds in Retry-After.');
    case 'internal':
      return new ApiError(code, 'An unexpected error occurred. Quote request id 6f1d2c3b-5a4e-4f60-8b7a-1c2d3e4f5a6b when you report it.');
  }
}

/** The problem document of `code` as the API sends it, `type` linking to this server's errors page. */
export function errorExample(code: ErrorCode): unknown {
  return problemBody(problemExample(code));
}
