// Counts per day as stacked bars, drawn as SVG on the server (no script, nothing to download), with the
// same numbers as a table. One drawing for every count of the settings pages: requests by status class
// for any scope of lib/usage/request-scope.ts (RequestsChart, from `requestUsage(scope)`), and a connected
// app's tool calls by tool (ToolCallsChart, from `grantCallsPerDay`). The chart has a text summary for
// screen readers (role="img"); the per-day table is in a <details> under it. Narrower than the chart's
// own width, the chart scrolls sideways in its box, never the page.
import type { RequestUsage } from '@/lib/usage/request-counts';
import { STATUS_CLASSES, type StatusClass } from '@/lib/usage/request-scope';
import type { CallsPerDay } from '@/lib/usage/tool-calls';
import './usage.css';

/** Each status class as the legend and the request log's filter name it (the same classes, disjoint, in both). */
export const CLASS_LABEL: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx not modified',
  '4xx': '4xx refused (other than 429)',
  '429': '429 rate limited',
  '5xx': '5xx server error',
};

/** How many colours usage.css has for series that are not status classes (.series-0 …); more series reuse them in turn. */
const SERIES_COLOURS = 8;

const number = new Intl.NumberFormat('en-GB');
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function dayLabel(day: string): string {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}

/** One stacked series: its key in each day's counts, its table heading, its legend text and its colour class. */
interface Series {
  key: string;
  heading: string;
  label: string;
  colour: string;
}

/** One day of the chart, oldest first; a series missing from `counts` had none that day. */
interface DayCounts {
  day: string;
  counts: Readonly<Partial<Record<string, number>>>;
  total: number;
}

// The drawing's own units. It is never drawn smaller than one pixel a unit, so that its text keeps the
// size usage.css gives it; a narrower box scrolls instead, opening on the latest day (usage.css). The
// axis is on the right, beside the latest day, so that it is in view where the box opens.
const BAR_STEP = 24;
const BAR_WIDTH = 16;
const LEFT = 8;
const RIGHT = 44;
const TOP = 12;
const PLOT_HEIGHT = 160;
const BOTTOM = 28;

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the busiest day. */
function axisMax(busiest: number): number {
  if (busiest <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(busiest));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= busiest)!;
}

/** The chart's text alternative: the period, the total by series, and the busiest day. */
function summary(days: DayCounts[], series: Series[], noun: string, subject: string, total: number): string {
  const what = subject ? `${noun} ${subject}` : noun;
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  if (total === 0) return `No ${what} from ${first} to ${last}.`;
  const bySeries = series
    .map((s) => [s.key, days.reduce((sum, d) => sum + (d.counts[s.key] ?? 0), 0)] as const)
    .filter(([, count]) => count > 0)
    .map(([key, count]) => `${number.format(count)} ${key}`)
    .join(', ');
  const busiest = days.reduce((best, d) => (d.total > best.total ? d : best));
  return `${what[0]!.toUpperCase()}${what.slice(1)} per day from ${first} to ${last}: ${number.format(total)} in all (${bySeries}); the busiest day was ${busiest.day} with ${number.format(busiest.total)}.`;
}

/** Requests per day, stacked by status class. `subject` says whose, as the summary reads it: "with the key Reporting", "of Acme". */
export function RequestsChart({ usage, subject, id }: { usage: RequestUsage; subject: string; id: string }) {
  const series = STATUS_CLASSES.map((c) => ({ key: c, heading: c, label: CLASS_LABEL[c], colour: `class-${c}` }));
  return <UsageChart days={usage.days} series={series} noun="requests" subject={subject} seriesName="Status classes" by="status class" id={id} />;
}

/** A connected app's tool calls per day, stacked by tool. */
export function ToolCallsChart({ calls, id }: { calls: CallsPerDay; id: string }) {
  const series = calls.tools.map((tool, i) => ({ key: tool, heading: tool, label: tool, colour: `series-${i % SERIES_COLOURS}` }));
  return <UsageChart days={calls.days} series={series} noun="tool calls" subject="" seriesName="Tools" by="tool" id={id} />;
}

function UsageChart(props: { days: DayCounts[]; series: Series[]; noun: string; subject: string; seriesName: string; by: string; id: string }) {
  const { days, series, noun, subject, seriesName, by, id } = props;
  const total = days.reduce((sum, d) => sum + d.total, 0);
  const top = axisMax(Math.max(...days.map((d) => d.total)));
  const width = LEFT + days.length * BAR_STEP + RIGHT;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
  const title = `${noun[0]!.toUpperCase()}${noun.slice(1)}`;
  return (
    <figure className="usage-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="chart-caption">
        Last {days.length} days (UTC): {number.format(total)} {noun}
      </figcaption>
      <ul className="chart-legend" aria-label={seriesName}>
        {series.map((s) => (
          <li key={s.key}>
            <span className={`swatch ${s.colour}`} aria-hidden="true" />
            {s.label}
          </li>
        ))}
      </ul>
      <div className="chart-box" role="region" aria-label={`Chart of ${noun} per day, scrolls sideways when narrow`} tabIndex={0}>
        <svg viewBox={`0 0 ${width} ${height}`} style={{ minWidth: width }} role="img" aria-label={summary(days, series, noun, subject, total)} className="chart" data-testid={`${id}-svg`}>
          {[0, top / 2, top].map((tick) => (
            <g key={tick} className="tick">
              <line x1={LEFT} x2={width - RIGHT + 4} y1={y(tick)} y2={y(tick)} />
              <text x={width - RIGHT + 8} y={y(tick) + 4} textAnchor="start">{number.format(tick)}</text>
            </g>
          ))}
          {days.map((day, i) => {
            const x = LEFT + i * BAR_STEP + (BAR_STEP - BAR_WIDTH) / 2;
            let base = 0;
            return (
              <g key={day.day}>
                <title>{`${day.day}: ${number.format(day.total)} ${noun}`}</title>
                {series.filter((s) => (day.counts[s.key] ?? 0) > 0).map((s) => {
                  const from = base;
                  base += day.counts[s.key]!;
                  return <rect key={s.key} className={s.colour} x={x} width={BAR_WIDTH} y={y(base)} height={y(from) - y(base)} />;
                })}
                {(i % 5 === 0 || i === days.length - 1) && (
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
        <div className="table-box" role="region" aria-label={`${title} per day, scrolls sideways when wide`} tabIndex={0}>
          <table className="numbers" data-testid={`${id}-table`}>
            <caption className="sr-only">{title} per day by {by}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((s) => <th key={s.key} scope="col">{s.heading}</th>)}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row"><time dateTime={day.day}>{day.day}</time></th>
                  {series.map((s) => <td key={s.key}>{number.format(day.counts[s.key] ?? 0)}</td>)}
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
  // The note is above the scrolling box, not the table's caption: a caption is as wide as its table,
  // and scrolled out of view with the columns on a phone.
  return (
    <>
    <p className="table-note" id={`${id}-endpoints-note`}>Last {usage.days.length} days, busiest first. MCP tools are named mcp:&lt;tool&gt;.</p>
    <div className="table-box" role="region" aria-label="Requests per endpoint, scrolls sideways when wide" tabIndex={0}>
      <table className="numbers endpoints" data-testid={`${id}-endpoints`} aria-describedby={`${id}-endpoints-note`}>
        <caption className="sr-only">Requests per endpoint or tool</caption>
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
    </>
  );
}
