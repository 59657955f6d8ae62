// A scope's request log (a key's, a connected app's, the organisation's), newest first, a page at a
// time, with its filter: a plain GET form, so that a filtered view is an address (shareable, survives a
// reload) and needs no script. What it reads: lib/usage/request-log-page.ts; how long records are kept:
// lib/usage/request-log.ts.
import { requestLogPage, type RequestLogCursor, type RequestLogEntry, type RequestLogFilter } from '@/lib/usage/request-log-page';
import { STATUS_CLASSES, type RequestScope, type StatusClass } from '@/lib/usage/request-scope';
import { Cell } from './cell';
import { CLASS_LABEL } from './usage-chart';
import { When } from './when';
import './usage.css';

/** The page's query: the filter, and the cursor of an older page (`before`) or a newer one (`after`). */
export type LogSearchParams = { status?: string | string[]; endpoint?: string | string[]; id?: string | string[]; before?: string | string[]; after?: string | string[] };

/** Bounds of what the filter takes from the address; longer text could match nothing. */
const TEXT_MAX = 512;

function first(value: string | string[] | undefined): string {
  return ((Array.isArray(value) ? value[0] : value) ?? '').trim().slice(0, TEXT_MAX);
}

/** The filter the address asks for: an unknown status class or an empty field is no filter. */
export function logFilter(params: LogSearchParams): RequestLogFilter & { before: string; after: string } {
  const status = first(params.status);
  const endpoint = first(params.endpoint);
  const id = first(params.id).toLowerCase();
  return {
    ...(STATUS_CLASSES.includes(status as StatusClass) ? { status: status as StatusClass } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(id ? { requestId: id } : {}),
    before: first(params.before),
    after: first(params.after),
  };
}

function hrefWith(basePath: string, filter: RequestLogFilter, cursor: RequestLogCursor = {}): string {
  const query = new URLSearchParams();
  if (filter.status) query.set('status', filter.status);
  if (filter.endpoint) query.set('endpoint', filter.endpoint);
  if (filter.requestId) query.set('id', filter.requestId);
  if (cursor.before) query.set('before', cursor.before);
  if (cursor.after) query.set('after', cursor.after);
  const text = query.toString();
  return `${basePath}${text ? `?${text}` : ''}#request-log`;
}

export async function RequestLog({
  scope,
  params,
  basePath,
  endpoints,
  showCaller = false,
  wholeLogPath,
}: {
  scope: RequestScope;
  params: LogSearchParams;
  /** The page's own path, which the filter form and the pager link to. */
  basePath: string;
  /** The endpoints to offer in the filter (those of the usage table). */
  endpoints: string[];
  /** Whether to name each request's key or app (the organisation's log). */
  showCaller?: boolean;
  /**
   * The organisation's log, from a narrower one: a request id not found here may be another key's (the
   * one a rotated key replaced, above all), and the organisation's log has every key's.
   */
  wholeLogPath?: string;
}) {
  const { before, after, ...asked } = logFilter(params);
  const page = await requestLogPage(scope, asked, { before: before || undefined, after: after || undefined });
  // As the log read them: an endpoint that names none is no filter, a cursor out of its bounds the first page.
  const { filter, older } = page;
  const filtered = Boolean(filter.status || filter.endpoint || filter.requestId);
  const endpointOptions = filter.endpoint && !endpoints.includes(filter.endpoint) ? [filter.endpoint, ...endpoints] : endpoints;
  return (
    <>
      <LogFilterForm basePath={basePath} filter={filter} filtered={filtered} endpointOptions={endpointOptions} />
      {page.entries.length === 0 ? (
        <NoRequests filter={filter} filtered={filtered} wholeLogPath={wholeLogPath} />
      ) : (
        <LogTable entries={page.entries} older={older} showCaller={showCaller} />
      )}
      {(page.next || older) && (
        <nav className="pager" aria-label="Request log pages">
          {older && <a href={hrefWith(basePath, filter)}>Newest requests</a>}
          {page.newer && <a href={hrefWith(basePath, filter, { after: page.newer })}>Newer requests</a>}
          {page.next && <a href={hrefWith(basePath, filter, { before: page.next })}>Older requests</a>}
        </nav>
      )}
    </>
  );
}

/** The filter: a plain GET form, so that a filtered view is an address. */
function LogFilterForm({ basePath, filter, filtered, endpointOptions }: { basePath: string; filter: RequestLogFilter; filtered: boolean; endpointOptions: string[] }) {
  return (
    <form role="search" className="log-filter" action={`${basePath}#request-log`} aria-label="Filter the request log">
      <div className="field">
        <label htmlFor="log-status" className="log-filter-label">Status</label>
        <select id="log-status" name="status" defaultValue={filter.status ?? ''}>
          <option value="">Any status</option>
          {STATUS_CLASSES.map((statusClass) => <option key={statusClass} value={statusClass}>{CLASS_LABEL[statusClass]}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="log-endpoint" className="log-filter-label">Endpoint or tool</label>
        <select id="log-endpoint" name="endpoint" defaultValue={filter.endpoint ?? ''}>
          <option value="">Any endpoint</option>
          {endpointOptions.map((endpoint) => <option key={endpoint} value={endpoint}>{endpoint}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="log-request-id" className="log-filter-label">Request id</label>
        <input id="log-request-id" name="id" type="search" defaultValue={filter.requestId ?? ''} maxLength={64} placeholder="X-Request-Id of an answer" />
      </div>
      <button type="submit" className="button">Filter</button>
      {filtered && <a href={`${basePath}#request-log`}>Show every request</a>}
    </form>
  );
}

/** What an empty page says: nothing logged yet, nothing matching, or a request id not found here (and where else to look). */
function NoRequests({ filter, filtered, wholeLogPath }: { filter: RequestLogFilter; filtered: boolean; wholeLogPath?: string }) {
  return (
    <p className="muted" role="status">
      {filter.requestId ? `No logged request has the id “${filter.requestId}”.` : filtered ? 'No logged request matches this filter.' : 'No request has been logged yet.'}
      {filter.requestId && wholeLogPath && (
        <>
          {' '}It may have been made with another key or app (a rotated key’s predecessor, for one):{' '}
          <a href={hrefWith(wholeLogPath, { requestId: filter.requestId })}>look for it in the organisation’s log</a>.
        </>
      )}
    </p>
  );
}

function LogTable({ entries, older, showCaller }: { entries: RequestLogEntry[]; older: boolean; showCaller: boolean }) {
  return (
    <div className="table-box" role="region" aria-label="Request log, scrolls sideways when wide" tabIndex={0}>
      <table className="request-log" data-testid="request-log">
        <caption className="table-note">Newest first{older ? ' (an older page)' : ''}. Times are UTC; anything that looks like a credential is shown as REDACTED.</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            {showCaller && <th scope="col">Key or app</th>}
            <th scope="col">Request</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Client address</th>
            <th scope="col">Rate limit</th>
            <th scope="col">Request id</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-request-id={entry.requestId}>
              <Cell label="Time"><When at={entry.at} seconds empty="" /></Cell>
              {showCaller && <Cell label="Key or app"><Caller entry={entry} /></Cell>}
              <Cell label="Request">
                <code>{entry.method} {entry.path}{entry.query ? `?${entry.query}` : ''}</code>
                {entry.tool && <span className="by">Tool: {entry.tool}</span>}
              </Cell>
              <Cell label="Status"><span className={`http-status s${Math.floor(entry.status / 100)}`}>{entry.status}</span></Cell>
              <Cell label="Duration">{entry.durationMs} ms</Cell>
              <Cell label="Client address">{entry.clientAddress ?? <span className="muted">unknown</span>}</Cell>
              <Cell label="Rate limit">{entry.rateLimited ? 'Limited' : entry.rateRemaining === null ? '—' : `${entry.rateRemaining} left`}</Cell>
              <Cell label="Request id"><code>{entry.requestId}</code></Cell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Whose request it was, in the organisation's log: a key by its prefix and name (a rotated key and its
 * successor share the name), an app by its name.
 */
function Caller({ entry }: { entry: RequestLogEntry }) {
  if (!entry.callerPrefix) return <>{entry.caller}</>;
  return (
    <>
      {entry.caller} <code className="by">{entry.callerPrefix}…</code>
    </>
  );
}
