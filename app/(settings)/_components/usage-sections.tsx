// The two cards every usage page shows for its scope (a key, a connected app, the organisation): the
// requests per day with their split by endpoint or tool, and the request log with its filter. The page
// checks who may see them (admins only) and that the scope is within the organisation.
import { requestUsage } from '@/lib/usage/request-counts';
import { requestLogSettings } from '@/lib/usage/request-log';
import type { RequestScope } from '@/lib/usage/request-scope';
import { EndpointUsage, RequestsChart } from './usage-chart';
import { RequestLog, type LogSearchParams } from './request-log';

export async function UsageSections({
  scope,
  subject,
  params,
  basePath,
  showCaller = false,
}: {
  scope: RequestScope;
  /** Whose requests, as the chart's summary says it: "with the key Reporting", "of Acme". */
  subject: string;
  params: LogSearchParams;
  basePath: string;
  showCaller?: boolean;
}) {
  const usage = await requestUsage(scope);
  const settings = requestLogSettings();
  return (
    <>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Requests per day</h2>
        <RequestsChart usage={usage} subject={subject} id="usage" />
        <h3>By endpoint or tool</h3>
        <EndpointUsage usage={usage} id="usage" />
      </section>
      <section className="card" aria-labelledby="request-log-title" id="request-log">
        <h2 id="request-log-title">Request log</h2>
        {settings.enabled ? (
          <p className="muted">
            Every request made with a credential: kept {settings.retentionDays} days, at most {settings.maxRowsPerOrg.toLocaleString('en-GB')} requests
            for the organisation. Find an answer by the <code>X-Request-Id</code> it carried.
          </p>
        ) : (
          <p className="notice">The request log is off on this server (<code>REQUEST_LOG=off</code>): no request is being logged or counted now.</p>
        )}
        <RequestLog scope={scope} params={params} basePath={basePath} endpoints={usage.endpoints.map((e) => e.endpoint)} showCaller={showCaller} wholeLogPath={scope.kind === 'org' ? undefined : '/settings/usage'} />
      </section>
    </>
  );
}
