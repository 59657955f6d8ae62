// A scope's requests per day and per endpoint, by status class, from the daily counts: the usage charts.
import { sql, SqlParams } from '../db';
import { scopeConditions, type RequestScope, type StatusClass } from './request-scope';

export type ClassCounts = Record<StatusClass, number>;

export interface DailyRequests {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  counts: ClassCounts;
  total: number;
}

export interface EndpointRequests {
  endpoint: string;
  counts: ClassCounts;
  total: number;
}

export interface RequestUsage {
  /** Every day of the period, oldest first, days without requests included (zero). */
  days: DailyRequests[];
  /** The endpoints (REST paths, MCP tools) of the period, busiest first. */
  endpoints: EndpointRequests[];
  total: number;
}

function noCounts(): ClassCounts {
  return { '2xx': 0, '3xx': 0, '4xx': 0, '429': 0, '5xx': 0 };
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A scope's requests per UTC day over the last `days` days (today included), by status class and by endpoint, from the daily counts. */
export async function requestUsage(scope: RequestScope, days = 30, now = new Date()): Promise<RequestUsage> {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const first = new Date(last.getTime() - (days - 1) * 86_400_000);
  const params = new SqlParams();
  const conditions = [...scopeConditions(scope, params, 'counts'), `day BETWEEN ${params.add(isoDay(first))}::date AND ${params.add(isoDay(last))}::date`];
  const rows = await sql<{ day: string; endpoint: string; statusClass: StatusClass; requests: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, status_class AS "statusClass", sum(requests) AS requests
       FROM request_counts_daily WHERE ${conditions.join(' AND ')}
      GROUP BY day, endpoint, status_class`,
    params.values,
  );
  const byDay = new Map<string, DailyRequests>();
  for (let time = first.getTime(); time <= last.getTime(); time += 86_400_000) {
    const day = isoDay(new Date(time));
    byDay.set(day, { day, counts: noCounts(), total: 0 });
  }
  const byEndpoint = new Map<string, EndpointRequests>();
  let total = 0;
  for (const row of rows) {
    const requests = Number(row.requests);
    const daily = byDay.get(row.day)!;
    daily.counts[row.statusClass] += requests;
    daily.total += requests;
    let endpoint = byEndpoint.get(row.endpoint);
    if (!endpoint) byEndpoint.set(row.endpoint, (endpoint = { endpoint: row.endpoint, counts: noCounts(), total: 0 }));
    endpoint.counts[row.statusClass] += requests;
    endpoint.total += requests;
    total += requests;
  }
  const endpoints = [...byEndpoint.values()].sort((a, b) => b.total - a.total || a.endpoint.localeCompare(b.endpoint));
  return { days: [...byDay.values()], endpoints, total };
}
