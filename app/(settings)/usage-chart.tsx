// Requests per day as stacked bars by status class, drawn as SVG on the server (no script, nothing to
// download), and the same numbers as tables: per day, and per endpoint or MCP tool. For any scope of
// lib/usage/request-log.ts (a key, a connected app, the organisation): the caller reads
// `requestUsage(scope)` and hands it here. The chart has a text summary for screen readers (role="img");
// the per-day table is in a <details> under it. Narrower than the chart's own width, the chart scrolls
// sideways in its box, never the page.
import { STATUS_CLASSES, type RequestUsage, type StatusClass } from '@/lib/usage/request-log';
import './usage.css';

const CLASS_LABEL: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx not modified',
  '4xx': '4xx refused (other than 429)',
  '429': '429 rate limited',
  '5xx': '5xx server error',
};

const number = new Intl.NumberFormat('en-GB');
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function dayLabel(day: string): string {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}

// The drawing's own units (the SVG scales to its box; below MIN_WIDTH px the box scrolls).
const BAR_STEP = 24;
const BAR_WIDTH = 16;
const LEFT = 44;
const TOP = 12;
const PLOT_HEIGHT = 160;
const BOTTOM = 28;

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the busiest day. */
function axisMax(busiest: number): number {
  if (busiest <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(busiest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= busiest)!;
}

/** The chart's text alternative: the period, the total by class, and the busiest day. */
function summary(usage: RequestUsage, subject: string): string {
  const first = usage.days[0]!.day;
  const last = usage.days.at(-1)!.day;
  if (usage.total === 0) return `No requests ${subject} from ${first} to ${last}.`;
  const byClass = STATUS_CLASSES.map((c) => [c, usage.days.reduce((sum, d) => sum + d.counts[c], 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([c, count]) => `${number.format(count)} ${c}`)
    .join(', ');
  const busiest = usage.days.reduce((best, d) => (d.total > best.total ? d : best));
  return `Requests ${subject} per day from ${first} to ${last}: ${number.format(usage.total)} in all (${byClass}); the busiest day was ${busiest.day} with ${number.format(busiest.total)}.`;
}

export function UsageChart({ usage, subject, id }: { usage: RequestUsage; subject: string; id: string }) {
  const top = axisMax(Math.max(...usage.days.map((d) => d.total)));
  const width = LEFT + usage.days.length * BAR_STEP + 8;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
  return (
    <figure className="usage-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="chart-caption">
        Requests per day, last {usage.days.length} days (UTC): {number.format(usage.total)}
      </figcaption>
      <ul className="chart-legend" aria-label="Status classes">
        {STATUS_CLASSES.map((c) => (
          <li key={c}>
            <span className={`swatch class-${c}`} aria-hidden="true" />
            {CLASS_LABEL[c]}
          </li>
        ))}
      </ul>
      <div className="chart-box" role="region" aria-label="Chart, scrolls sideways when narrow" tabIndex={0}>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary(usage, subject)} className="chart" data-testid={`${id}-svg`}>
          {[0, top / 2, top].map((tick) => (
            <g key={tick} className="tick">
              <line x1={LEFT} x2={width - 4} y1={y(tick)} y2={y(tick)} />
              <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end">{number.format(tick)}</text>
            </g>
          ))}
          {usage.days.map((day, i) => {
            const x = LEFT + i * BAR_STEP + (BAR_STEP - BAR_WIDTH) / 2;
            let base = 0;
            return (
              <g key={day.day}>
                <title>{`${day.day}: ${number.format(day.total)} requests`}</title>
                {STATUS_CLASSES.filter((c) => day.counts[c] > 0).map((c) => {
                  const from = base;
                  base += day.counts[c];
                  return <rect key={c} className={`class-${c}`} x={x} width={BAR_WIDTH} y={y(base)} height={y(from) - y(base)} />;
                })}
                {(i % 5 === 0 || i === usage.days.length - 1) && (
                  <text className="day" x={x + BAR_WIDTH / 2} y={TOP + PLOT_HEIGHT + 18} textAnchor="middle">
                    {dayLabel(day.day)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <details className="chart-numbers">
        <summary>The numbers per day as a table</summary>
        <div className="table-box" role="region" aria-label="Requests per day, scrolls sideways when wide" tabIndex={0}>
          <table className="numbers" data-testid={`${id}-table`}>
            <caption className="sr-only">Requests per day by status class</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {STATUS_CLASSES.map((c) => <th key={c} scope="col">{c}</th>)}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {usage.days.map((day) => (
                <tr key={day.day}>
                  <th scope="row"><time dateTime={day.day}>{day.day}</time></th>
                  {STATUS_CLASSES.map((c) => <td key={c}>{number.format(day.counts[c])}</td>)}
                  <td>{number.format(day.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** Requests per endpoint or MCP tool over the same period, busiest first, each with a bar of its share. */
export function EndpointUsage({ usage, id }: { usage: RequestUsage; id: string }) {
  if (usage.endpoints.length === 0) return <p className="muted">No requests in the last {usage.days.length} days.</p>;
  const busiest = usage.endpoints[0]!.total;
  return (
    <div className="table-box" role="region" aria-label="Requests per endpoint, scrolls sideways when wide" tabIndex={0}>
      <table className="numbers endpoints" data-testid={`${id}-endpoints`}>
        <caption className="table-note">Last {usage.days.length} days, busiest first. MCP tools are named mcp:&lt;tool&gt;.</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint or tool</th>
            <th scope="col">Requests</th>
            {STATUS_CLASSES.map((c) => <th key={c} scope="col">{c}</th>)}
          </tr>
        </thead>
        <tbody>
          {usage.endpoints.map((endpoint) => (
            <tr key={endpoint.endpoint}>
              <th scope="row" className="wrap">
                <code>{endpoint.endpoint}</code>
                <span className="share" aria-hidden="true" style={{ width: `${Math.max(2, (endpoint.total / busiest) * 100)}%` }} />
              </th>
              <td>{number.format(endpoint.total)}</td>
              {STATUS_CLASSES.map((c) => <td key={c}>{number.format(endpoint.counts[c])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
